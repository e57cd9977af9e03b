/**
 * Idempotent requests (mqtt-api.md v1.2), in process: a real runtime and a journal on disk, a fake
 * broker link. A retry of an answered request — also after a restart on the same journal — gets
 * the first answer again (`replayed: true`, `replayOf`), is not executed twice (no second round,
 * no `duplicate-round-id`); the same transaction with another body is refused
 * `transaction-reused`; retryable refusals are not remembered; the window ends.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { TableRuntime } from '../../../src/runtime/table-runtime.js';
import { AnsweredRequests, requestIdentity } from '../../../src/runtime/answered-requests.js';
import { silentLogger } from '../../../src/runtime/log.js';
import type { IncomingRequest, TableLink } from '../../../src/adapters/mqtt/table-link.js';
import { topicsFor } from '../../../src/core/vocabulary/topics.js';
import { GatewayStore } from '../../../src/adapters/store/gateway-store.js';
import { tableSettings } from '../../../src/core/table/table-settings.js';
import { validateMessage } from '../../../src/core/table/messages.js';
import type { Envelope } from '../../../src/core/table/types.js';

class FakeLink {
  connected = true;
  readonly topics = topicsFor('casino', 'bac-01');
  readonly connected$ = new Subject<boolean>();
  readonly requests = new Subject<IncomingRequest>();
  readonly requests$ = this.requests.asObservable();
  readonly sent: Array<{ topic: string; payload: Envelope; correlationData?: string }> = [];

  publish(topic: string, payload: string, _retain: boolean, correlationData?: string, done?: (err?: Error) => void): void {
    this.sent.push({ topic, payload: JSON.parse(payload) as Envelope, ...(correlationData ? { correlationData } : {}) });
    done?.();
  }

  answers(command: string): Envelope[] {
    return this.sent.filter((m) => m.topic === `casino/bac-01/response/${command}`).map((m) => m.payload);
  }
}

const TABLE = {
  id: 'bac-01',
  game: 'baccarat',
  betting: 'engine',
  devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'serial', path: '/dev/null-shoe-1' } }],
};

const WINDOW_MS = 3_600_000;
let dir: string;
let open: Array<{ runtime: TableRuntime; store: GatewayStore }> = [];

function start(windowMs = WINDOW_MS): { runtime: TableRuntime; link: FakeLink; store: GatewayStore } {
  const store = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 14, writer: 'inline' });
  const cfg = validateConfig({ mqtt: { url: 'mqtt://127.0.0.1:1' }, tables: [TABLE] });
  const table = cfg.tables[0];
  const link = new FakeLink();
  const runtime = new TableRuntime({
    settings: tableSettings(table),
    tableConfig: table,
    link: link as unknown as TableLink,
    drivers: [],
    store,
    log: silentLogger,
    idempotencyWindowMs: windowMs,
  });
  runtime.start();
  open.push({ runtime, store });
  return { runtime, link, store };
}

async function restart(r: { runtime: TableRuntime; store: GatewayStore }): Promise<void> {
  await r.runtime.stop();
  r.store.close();
  open = open.filter((x) => x.runtime !== r.runtime);
}

function settle(): void {
  for (let i = 0; i < 5; i++) vi.advanceTimersByTime(1);
}

function request(link: FakeLink, command: string, body: Record<string, unknown>, extra: Partial<IncomingRequest> = {}): void {
  link.requests.next({ command, payload: JSON.stringify(body), ...extra });
  settle();
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 11, 1, 20, 0, 0) });
  dir = mkdtempSync(join(tmpdir(), 'idempotent-requests-'));
});

afterEach(async () => {
  for (const r of open) {
    await r.runtime.stop();
    r.store.close();
  }
  open = [];
  vi.useRealTimers();
});

describe("a request's identity", () => {
  it('is its transaction, else its correlation data; its body is compared without the transaction, whatever the key order', () => {
    expect(requestIdentity('open-betting', '{"transaction":"t1","roundId":"R1"}')).toEqual({ key: 't:t1', body: 'open-betting\n{"roundId":"R1"}' });
    expect(requestIdentity('open-betting', '{"roundId":"R1","transaction":"t1"}')?.body).toBe(
      requestIdentity('open-betting', '{"transaction":"t1","roundId":"R1"}')?.body,
    );
    expect(requestIdentity('decision', '{"seat":"seat1","action":"hit"}', 'Y29ycg==')).toMatchObject({ key: 'c:Y29ycg==' });
    expect(requestIdentity('status', '{}')).toBeNull();
    expect(requestIdentity('status', 'not json')).toBeNull();
  });

  it('forgets the oldest answers beyond its bound', () => {
    const a = new AnsweredRequests({ windowMs: 1000, maxEntries: 2 });
    for (const t of ['a', 'b', 'c']) {
      a.record({ type: 'request', at: 0, command: 'new-shoe', payload: JSON.stringify({ transaction: t }) }, 1, {
        command: 'new-shoe',
        transaction: t,
        status: 'ok',
      });
    }
    expect(a.size).toBe(2);
    expect(a.lookup({ command: 'new-shoe', payload: '{"transaction":"a"}' }, 1).kind).toBe('new');
    expect(a.lookup({ command: 'new-shoe', payload: '{"transaction":"c"}' }, 1).kind).toBe('replay');
  });

  it('does not remember status: a retry sees the table as it is now', () => {
    const a = new AnsweredRequests({ windowMs: 1000 });
    a.record({ type: 'request', at: 0, command: 'status', payload: '{"transaction":"s1"}' }, 1, {
      command: 'status',
      transaction: 's1',
      status: 'ok',
      data: {},
    });
    expect(a.size).toBe(0);
    expect(a.lookup({ command: 'status', payload: '{"transaction":"s1"}' }, 1).kind).toBe('new');
  });
});

describe('idempotent requests through the runtime and the journal', () => {
  it('a retry gets the first answer again, not a second execution, also after a restart', async () => {
    const first = start();
    request(first.link, 'open-betting', { transaction: 'eng-1', roundId: 'R-1' });
    const [answer] = first.link.answers('open-betting');
    expect(answer).toMatchObject({ status: 'ok', transaction: 'eng-1', data: { roundId: 'R-1' } });
    expect(answer.replayed).toBeUndefined();
    const roundsBefore = first.runtime.snapshot.seq;

    // the same request again (an engine that lost the answer): the same answer, replayed
    request(first.link, 'open-betting', { roundId: 'R-1', transaction: 'eng-1' });
    const again = first.link.answers('open-betting')[1];
    expect(again).toMatchObject({ status: 'ok', transaction: 'eng-1', data: answer.data, replayed: true, replayOf: answer.seq });
    expect(again.seq).toBeGreaterThan(answer.seq);
    expect(validateMessage('response/open-betting', again)).toEqual([]);
    expect(first.runtime.snapshot.seq).toBe(roundsBefore + 1); // only the replayed answer was published

    // after a restart on the same journal: still the same answer, never duplicate-round-id
    await restart(first);
    const second = start();
    request(second.link, 'open-betting', { transaction: 'eng-1', roundId: 'R-1' }, { responseTopic: 'casino/bac-01/response/eng', correlationData: 'AQI=' });
    const afterRestart = second.link.answers('open-betting');
    expect(afterRestart).toHaveLength(1);
    expect(afterRestart[0]).toMatchObject({ status: 'ok', data: answer.data, replayed: true, replayOf: answer.seq });
    expect(afterRestart[0].code).toBeUndefined();
    // the copy to the retry's own response topic carries the retry's correlation data
    expect(second.link.sent.find((m) => m.topic === 'casino/bac-01/response/eng')).toMatchObject({ correlationData: 'AQI=', payload: { replayed: true } });

    // a new transaction with the same round id is a new request: refused as before
    request(second.link, 'open-betting', { transaction: 'eng-2', roundId: 'R-1' });
    expect(second.link.answers('open-betting')[1]).toMatchObject({ status: 'error', code: 'duplicate-round-id', transaction: 'eng-2' });
  });

  it('the same transaction with another body is refused transaction-reused, and the first answer stays', () => {
    const { link } = start();
    request(link, 'open-betting', { transaction: 'eng-7' });
    request(link, 'close-betting', { transaction: 'eng-7' });
    expect(link.answers('close-betting')[0]).toMatchObject({ status: 'error', code: 'transaction-reused', transaction: 'eng-7' });
    request(link, 'open-betting', { transaction: 'eng-7', roundId: 'other' });
    expect(link.answers('open-betting')[1]).toMatchObject({ status: 'error', code: 'transaction-reused' });
    // the round is still in betting: close-betting under a new transaction works
    request(link, 'close-betting', { transaction: 'eng-8' });
    expect(link.answers('close-betting')[1]).toMatchObject({ status: 'ok' });
    // and the first request's retry still gets its own answer
    request(link, 'open-betting', { transaction: 'eng-7' });
    expect(link.answers('open-betting')[2]).toMatchObject({ status: 'ok', replayed: true });
  });

  it('an error answer is replayed too: the retry of a refused request is refused the same way, not executed', () => {
    const { link } = start();
    request(link, 'close-betting', { transaction: 'eng-20' });
    expect(link.answers('close-betting')[0]).toMatchObject({ status: 'error', code: 'wrong-phase' });
    request(link, 'open-betting', { transaction: 'eng-21' });
    request(link, 'close-betting', { transaction: 'eng-20' });
    expect(link.answers('close-betting')[1]).toMatchObject({ status: 'error', code: 'wrong-phase', replayed: true });
  });

  it('MQTT 5 correlation data identifies a request without a transaction', () => {
    const { link } = start();
    request(link, 'open-betting', {}, { responseTopic: 'casino/bac-01/response/e1', correlationData: 'c2VxLTE=' });
    request(link, 'open-betting', {}, { responseTopic: 'casino/bac-01/response/e1', correlationData: 'c2VxLTE=' });
    const answers = link.answers('open-betting');
    expect(answers[0]).toMatchObject({ status: 'ok', transaction: null });
    expect(answers[1]).toMatchObject({ status: 'ok', replayed: true, replayOf: answers[0].seq });
    // without either, a request is executed each time
    request(link, 'close-betting', {});
    request(link, 'close-betting', {});
    expect(link.answers('close-betting').map((a) => a.code ?? a.status)).toEqual(['ok', 'wrong-phase']);
  });

  it('refusals a retry may cure are not remembered (not-allowed response topic)', () => {
    const { link } = start();
    request(link, 'open-betting', { transaction: 'eng-30' }, { responseTopic: 'elsewhere/x' });
    expect(link.answers('open-betting')[0]).toMatchObject({ status: 'error', code: 'not-allowed' });
    request(link, 'open-betting', { transaction: 'eng-30' });
    expect(link.answers('open-betting')[1]).toMatchObject({ status: 'ok' });
    expect(link.answers('open-betting')[1].replayed).toBeUndefined();
  });

  it('after the window a key is new again; with the window 0 nothing is remembered', async () => {
    const a = start(60_000);
    request(a.link, 'open-betting', { transaction: 'eng-40' });
    vi.advanceTimersByTime(61_000);
    request(a.link, 'open-betting', { transaction: 'eng-40' });
    expect(a.link.answers('open-betting')[1]).toMatchObject({ status: 'error', code: 'wrong-phase' });
    await restart(a);
    const b = start(0);
    request(b.link, 'close-betting', { transaction: 'eng-41' });
    request(b.link, 'close-betting', { transaction: 'eng-41' });
    expect(b.link.answers('close-betting').map((x) => x.replayed ?? false)).toEqual([false, false]);
  });
});
