'use strict';
// msgpackr with records, in its pure-JS mode (no msgpackr-extract): the peer issue 39 sets
// shorn's JS back end against (benchmark/backends.js). The variable is read when msgpackr
// loads, and each codec runs in a process of its own.
process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED = 'true';
const msgpackr = require('./msgpackr');

module.exports = { ...msgpackr, name: 'msgpackr-js' };
