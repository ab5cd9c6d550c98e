// ESM entry of shorn/http: the same objects as the CommonJS one.
import http from './http.js';

export const { MEDIA_TYPE, FRAMES_MEDIA_TYPE, JSON_MEDIA_TYPE, ACCEPT, DEFAULT_RECEIVE_LIMIT, parseContentType, parseAccept, contentType, send, receive } = http;
export default http;
