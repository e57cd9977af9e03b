/**
 * A device that sends only rejects shows as such: per-device reject counts by reason and the last
 * reject's reason and redacted sample on the status page's /api/state and its `devices` feed
 * event, and per reason in /metrics. A real driver and decoder (the stx-etx-shoe profile) behind a
 * real HTTP server; no card value of the rejected frames may appear anywhere.
 */
import { request } from 'node:http';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceDriver } from '../../../drivers/device-driver.js';
import { compileProfile } from '../../../drivers/profiles/profile-decoder.js';
import { loadProfileFile } from '../../../drivers/profiles/profile-schema.js';
import { MemoryTransport } from '../../../drivers/transports/memory-transport.js';
import { profileFile } from '../../../src/app/config/device-profiles.js';
import type { PublishedMessage } from '../../../src/runtime/table-runtime.js';
import { silentLogger } from '../../../src/runtime/log.js';
import { GatewayMetrics } from '../../../src/adapters/http/metrics.js';
import type { TableView } from '../../../src/adapters/http/table-view.js';
import { StatusFeed, type FeedEvent } from '../../../src/adapters/http/feed.js';
import { startHttpServer, type HttpServer } from '../../../src/adapters/http/server.js';
import type { TableState } from '../../../src/core/table/types.js';

let server: HttpServer | undefined;
const stops: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  await server?.stop();
  server = undefined;
  for (const s of stops.splice(0)) await s();
});

function get(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}` } }, (res) => {
      let body = '';
      res.on('data', (b: Buffer) => {
        body += b.toString();
      });
      res.on('end', () => resolve(body));
    });
    r.on('error', reject);
    r.end();
  });
}

function table(drivers: DeviceDriver[]): TableView {
  const link = new Subject<boolean>();
  return {
    id: 'bac-01',
    game: 'baccarat',
    runtime: { published$: new Subject<PublishedMessage>(), snapshot: { seq: 0, devices: {} } as unknown as TableState, drivers, apply: () => {} },
    link: { connected: true, connected$: link },
  };
}

function profiledDriver(id: string): { driver: DeviceDriver; transport: MemoryTransport } {
  const transport = new MemoryTransport();
  const decoder = compileProfile(loadProfileFile(profileFile('stx-etx-shoe')));
  const driver = new DeviceDriver({ deviceId: id, transport, decoder: { push: (b) => decoder.push(b) }, staleAfterMs: 0 });
  driver.start();
  stops.push(() => driver.stop());
  return { driver, transport };
}

describe('a device that sends only rejects, on the status page and in /metrics', () => {
  it('shows its rejects by reason and its last reject, redacted, and counts them per reason', async () => {
    const shoe = profiledDriver('shoe-1');
    const good = profiledDriver('shoe-2');
    // shoe-1: a wrong checksum on every card frame (e.g. the wrong profile), and line noise
    shoe.transport.deliver('##\x021,C,S_K*00\x03\x022,C,H_Q*00\x03\x023,C,D_7*99\x03');
    good.transport.deliver('\x021,C,S_K*37\x03');
    const feed = new StatusFeed({ countersIntervalMs: 0 });
    stops.push(() => feed.stop());
    const metrics = new GatewayMetrics({ defaultMetrics: false });
    const t = table([shoe.driver, good.driver]);
    feed.addTable(t);
    metrics.addTable(t);
    server = await startHttpServer({ host: '127.0.0.1', port: 0, feed, metrics, tables: [t], logger: silentLogger });

    const stateText = await get(server.port, '/api/state');
    const state = JSON.parse(stateText) as { tables: Array<{ devices: Record<string, unknown> }> };
    expect(state.tables[0].devices['shoe-1']).toEqual({
      frames: 0,
      rejected: 4,
      duplicates: 0,
      rejectsByReason: { noise: 1, 'bad-checksum': 3 },
      lastReject: { reason: 'bad-checksum', sample: '\\x02?,?,???*??\\x03' },
      onlyRejects: true,
    });
    expect(state.tables[0].devices['shoe-2']).toMatchObject({ frames: 1, rejected: 0, onlyRejects: false, lastReject: null });
    // the sample keeps the frame's structure; neither the card codes nor the checksums leave
    for (const hidden of ['S_K', 'H_Q', 'D_7', '*99']) expect(stateText).not.toContain(hidden);

    const text = await get(server.port, '/metrics');
    expect(text).toContain('tablegw_device_rejects_total{table="bac-01",device="shoe-1",reason="bad-checksum"} 3');
    expect(text).toContain('tablegw_device_rejects_total{table="bac-01",device="shoe-1",reason="noise"} 1');
    expect(text).not.toMatch(/tablegw_device_rejects_total\{[^}]*device="shoe-2"/);
    expect(text).toContain('tablegw_device_bad_frames_total{table="bac-01",device="shoe-1"} 4');

    // the page's live feed: a `devices` event when the counters changed, none when they did not
    const events: FeedEvent[] = [];
    feed.events$.subscribe((e) => events.push(e));
    feed.sendChangedCounters();
    feed.sendChangedCounters();
    expect(events.filter((e) => e.kind === 'devices')).toHaveLength(1);
    shoe.transport.deliver('\x024,ZZ\x03');
    feed.sendChangedCounters();
    const last = events.filter((e) => e.kind === 'devices').at(-1);
    expect(last).toMatchObject({
      kind: 'devices',
      table: 'bac-01',
      devices: { 'shoe-1': { rejected: 5, rejectsByReason: { malformed: 1, 'bad-checksum': 3 }, lastReject: { reason: 'malformed' } } },
    });
  });
});
