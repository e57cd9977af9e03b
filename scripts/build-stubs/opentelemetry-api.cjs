// What the bundle gets for `@opentelemetry/api` (scripts/build.mjs). prom-client requires it
// only to label exemplars with the active trace span, and the gateway never enables exemplars
// and registers no tracer: the API without an SDK has no active span, which is what this says.
// The real package is ~100 modules parsed at every start for that one unused branch.
'use strict';
module.exports = {
  context: { active: () => undefined },
  trace: { getSpan: () => undefined },
};
