// The ESM view of lib/fastify.d.ts: the same function as the default export, and its types.
import main = require('./fastify.js');
export = main;
