/**
 * The client's intake and retries on a real Mosquitto, with a plain MQTT client playing the
 * gateway: a message seen again is dropped and reported, an invalid one is reported and not
 * delivered, an epoch appearing is reported, and a request nobody answers is sent again with the
 * same transaction and body, then rejected with a stable code.
 */
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { startMosquitto } from '../../../dev/rig/mosquitto.js';
import { realIoOrSkip } from '../../../test/helpers/real-io.js';
import { until } from '../../../test/helpers/floor.js';
import { EngineClient, RequestTimeoutError, type StreamEvent } from '../src/index.js';

const io = realIoOrSkip(['mosquitto']);

const response = (seq: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    v: 1,
    type: 'response',
    table: 'tab-1',
    game: 'baccarat',
    seq,
    ts: new Date(0).toISOString(),
    command: 'status',
    transaction: `t-${seq}`,
    status: 'ok',
    ...extra,
  });

describe.skipIf(!io.available)('the engine client: intake and retries (Mosquitto)', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    cleanup.length = 0;
  });

  it('drops and reports duplicates, reports gaps, invalid messages and a new epoch; delivers each message once', async () => {
    const broker = await startMosquitto();
    cleanup.push(() => broker.stop());
    const engine = await EngineClient.connect({ url: broker.url, tables: ['tab-1'] });
    cleanup.push(() => engine.close());
    const events: StreamEvent[] = [];
    engine.events$.subscribe((e) => events.push(e));
    const got: number[] = [];
    engine.of('tab-1', 'response').subscribe((r) => got.push(r.seq));
    const gw = await mqtt.connectAsync(broker.url, { clientId: 'fake-gateway' });
    cleanup.push(() => gw.endAsync(true));
    const pub = (seq: number, extra?: Record<string, unknown>) => gw.publishAsync('casino/tab-1/response/status', response(seq, extra), { qos: 1 });

    await pub(1);
    await pub(2);
    await pub(2); // the outbox's redelivery
    await pub(5); // 3 and 4 lost
    await gw.publishAsync('casino/tab-1/response/status', JSON.stringify({ v: 1, type: 'response', seq: 6 }), { qos: 1 });
    await pub(4); // late: fills part of the gap
    await pub(1, { epoch: 'e-2' }); // a new epoch numbers on its own
    await until(() => got.length >= 5, 5_000, 'the messages');
    await new Promise((r) => setTimeout(r, 200));

    expect(got).toEqual([1, 2, 5, 4, 1]);
    expect(events.filter((e) => e.kind !== 'connection')).toEqual([
      { kind: 'duplicate', table: 'tab-1', epoch: '', seq: 2, topic: 'casino/tab-1/response/status' },
      { kind: 'gap', table: 'tab-1', epoch: '', from: 3, to: 4 },
      {
        kind: 'invalid',
        table: 'tab-1',
        topic: 'casino/tab-1/response/status',
        problems: expect.arrayContaining([expect.stringMatching(/^response\/status: table: /)]),
      },
      { kind: 'gap-filled', table: 'tab-1', epoch: '', seq: 4 },
      { kind: 'new-epoch', table: 'tab-1', epoch: 'e-2', previous: '' },
    ]);
  });

  it('a request nobody answers is sent again with the same transaction and body, then rejected with request-timeout', async () => {
    const broker = await startMosquitto();
    cleanup.push(() => broker.stop());
    const engine = await EngineClient.connect({ url: broker.url, tables: ['tab-1'], runId: 'run-7' });
    cleanup.push(() => engine.close());
    const spy = await mqtt.connectAsync(broker.url, { clientId: 'spy' });
    cleanup.push(() => spy.endAsync(true));
    const sent: Array<{ topic: string; body: string }> = [];
    spy.on('message', (topic, p) => sent.push({ topic, body: p.toString() }));
    await spy.subscribeAsync('casino/tab-1/request/#', { qos: 1 });

    const err = await engine.request('tab-1', 'open-betting', { roundId: 'R-1' }, { timeoutMs: 150, attempts: 3, backoffMs: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect(err).toMatchObject({ code: 'request-timeout', table: 'tab-1', command: 'open-betting', transaction: 'run-7-1', attempts: 3 });
    await until(() => sent.length >= 3, 2_000, 'the three attempts');
    expect(sent).toHaveLength(3);
    for (const s of sent) {
      expect(s.topic).toBe('casino/tab-1/request/open-betting');
      expect(JSON.parse(s.body)).toEqual({ roundId: 'R-1', transaction: 'run-7-1' });
    }
    // the next request has a new transaction
    expect(engine.newTransaction()).toBe('run-7-2');
  });
});
