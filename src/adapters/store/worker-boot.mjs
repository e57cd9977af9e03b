// Starts a worker thread's module by URL (workerData.module): a compiled .js as it is (the bundle,
// dist/), a TypeScript source (.ts, under tsx in development and tests) after registering tsx's
// loader in this thread, which a worker does not inherit from its parent.
import { workerData } from 'node:worker_threads';

if (workerData.module.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.module);
