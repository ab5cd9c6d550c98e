// ESM entry: the same objects as the CommonJS one (index.js), each taken from the module
// that makes it, so that a bundler leaves out what an app does not import (lib/envelope.js
// when `createRegistry` is not: package.json "sideEffects": false).
import shorn from './index.js';

export { t, compile, encode, decode, fromZod, fromZodReport, fromJsonSchema, compatibility, ShornError, Codec } from './lib/compile.js';
export { createRegistry } from './index.js';
export default shorn;
