'use strict';
// The browser build's fromZod, fromZodReport and fromJsonSchema (package.json "browser"
// maps lib/zod.js and lib/json-schema.js here): the bridges stay out of a page's bundle,
// where they would be a third of it. A schema built from Zod or JSON Schema is a plain
// JSON descriptor: make it in Node, ship its JSON, compile it in the page.

const { ShornError } = require('./errors');

function notInBrowser(name) {
  return () => {
    throw new ShornError(
      'ERR_SHORN_SCHEMA',
      `${name} is not in shorn's browser build: convert the schema in Node (JSON.stringify(${name}(...))) and compile that descriptor in the page`,
    );
  };
}

module.exports = {
  fromZod: notInBrowser('fromZod'),
  fromZodReport: notInBrowser('fromZodReport'),
  fromJsonSchema: notInBrowser('fromJsonSchema'),
};
