/**
 * HID profiles end to end in process (memory transports, one input report per chunk as a HID
 * line delivers them): a keyboard-wedge scanner read through `profile: wedge-scanner` deals a
 * baccarat round as the table's dealing reader, and a dice sensor read through `profile:
 * hid-dice-sensor` rolls a sic bo round. The devices' bytes come from the profile encoder.
 */
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDriver } from '../../../src/app/device-drivers.js';
import { createProfileEncoder, type EncodableFrame } from '../../../drivers/profiles/profile-encoder.js';
import { loadProfileFile } from '../../../drivers/profiles/profile-schema.js';
import { MemoryTransport } from '../../../drivers/transports/memory-transport.js';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { TableRuntime } from '../../../src/runtime/table-runtime.js';
import { silentLogger } from '../../../src/runtime/log.js';
import type { IncomingRequest } from '../../../src/runtime/ports.js';
import { topicsFor } from '../../../src/core/vocabulary/topics.js';
import { GatewayStore } from '../../../src/adapters/store/gateway-store.js';
import { tableSettings } from '../../../src/core/table/table-settings.js';
import type { Envelope } from '../../../src/core/table/types.js';

/** a broker connection that acknowledges at once and records what it got */
class FakeLink {
  connected = true;
  readonly movedBroker = false;
  readonly connected$ = new Subject<boolean>();
  readonly requests$ = new Subject<IncomingRequest>().asObservable();
  readonly sent: Array<{ topic: string; payload: Envelope }> = [];
  readonly topics: ReturnType<typeof topicsFor>;
  constructor(private readonly table: string) {
    this.topics = topicsFor('casino', table);
  }
  publish(topic: string, payload: string, _retain: boolean, _cd?: string, done?: (err?: Error) => void): void {
    this.sent.push({ topic, payload: JSON.parse(payload) as Envelope });
    done?.();
  }
  on(relative: string): Envelope[] {
    return this.sent.filter((m) => m.topic.endsWith(`/${this.table}/${relative}`)).map((m) => m.payload);
  }
}

const HID = { type: 'hid', vendorId: 0x05e0, productId: 0x1200 };

function startTable(table: Record<string, unknown>) {
  const cfg = validateConfig({ mqtt: { url: 'mqtt://127.0.0.1:1' }, tables: [table] });
  const t = cfg.tables[0];
  const dev = t.devices[0];
  const transport = new MemoryTransport({ name: dev.id });
  const link = new FakeLink(t.id);
  const runtime = new TableRuntime({
    settings: tableSettings(t),
    tableConfig: t,
    link: link,
    drivers: [createDriver(dev, transport)],
    store,
    log: silentLogger,
  });
  runtime.start();
  const encoder = createProfileEncoder(loadProfileFile(dev.profile!));
  /** the frame as the device sends it: whole reports, one per chunk */
  const send = (f: EncodableFrame): void => {
    const b = encoder.encode(f);
    const n = encoder.reportBytes!;
    for (let at = 0; at < b.length; at += n) transport.deliver(b.subarray(at, at + n));
  };
  return { dev, link, runtime, send, transport, encoder };
}

/** lets the store commit and what follows run (an immediate queued by a timer runs once the clock moves) */
function settle(): void {
  for (let i = 0; i < 5; i++) vi.advanceTimersByTime(1);
}

let store: GatewayStore;
beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 11, 2, 1, 0, 0) });
  store = new GatewayStore(':memory:', { synchronous: 'normal', retentionDays: 14 });
});
afterEach(() => {
  store.close();
  vi.useRealTimers();
});

describe('HID profiles at a table', () => {
  it('a keyboard-wedge scanner with profile wedge-scanner deals a baccarat round as the dealing reader', () => {
    const { dev, link, send } = startTable({
      id: 'bac-01',
      game: 'baccarat',
      betting: 'none',
      devices: [{ id: 'scan-1', kind: 'barcode-scanner', profile: 'wedge-scanner', transport: HID }],
    });
    expect(dev.role).toBe('dealer');
    expect(dev.profile).toMatch(/drivers\/profiles\/shipped\/wedge-scanner\.yaml$/);
    settle();
    for (const card of ['9S', '2H', 'KD', '3C']) send({ type: 'CARD', card, rescan: false });
    settle();
    expect(link.on('result').at(-1)).toMatchObject({ status: 'complete', cards: { player: ['9S', 'KD'], banker: ['2H', '3C'], burn: [] } });
    expect(link.on('events').filter((e) => e.kind === 'card')).toHaveLength(4);
  });

  it('a dice sensor with profile hid-dice-sensor rolls a sic bo round; a report with a bad check is no roll', () => {
    const { link, send, transport, encoder } = startTable({
      id: 'sb-01',
      game: 'sic-bo',
      betting: 'none',
      devices: [{ id: 'dice-1', kind: 'dice-sensor', profile: 'hid-dice-sensor', transport: HID }],
    });
    settle();
    const bad = encoder.encode({ type: 'ROLL', dice: [6, 6, 6], bounces: 2, seq: 0 });
    bad[7] ^= 0xff;
    transport.deliver(bad);
    send({ type: 'ROLL', dice: [2, 5, 5], bounces: 3, seq: 1 });
    settle();
    const result = link.on('result').at(-1);
    expect(result).toMatchObject({ status: 'complete' });
    expect(JSON.stringify(result)).toContain('[2,5,5]');
    expect(JSON.stringify(link.sent.map((m) => m.payload))).not.toContain('[6,6,6]');
  });
});
