'use strict';
// shorn/fastify: a Fastify 5 plugin. A route opts in with `config: { shorn: { body,
// response } }` (or, with `jsonSchema: true`, by the JSON Schemas it already has) and then
// reads shorn messages, frames and JSON into the same values, and answers in shorn or JSON
// as the client's Accept prefers. The rules are lib/server.js's; this module puts them in
// Fastify's hooks:
//
//   preParsing     the Content-Type picks the reader (415 if none), Content-Encoding is
//                  undone within the route's bodyLimit (413 past it)
//   parsers        application/x-shorn and -frames decode; application/json is parsed in
//                  the schema's JSON forms and checked. A failure is kept for preValidation
//   preValidation  a kept failure is answered 400 with { error, code, path, offset, frame };
//                  a JSON body another parser made is checked here, so none slips through
//   serializer     the reply, encoded or in its JSON form; a value that breaks the schema
//                  is a 500 naming the path, logged with request.log
//   onSend         with the `compress` option, a 2xx reply over the threshold compressed
//                  as Accept-Encoding allows (not one that already has a Content-Encoding)
//
// No dependency on fastify-plugin: the three symbols it sets are set here (Fastify reads
// them in lib/plugin-utils.js), so an app that never loads Fastify installs nothing for it.

const server = require('./server');
const { MEDIA_TYPE, FRAMES_MEDIA_TYPE, JSON_MEDIA_TYPE } = require('./http');
const { ShornError } = require('./errors');

const kState = Symbol('shorn.request');
const OPTIONS = new Set(['jsonSchema', 'compress']);

function optionError(message) {
  return new ShornError('ERR_SHORN_SCHEMA', `shorn/fastify: ${message}`);
}

// What a request to a shorn route carries from hook to hook.
class RequestState {
  constructor(spec) {
    this.spec = spec;
    this.choice = null;
    this.failure = null;
    this.parsed = false;
    // Set by the serializer when it wrote a 2xx reply (shorn or JSON), the replies that
    // `compress` applies to.
    this.replied = false;
  }
}

// Sent as bytes: a string would go through the route's reply serializer (Fastify hands it
// strings too), which is for the handler's values.
function refuse(reply, refusal) {
  reply.code(refusal.status).type(server.JSON_REPLY_TYPE).send(Buffer.from(JSON.stringify(refusal.body)));
}

// The reply serializer of a shorn route's 2xx replies, called by Fastify with the reply as
// `this` (reply.serializer); other statuses (an error object a handler sends with 404) are
// written as plain JSON.
function serializeReply(value) {
  const state = this.request[kState];
  if (this.statusCode < 200 || this.statusCode > 299) return typeof value === 'string' ? value : JSON.stringify(value);
  try {
    const out = server.replyFor(state.spec.response, value, this.request.headers.accept);
    this.header('content-type', out.type);
    state.replied = true;
    return out.body;
  } catch (e) {
    if (!(e instanceof server.Refusal)) throw e;
    this.request.log.error({ err: e.error, path: e.body.path }, 'shorn: the reply does not match its schema');
    this.code(e.status);
    this.header('content-type', server.JSON_REPLY_TYPE);
    return JSON.stringify(e.body);
  }
}

function preParsing(spec, request, reply, payload, done) {
  const state = new RequestState(spec);
  request[kState] = state;
  if (spec.response !== null) {
    reply.serializer(serializeReply);
    reply.header('vary', server.varyWithAccept(reply.getHeader('vary')));
  }
  if (spec.body === null || !server.hasBody(request.headers)) return done(null, payload);
  let codings;
  try {
    state.choice = server.requestKind(spec, request.headers);
    codings = server.contentCodings(spec, request.headers);
  } catch (e) {
    if (!(e instanceof server.Refusal)) return done(e);
    return refuse(reply, e);
  }
  const limit = spec.bodyLimit;
  // A Content-Length over the limit is refused before a byte is read (Fastify does the same
  // for bodies it reads itself; here the answer has shorn's form).
  if (Number(request.headers['content-length']) > limit) return refuse(reply, server.tooLarge(limit));
  // @fastify/compress's preParsing hook (which runs first) has decoded the body already
  // when the stream it hands on counts `receivedEncodedLength`, as Fastify asks of such
  // streams; a body is never decompressed twice.
  if (codings.length === 0 || payload.receivedEncodedLength !== undefined) return done(null, payload);
  done(null, server.decodedStream(payload, codings, limit));
}

// The onSend hook of a shorn route's replies under the plugin's `compress` option: a 2xx
// reply the serializer wrote is compressed (off the main thread) when the request's
// Accept-Encoding allows a coding and the body reaches the threshold. A reply that already
// has a Content-Encoding (@fastify/compress's onSend ran first and compressed it) is left
// as it is: never compressed twice.
function compressReply(compress, request, reply, payload, done) {
  const state = request[kState];
  if (state === undefined || !state.replied || payload === null || payload === undefined || typeof payload.pipe === 'function') return done(null, payload);
  reply.header('vary', server.varyWith(reply.getHeader('vary'), 'Accept-Encoding'));
  const current = reply.getHeader('content-encoding');
  if (current !== undefined && current !== 'identity') return done(null, payload);
  const coding = server.replyEncoding(compress, request.headers['accept-encoding'], server.bodyLength(payload));
  if (coding === null) return done(null, payload);
  server.compressBody(payload, coding, (error, out) => {
    if (error) return done(error);
    reply.header('content-encoding', coding);
    reply.header('content-length', out.length);
    done(null, out);
  });
}

// The parser of application/x-shorn and application/x-shorn-frames. On a route without
// shorn config such a body is a 415, as Fastify answers a type it has no parser for.
function parseShorn(request, bytes, done) {
  const state = request[kState];
  if (state === undefined || state.choice === null) {
    const error = new ShornError('ERR_SHORN_MEDIA_TYPE', `this route does not read ${MEDIA_TYPE} or ${FRAMES_MEDIA_TYPE}`);
    error.statusCode = 415;
    return done(error);
  }
  done(null, bodyOf(state, bytes));
}

// A body's value, or undefined with the failure kept for preValidation to answer: Fastify
// answers a parser's error with its own body, which has no path, offset or frame.
function bodyOf(state, bytes) {
  try {
    const value = server.bodyValue(state.spec, state.choice, bytes);
    state.parsed = true;
    return value;
  } catch (e) {
    if (!(e instanceof server.Refusal)) throw e;
    state.failure = e;
    return undefined;
  }
}

function preValidation(request, reply, done) {
  const state = request[kState];
  if (state.failure !== null) return refuse(reply, state.failure);
  if (state.choice !== null && state.choice.kind === 'json' && !state.parsed) {
    // Another JSON parser (one registered after shorn's, or in a context shorn's does not
    // reach) parsed this body: its value is converted and checked as shorn's would be.
    try {
      request.body = server.parsedJsonValue(state.spec, request.body);
    } catch (e) {
      if (!(e instanceof server.Refusal)) return done(e);
      return refuse(reply, e);
    }
  }
  done();
}

// Adds `hook` to a route's own hooks of `name`, first or last.
function addRouteHook(route, name, hook, first) {
  const have = route[name];
  const list = have === undefined || have === null ? [] : Array.isArray(have) ? have.slice() : [have];
  if (first) list.unshift(hook);
  else list.push(hook);
  route[name] = list;
}

// The shorn config of a route served from its JSON Schemas (`jsonSchema: true`): its
// schema.body and the schema of its 200 (or 2xx) reply, through fromJsonSchema.
// A schema fromJsonSchema refuses is ERR_SHORN_SCHEMA naming the route and the keyword's
// place; a route opts out with `config: { shorn: false }`.
function fromRouteSchemas(route, fromJsonSchema, where) {
  const schema = route.schema;
  if (schema === undefined || schema === null) return null;
  const convert = (what, jsonSchema) => {
    try {
      return fromJsonSchema(jsonSchema);
    } catch (e) {
      if (e instanceof ShornError) e.message = `${where}: ${what}: ${e.message} (config: { shorn: false } serves the route without shorn)`;
      throw e;
    }
  };
  const config = {};
  if (schema.body !== undefined) config.body = convert('schema.body', schema.body);
  const replies = schema.response;
  const ok = replies === undefined ? undefined : replies[200] !== undefined ? replies[200] : replies['2xx'];
  if (ok !== undefined) {
    // Fastify also takes { content: { 'application/json': { schema } } } per status.
    const json = ok.content !== undefined && ok.content[JSON_MEDIA_TYPE] !== undefined ? ok.content[JSON_MEDIA_TYPE].schema : ok;
    config.response = convert(`schema.response[${replies[200] !== undefined ? 200 : "'2xx'"}]`, json);
  }
  return config.body === undefined && config.response === undefined ? null : config;
}

function shornPlugin(app, options, done) {
  if (options === null || typeof options !== 'object') return done(optionError('options must be an object'));
  for (const key of Object.keys(options)) {
    // Fastify passes its own register options (prefix, logLevel, ...) along with the
    // plugin's; those are left alone.
    if (!OPTIONS.has(key) && !['prefix', 'logLevel', 'logSerializers'].includes(key)) return done(optionError(`unknown option ${JSON.stringify(key)} (expected jsonSchema, compress)`));
  }
  if (options.jsonSchema !== undefined && typeof options.jsonSchema !== 'boolean') return done(optionError('jsonSchema must be a boolean'));
  let compress;
  try {
    compress = server.compressOption(options.compress, 'shorn/fastify');
  } catch (e) {
    return done(e);
  }
  let fromJsonSchema = null;
  if (options.jsonSchema === true) {
    fromJsonSchema = require('../index.js').fromJsonSchema;
    if (typeof fromJsonSchema !== 'function') return done(optionError('jsonSchema: true needs fromJsonSchema, which this build of shorn does not have'));
  }

  // Fastify's JSON parser gave a shorn route unchecked objects (issue 40 found it
  // answering 200). It is replaced by one that parses a shorn route's JSON in its schema's
  // JSON forms and checks it, and hands every other route to Fastify's own parser, made
  // with the app's settings.
  const { onProtoPoisoning, onConstructorPoisoning } = app.initialConfig;
  const fastifyJson = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  app.removeContentTypeParser(JSON_MEDIA_TYPE);
  app.addContentTypeParser(JSON_MEDIA_TYPE, { parseAs: 'string' }, function parseJson(request, text, parsed) {
    const state = request[kState];
    if (state === undefined || state.choice === null) return fastifyJson(request, text, parsed);
    parsed(null, bodyOf(state, text));
  });
  app.addContentTypeParser([MEDIA_TYPE, FRAMES_MEDIA_TYPE], { parseAs: 'buffer' }, parseShorn);

  app.addHook('onRoute', (route) => {
    const where = `route ${route.method} ${route.url}`;
    let config = route.config !== undefined && route.config !== null ? route.config.shorn : undefined;
    if (config === false) return;
    if (config === undefined && fromJsonSchema !== null) config = fromRouteSchemas(route, fromJsonSchema, where);
    if (config === undefined || config === null) return;
    // The route's bodyLimit, or the server's: Fastify has no other level for it.
    const spec = { ...server.routeSpec(config, `${where}: config.shorn`), bodyLimit: route.bodyLimit || app.initialConfig.bodyLimit };
    addRouteHook(route, 'preParsing', (request, reply, payload, next) => preParsing(spec, request, reply, payload, next), false);
    addRouteHook(route, 'preValidation', preValidation, true);
    if (compress !== null && spec.response !== null) addRouteHook(route, 'onSend', (request, reply, payload, next) => compressReply(compress, request, reply, payload, next), false);
  });
  done();
}

shornPlugin[Symbol.for('skip-override')] = true;
shornPlugin[Symbol.for('fastify.display-name')] = 'shorn';
shornPlugin[Symbol.for('plugin-meta')] = { fastify: '5.x', name: 'shorn' };

module.exports = shornPlugin;
module.exports.default = shornPlugin;
module.exports.shornPlugin = shornPlugin;
