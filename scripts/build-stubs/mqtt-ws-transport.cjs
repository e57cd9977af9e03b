// mqtt.js's WebSocket transport (`ws://`, `wss://` broker URLs) for the bundle, loaded from
// node_modules at the first such connect instead of bundled: with `ws` it was 130 KB of the
// ~1.7 MB every start compiled and, at the first connect, evaluated, for a transport most
// deployments never use (docs/PERFORMANCE.md, "What the cold start is"). The same module, the
// same behaviour; only when it loads changes. scripts/bundle.mjs puts this in place of mqtt's
// `./ws` and leaves `mqtt/lib/connect/ws` outside the bundle.
'use strict';

let real = null;
const load = () => {
  real ??= require('mqtt/lib/connect/ws');
  return real;
};

exports.streamBuilder = (client, opts) => load().streamBuilder(client, opts);
exports.browserStreamBuilder = (client, opts) => load().browserStreamBuilder(client, opts);
