import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { GatewayMetrics } from '../../../src/adapters/http/metrics.js';

/** a table whose envelopes the test publishes */
function table(id: string) {
  const published$ = new Subject<{ topic: string; retain: boolean; payload: Record<string, unknown>; cause?: { type: string; at: number } }>();
  const runtime = { published$, snapshot: { seq: 0, devices: {} }, drivers: [], apply() {} };
  return { view: { id, game: 'baccarat', runtime: runtime as never, link: { connected: true, connected$: new Subject<boolean>() } }, published$ };
}

describe('the gateway metrics, prom-client loaded after the start', () => {
  it('counts what was published before prom-client was loaded, and what comes after', async () => {
    const m = new GatewayMetrics({ defaultMetrics: false });
    m.setBuildInfo({ version: '9.9.9', commit: 'abc', node: 'v20', gatewayId: 'gw-1' });
    const t = table('bac-01');
    let now = 1_000;
    m.addTable(t.view, () => now);
    t.published$.next({ topic: 'events', retain: false, payload: { type: 'event' }, cause: { type: 'frame', at: 997 } });
    t.published$.next({ topic: 'alerts', retain: false, payload: { type: 'alert', kind: 'bad-frame', severity: 'warning' } });
    t.published$.next({ topic: 'result', retain: true, payload: { type: 'result', game: 'baccarat', status: 'complete' } });
    // the first scrape loads prom-client: the three envelopes before it are there
    let text = await m.text();
    expect(text).toContain('tablegw_messages_published_total{table="bac-01",type="event"} 1');
    expect(text).toContain('tablegw_alerts_total{table="bac-01",kind="bad-frame",severity="warning"} 1');
    expect(text).toContain('tablegw_rounds_total{table="bac-01",game="baccarat",status="complete"} 1');
    expect(text).toContain('tablegw_frame_to_publish_seconds_bucket{le="0.005",table="bac-01"} 1');
    expect(text).toContain('tablegw_frame_to_publish_seconds_bucket{le="0.002",table="bac-01"} 0');
    expect(text).toContain('tablegw_build_info{version="9.9.9",commit="abc",node="v20",gateway_id="gw-1"} 1');
    now = 2_000;
    t.published$.next({ topic: 'result', retain: true, payload: { type: 'result', game: 'baccarat', status: 'complete' } });
    text = await m.text();
    expect(text).toContain('tablegw_rounds_total{table="bac-01",game="baccarat",status="complete"} 2');
    expect(m.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    m.stop();
  });

  it("the process metrics carry their standard names (process_*, nodejs_*), the gateway's its prefix", async () => {
    const m = new GatewayMetrics();
    const t = table('bac-03');
    m.addTable(t.view);
    t.published$.next({ topic: 'events', retain: false, payload: { type: 'event' } });
    const text = await m.text();
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).not.toMatch(/^tablegw_(process|nodejs)_/m);
    expect(text).toContain('tablegw_messages_published_total{table="bac-03",type="event"} 1');
    m.stop();
  });

  it('loadSoon loads it by itself', async () => {
    const m = new GatewayMetrics({ defaultMetrics: false });
    const t = table('bac-02');
    m.addTable(t.view);
    t.published$.next({ topic: 'events', retain: false, payload: { type: 'event' } });
    m.loadSoon(10);
    await new Promise((r) => setTimeout(r, 200));
    // loaded: the envelope is counted and nothing waits any more
    expect((m as unknown as { built: unknown }).built).not.toBeNull();
    expect((m as unknown as { backlog: unknown[] }).backlog).toEqual([]);
    expect(await m.text()).toContain('tablegw_messages_published_total{table="bac-02",type="event"} 1');
    m.stop();
  });
});
