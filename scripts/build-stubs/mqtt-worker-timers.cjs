// `worker-timers` for mqtt.js in the bundle: its keepalive runs on timers in a web worker only in
// a browser or with `timerVariant: 'worker'`, which the gateway never sets; on Node it uses the
// native timers. Loaded from node_modules at the first call instead of bundled (with
// `@babel/runtime`, `broker-factory` and `fast-unique-numbers`, ~58 KB compiled at every start;
// docs/PERFORMANCE.md, "What the cold start is"). Put in place by scripts/bundle.mjs.
'use strict';

let real = null;
const load = () => {
  real ??= require('worker-timers');
  return real;
};

exports.setInterval = (...args) => load().setInterval(...args);
exports.clearInterval = (...args) => load().clearInterval(...args);
exports.setTimeout = (...args) => load().setTimeout(...args);
exports.clearTimeout = (...args) => load().clearTimeout(...args);
