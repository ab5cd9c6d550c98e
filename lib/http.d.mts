// The ESM view of lib/http.d.ts: its names, and the whole module as the default export.
export * from './http.js';
declare const http: typeof import('./http.js');
export default http;
