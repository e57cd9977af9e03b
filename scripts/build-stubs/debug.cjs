// `debug` for the bundle (scripts/build.mjs): when the process starts without DEBUG, every
// logger is one shared no-op. The real `debug` returns loggers that, even when off, build an
// array of their arguments on every call before they check; mqtt-packet calls them several
// times per packet it parses (every PUBACK), 4% of the gateway's allocations at 100 tables
// (docs/PERFORMANCE.md). With DEBUG set at start, the real `debug`, unchanged.
'use strict';

function off() {}
off.enabled = false;
off.namespace = '';
off.extend = () => off;
off.destroy = () => true;
off.log = off;

function createDebug() {
  return off;
}
createDebug.enable = () => {};
createDebug.disable = () => '';
createDebug.enabled = () => false;
createDebug.names = [];
createDebug.skips = [];
createDebug.formatters = {};
createDebug.default = createDebug;

module.exports = process.env.DEBUG ? require('debug/src/index.js') : createDebug;
