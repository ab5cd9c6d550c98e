// The ESM view of lib/express.d.ts: the same function as the default export, and its types.
import main = require('./express.js');
export = main;
