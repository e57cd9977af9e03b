/**
 * Journal integrity over real I/O (a `tablegw start` process, a pty, Mosquitto): a damaged journal
 * is refused (exit 65, naming the path and the problem), `tablegw recover --accept-loss` starts
 * the table again above the high-water mark with a journal-loss alert, and no seq is reused. And
 * the SEQ baseline of a device survives a gateway restart: frames lost while it was down hold the
 * round in progress.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DAMAGES, runCase } from '../../dev/chaos/sections/journal-damage.js';
import { kill, makeRig, Shoe, startGatewayProcess, Subscriber, type Rig } from '../../dev/chaos/gateway-rig.js';
import { realIoOrSkip } from '../helpers/real-io.js';

const io = realIoOrSkip(['socat', 'mosquitto']);

describe.skipIf(!io.available)('journal integrity and durable SEQ (real gateway process)', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanups.reverse()) await c();
    cleanups.length = 0;
  });

  it('a deleted WAL is refused with exit 65 naming the path; recover --accept-loss goes on above the mark, no seq reused', async () => {
    const o = await runCase('WAL deleted', DAMAGES['WAL deleted'], () => {}, 2);
    expect(o.refused).toBe(true);
    expect(o.exitCode).toBe(65);
    expect(o.message).toMatch(/gateway\.db/);
    expect(o.message).toMatch(/\[journal-(behind|empty)\]/);
    expect(o.recovered).toBe(true);
    expect(o.seqReused).toBe(0);
    expect(o.nextSeq).toBeGreaterThan(o.before);
  }, 60_000);

  it('a zero-length database is refused, then recovered without seq reuse', async () => {
    const o = await runCase('zero-length db', DAMAGES['zero-length db'], () => {}, 2);
    expect(o).toMatchObject({ refused: true, exitCode: 65, recovered: true, seqReused: 0 });
    expect(o.message).toMatch(/journal-empty/);
  }, 60_000);

  it('frames lost while the gateway was down are a gap: the round in progress is held', async () => {
    const rig: Rig = await makeRig('seq-restart');
    cleanups.push(() => rig.dispose());
    const sub = await Subscriber.connect(rig.broker.url, 'seq-restart-sub');
    cleanups.push(() => sub.client.endAsync());
    const g = await startGatewayProcess(rig, sub, 'seq-restart');
    expect(g.exited).toBeUndefined();
    const shoe = new Shoe(rig.pty);
    await shoe.cards('9H', 'KD');
    await sub.waitFor((m) => m.topic === 'casino/seq-restart/events' && m.payload.card === 'KD');
    await new Promise((r) => setTimeout(r, 400)); // the SEQ note is committed (<= 200 ms)
    await kill(g.run, 'SIGKILL');
    shoe.seq += 2; // two frames the shoe sent while the gateway was down: lost
    const g2 = await startGatewayProcess(rig, sub, 'seq-restart');
    cleanups.push(() => kill(g2.run, 'SIGTERM'));
    expect(g2.exited).toBeUndefined();
    const from = sub.got.length;
    await shoe.cards('9C');
    const gap = await sub.waitFor((m) => m.topic === 'casino/seq-restart/alerts' && m.payload.kind === 'frame-gap', 10000, from);
    expect(gap.payload).toMatchObject({ severity: 'critical', missing: 2, repaired: false, deviceId: 'shoe-1' });
    await sub.waitFor((m) => m.topic === 'casino/seq-restart/round' && m.payload.phase === 'held', 5000, from);
    expect(sub.got.slice(from).some((m) => m.topic === 'casino/seq-restart/events' && m.payload.kind === 'card')).toBe(false);
  }, 60_000);
});
