#!/usr/bin/env node
'use strict';
// The `shorn` command (package.json "bin"): lib/cli/main.js does the work; docs/CLI.md
// says what each command does.

const { main } = require('../lib/cli/main');

// A reader that goes away (`shorn decode ... | head`) is not an error.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
