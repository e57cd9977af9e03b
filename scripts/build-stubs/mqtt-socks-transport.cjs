// mqtt.js's SOCKS proxy support (its `socksProxy` option) for the bundle, loaded from
// node_modules at the first connect through a proxy instead of bundled: `socks` with
// `ip-address` and `smart-buffer` was 190 KB of the ~1.7 MB every start compiled and, at the
// first connect, evaluated (docs/PERFORMANCE.md, "What the cold start is"). The gateway sets no
// proxy today; the same module loads if one is ever set. scripts/bundle.mjs puts this in place of
// mqtt's `./socks` and leaves `mqtt/lib/connect/socks` outside the bundle.
'use strict';

Object.defineProperty(exports, '__esModule', { value: true });
exports.default = (...args) => require('mqtt/lib/connect/socks').default(...args);
