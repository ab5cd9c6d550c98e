// ESM entry: the same objects as the CommonJS one.
import shorn from './index.js';

export const { t, compile, encode, decode, fromZod, fromZodReport, fromJsonSchema, compatibility, createRegistry, ShornError, Codec } = shorn;
export default shorn;
