'use strict';
// The schema both ends compile: this server (Node, the native back end) and the page (the
// browser build, the JS back end). Same bytes either way.
const { t } = require('shorn');

const Message = t.object({
  id: t.uint32(),
  from: t.string({ maxLength: 40 }),
  text: t.string({ maxLength: 500 }),
  at: t.date(),
  tags: t.array(t.enum(['info', 'warn', 'chat'])),
});

module.exports = { Message };
