/**
 * The simulators as the gateway takes them (src/runtime/simulators.ts): loaded only when called,
 * i.e. only when a table has a `transport: { type: simulator }` device.
 */
import type { LoadSimulators } from '../src/runtime/simulators.js';

export const loadSimulators: LoadSimulators = async () => {
  const [{ createVirtualDevices }, { VirtualEngine }] = await Promise.all([import('./index.js'), import('./virtual-engine.js')]);
  return { createVirtualDevices, VirtualEngine };
};
