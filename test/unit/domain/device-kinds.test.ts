/**
 * The device-kind catalogue (src/core/vocabulary/device-kinds.ts) is the one source of what a kind is: the
 * config accepts exactly its kinds, and the driver the factory builds for a kind on a serial line
 * behaves as the catalogue says (stale timer with heartbeats, commands, the talker it decodes).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DriverEvent } from '../../../drivers/device-driver.js';
import { MemoryTransport } from '../../../drivers/transports/memory-transport.js';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { deviceKindSchema } from '../../../src/core/vocabulary/config-schema.js';
import { DEVICE_KIND_FACTS, DEVICE_KINDS, readsCards } from '../../../src/core/vocabulary/device-kinds.js';
import { TALKERS } from '../../../src/core/vocabulary/frames.js';
import { createDriver } from '../../../src/app/device-drivers.js';

const GAME_OF: Record<string, string> = { card: 'baccarat', 'sic-bo': 'sic-bo', keno: 'keno' };

/** a table of the kind's first table kind, with the device on a serial line */
function deviceOnSerial(kind: (typeof DEVICE_KINDS)[number]) {
  const facts = DEVICE_KIND_FACTS[kind];
  const cfg = validateConfig({
    mqtt: { url: 'mqtt://127.0.0.1:1' },
    tables: [{ id: 't1', game: GAME_OF[facts.tables[0]], devices: [{ id: 'd1', kind, staleAfterMs: 50, transport: { type: 'serial', path: '/dev/null' } }] }],
  });
  return cfg.tables[0].devices[0];
}

describe('the device-kind catalogue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("is the config schema's list of kinds, each with a known talker", () => {
    expect([...deviceKindSchema.options]).toEqual([...DEVICE_KINDS]);
    for (const k of DEVICE_KINDS) expect(TALKERS).toContain(DEVICE_KIND_FACTS[k].talker);
    expect(DEVICE_KINDS.filter(readsCards)).toEqual(['card-shoe', 'rfid-shoe', 'barcode-scanner']);
    expect(readsCards('toString')).toBe(false);
  });

  // (an rfid-shoe needs a deck registry file; it shares the card shoe's line protocol rules)
  it.each(DEVICE_KINDS.filter((k) => k !== 'rfid-shoe'))('%s on a serial line: stale timer, commands and SEQ as the catalogue says', (kind) => {
    const facts = DEVICE_KIND_FACTS[kind];
    const transport = new MemoryTransport();
    const driver = createDriver(deviceOnSerial(kind), transport);
    const events: DriverEvent[] = [];
    driver.events$.subscribe((e) => events.push(e));
    driver.start();
    vi.advanceTimersByTime(200);
    expect(events.some((e) => e.kind === 'status' && e.state === 'stale')).toBe(facts.heartbeats);
    expect(driver.send('LOCK')).toBe(facts.takesCommands);
    driver.stop();
  });
});
