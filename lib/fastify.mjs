// ESM entry of shorn/fastify: the plugin is the default export.
import shornPlugin from './fastify.js';

export { shornPlugin };
export default shornPlugin;
