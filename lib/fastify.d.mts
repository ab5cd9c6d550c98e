// The ESM view of lib/fastify.d.ts (lib/fastify.mjs): the plugin as the default export and as
// `shornPlugin`, and its types. Not `export =`, which is TS1203 in an ES module's declarations.
import shornPlugin from './fastify.js';
export type { ShornBody, ShornRouteConfig, ShornPluginOptions, CompressOptions } from './fastify.js';
export { shornPlugin };
export default shornPlugin;
