// ESM entry of shorn/express: the middleware factory is the default export.
import shorn from './express.js';

export { shorn };
export default shorn;
