'use strict';
// shorn/express: middleware for Express 5 and 4. `shorn({ body, response })` reads a
// request's body by the rules of lib/server.js (a shorn message by the reader its
// fingerprint names, frames as an array, JSON in the schema's JSON forms and checked;
// Content-Encoding undone within `bodyLimit`) into `req.body`, and gives the response
// `res.shorn(value)`, which answers in shorn or JSON as the request's Accept prefers.
// Refusals are answered here (415, 413, 400 with { error, code, path, offset, frame });
// anything else goes to `next(error)`.

const server = require('./server');
const { ShornError } = require('./errors');

const OPTIONS = new Set(['body', 'response', 'bodyLimit', 'logger', 'compress']);

function optionError(message) {
  return new ShornError('ERR_SHORN_SCHEMA', `shorn/express: ${message}`);
}

function refuse(res, refusal) {
  const body = JSON.stringify(refusal.body);
  res.statusCode = refusal.status;
  res.setHeader('content-type', server.JSON_REPLY_TYPE);
  res.setHeader('content-length', Buffer.byteLength(body));
  res.end(body);
}

/**
 * The middleware of a route: `body` (a codec or descriptor, versions `[V1, V2]` read as the
 * last, or a registry), `response` (a codec or descriptor, for `res.shorn`), `bodyLimit`
 * (bytes after decompression, default 1 MiB, as Fastify's), `logger` (where a reply that
 * breaks its schema is reported with `logger.error`; default `console`), `compress` (false by
 * default; true or `{ threshold, encodings }`: `res.shorn` replies over the threshold are
 * compressed as the request's Accept-Encoding allows, with `Vary: Accept-Encoding`).
 */
function shorn(options = {}) {
  if (options === null || typeof options !== 'object') throw optionError('options must be an object');
  for (const key of Object.keys(options)) {
    if (!OPTIONS.has(key)) throw optionError(`unknown option ${JSON.stringify(key)} (expected body, response, bodyLimit, logger, compress)`);
  }
  const { bodyLimit = server.DEFAULT_BODY_LIMIT, logger = console } = options;
  if (!Number.isSafeInteger(bodyLimit) || bodyLimit < 0) throw optionError(`bodyLimit must be a whole number of bytes, found ${String(bodyLimit)}`);
  if (logger === null || typeof logger.error !== 'function') throw optionError('logger must have an error method');
  const config = {};
  if (options.body !== undefined) config.body = options.body;
  if (options.response !== undefined) config.response = options.response;
  const spec = server.routeSpec(config, 'shorn/express');
  const compress = server.compressOption(options.compress, 'shorn/express');

  function end(res, body) {
    res.setHeader('content-length', Buffer.byteLength(body));
    res.end(body);
  }

  function replyWith(req, res, value) {
    let out;
    try {
      out = server.replyFor(spec.response, value, req.headers.accept);
    } catch (e) {
      if (!(e instanceof server.Refusal)) throw e;
      logger.error(`shorn: the reply to ${req.method} ${req.originalUrl || req.url} does not match its schema: ${e.error.message}`);
      return refuse(res, e);
    }
    res.setHeader('content-type', out.type);
    if (compress === null) return end(res, out.body);
    res.setHeader('vary', server.varyWith(res.getHeader('vary'), 'Accept-Encoding'));
    const coding = server.replyEncoding(compress, req.headers['accept-encoding'], server.bodyLength(out.body));
    if (coding === null) return end(res, out.body);
    server.compressBody(out.body, coding, (error, compressed) => {
      if (error) {
        logger.error(`shorn: the reply to ${req.method} ${req.originalUrl || req.url} did not compress: ${error.message}`);
        return end(res, out.body);
      }
      // compression() and other middleware see the Content-Encoding and leave it alone.
      res.setHeader('content-encoding', coding);
      end(res, compressed);
    });
  }

  return function shornMiddleware(req, res, next) {
    if (spec.response !== null) {
      res.setHeader('vary', server.varyWithAccept(res.getHeader('vary')));
      res.shorn = (value) => replyWith(req, res, value);
    }
    if (spec.body === null || !server.hasBody(req.headers)) return next();
    let choice;
    let codings;
    try {
      choice = server.requestKind(spec, req.headers);
      codings = server.contentCodings(spec, req.headers);
    } catch (e) {
      if (!(e instanceof server.Refusal)) return next(e);
      req.resume();
      return refuse(res, e);
    }
    // A body parser that ran first (express.json(), express.raw()) has read the stream:
    // its result is taken, and a JSON body is checked as if shorn had parsed it. body-parser
    // 1 (Express 4) marks that with `_body`; 2 (Express 5) leaves a finished stream.
    if (req._body === true || (req.complete && !req.readable)) {
      try {
        if (choice.kind === 'json') req.body = server.parsedJsonValue(spec, req.body);
        else req.body = server.bodyValue(spec, choice, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
      } catch (e) {
        if (!(e instanceof server.Refusal)) return next(e);
        return refuse(res, e);
      }
      return next();
    }
    if (Number(req.headers['content-length']) > bodyLimit) {
      req.resume();
      return refuse(res, server.tooLarge(bodyLimit));
    }
    const stream = codings.length === 0 ? req : server.decodedStream(req, codings, bodyLimit);
    server.readAll(stream, bodyLimit).then(
      (bytes) => {
        try {
          req.body = server.bodyValue(spec, choice, bytes);
        } catch (e) {
          if (!(e instanceof server.Refusal)) return next(e);
          return refuse(res, e);
        }
        req._body = true;
        next();
      },
      (e) => {
        if (!(e instanceof server.Refusal)) return next(e);
        // The rest of an over-long body is not read: the connection is closed after the
        // answer, as body-parser does.
        res.setHeader('connection', 'close');
        req.resume();
        refuse(res, e);
      },
    );
  };
}

module.exports = shorn;
module.exports.default = shorn;
module.exports.shorn = shorn;
