'use strict';
// The browsers the tests and benchmarks drive (tests/browser/browser.test.js,
// scripts/fuzz-page.js, benchmark/browser.js): Debian's Chromium and Firefox ESR, which
// .ci/run installs, launched headless by puppeteer-core (which downloads no browser):
// Chromium over CDP, Firefox over WebDriver BiDi. SHORN_CHROMIUM and SHORN_FIREFOX name
// other binaries.

const fs = require('node:fs');

const BROWSERS = {
  chromium: process.env.SHORN_CHROMIUM || '/usr/bin/chromium',
  firefox: process.env.SHORN_FIREFOX || '/usr/bin/firefox-esr',
};
const PACKAGES = { chromium: 'chromium', firefox: 'firefox-esr' };

/** puppeteer-core's Browser for `which` ('chromium' or 'firefox'), with `options` added. */
function launch(which, options = {}) {
  const executablePath = BROWSERS[which];
  if (executablePath === undefined) throw new Error(`no browser ${which}: chromium or firefox`);
  if (!fs.existsSync(executablePath)) throw new Error(`${which} is not at ${executablePath} (apt-get install ${PACKAGES[which]})`);
  const puppeteer = require('puppeteer-core');
  return puppeteer.launch(
    which === 'firefox'
      ? { browser: 'firefox', executablePath, headless: true, ...options }
      : { executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], ...options },
  );
}

module.exports = { BROWSERS, launch };
