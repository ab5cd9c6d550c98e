// The ESM view of lib/express.d.ts (lib/express.mjs): the middleware factory as the default
// export and as `shorn`, and its types. Not `export =`, which is TS1203 in an ES module's
// declarations.
import shorn from './express.js';
export type { ShornBody, BodyValue, ShornOptions, CompressOptions, ShornRequest, ShornResponse, ShornMiddleware } from './express.js';
export { shorn };
export default shorn;
