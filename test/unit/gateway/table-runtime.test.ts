/**
 * The table runtime in process: real device drivers on memory transports, the machine, a store in
 * memory (`:memory:`), and a fake MQTT link, with fake timers: no socat, no Mosquitto. What the
 * real-I/O tiers check over ptys and a broker, here in milliseconds of fake time: commit before
 * effect, the SEQ gap that holds a round, a device restart, the bad-frame window, stale, recovery
 * from the journal, the outbox hold.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeLine } from '../../../drivers/codecs/nmea-line.js';
import type { DeviceDriver } from '../../../drivers/device-driver.js';
import { createDriver } from '../../../src/app/device-drivers.js';
import { MemoryTransport } from '../../../drivers/transports/memory-transport.js';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { TableRuntime } from '../../../src/runtime/table-runtime.js';
import { silentLogger } from '../../../src/runtime/log.js';
import type { IncomingRequest } from '../../../src/runtime/ports.js';
import { topicsFor } from '../../../src/core/vocabulary/topics.js';
import { GatewayStore } from '../../../src/adapters/store/gateway-store.js';
import { tableSettings } from '../../../src/core/table/table-settings.js';
import type { Envelope } from '../../../src/core/table/types.js';
import { RequestVerifier, signRequest } from '../../../src/adapters/security/request-signing.js';
import { generateKeyPairSync } from 'node:crypto';

// The machine never publishes what the topic map refuses (every game test checks it), so the
// runtime's quarantine of such a message is reached here by refusing chosen cards' events.
const refused = vi.hoisted(() => ({ cards: new Set<string>(), throwOn: new Set<string>() }));
vi.mock('../../../src/core/table/messages.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../../src/core/table/messages.js')>();
  return {
    ...m,
    validateMessage: (topic: string, payload: unknown): string[] => {
      const p = payload as { kind?: unknown; card?: unknown };
      if (topic === 'events' && p.kind === 'card' && typeof p.card === 'string' && refused.cards.has(p.card)) return ['events: card: refused by this test'];
      if (topic === 'events' && p.kind === 'card' && typeof p.card === 'string' && refused.throwOn.has(p.card)) throw new Error('the check broke');
      return m.validateMessage(topic, payload);
    },
  };
});

/** a broker connection that acknowledges at once while `connected`, and records what it got */
class FakeLink {
  connected = true;
  readonly movedBroker = false;
  readonly topics = topicsFor('casino', 'bac-01');
  readonly connected$ = new Subject<boolean>();
  readonly requests = new Subject<IncomingRequest>();
  readonly requests$ = this.requests.asObservable();
  readonly sent: Array<{ topic: string; payload: Envelope; retain: boolean }> = [];

  publish(topic: string, payload: string, retain: boolean, _correlationData?: string, done?: (err?: Error) => void): void {
    if (!this.connected) {
      done?.(new Error('not connected'));
      return;
    }
    this.sent.push({ topic, payload: JSON.parse(payload) as Envelope, retain });
    done?.();
  }

  setConnected(up: boolean): void {
    this.connected = up;
    this.connected$.next(up);
  }

  /** what the broker got on `casino/bac-01/<relative>` */
  on(relative: string): Envelope[] {
    return this.sent.filter((m) => m.topic === `casino/bac-01/${relative}`).map((m) => m.payload);
  }
}

const TABLE = {
  id: 'bac-01',
  game: 'baccarat',
  betting: 'none',
  devices: [{ id: 'shoe-1', kind: 'card-shoe', staleAfterMs: 2000, transport: { type: 'serial', path: '/dev/null-shoe-1' } }],
};

interface Rig {
  runtime: TableRuntime;
  link: FakeLink;
  shoe: MemoryTransport;
  /** what the gateway wrote to the shoe (commands: LOCK, UNLOCK, RESCAN ...) */
  written: string[];
  send(seq: number, type: string, fields?: string[]): void;
}

/** the pit's key of these tests: a verifier of table bac-01 that accepts it for resume-round and void-round */
const PIT = generateKeyPairSync('ed25519');
const pitVerifier = () =>
  new RequestVerifier({ tableId: 'bac-01', keys: [{ name: 'pit-1', publicKey: PIT.publicKey, commands: ['resume-round', 'void-round'] }], maxSkewMs: 30_000 });
const signedBy = (command: string, body: Record<string, unknown>) =>
  JSON.stringify(signRequest({ table: 'bac-01', command, body, privateKey: PIT.privateKey, keyId: 'pit-1', at: Date.now() }));

function startRig(store: GatewayStore, o: { outboxMaxMessages?: number; verifier?: RequestVerifier } = {}): Rig {
  const cfg = validateConfig({ mqtt: { url: 'mqtt://127.0.0.1:1' }, tables: [TABLE] });
  const table = cfg.tables[0];
  const shoe = new MemoryTransport({ name: 'shoe-1' });
  const written: string[] = [];
  shoe.written$.subscribe((b) => written.push(b.toString('latin1').split(',').slice(2).join(',').split('*')[0]));
  const drivers: DeviceDriver[] = [createDriver(table.devices[0], shoe)];
  const link = new FakeLink();
  const runtime = new TableRuntime({
    settings: tableSettings(table),
    tableConfig: table,
    link: link,
    drivers,
    store,
    log: silentLogger,
    ...(o.outboxMaxMessages ? { outboxMaxMessages: o.outboxMaxMessages } : {}),
    ...(o.verifier ? { requestVerifier: o.verifier } : {}),
  });
  runtime.start();
  return { runtime, link, shoe, written, send: (seq, type, fields = []) => shoe.deliver(encodeLine('SHOE', seq, type, fields)) };
}

/**
 * lets the store commit (on the next turn of the event loop, a `setImmediate`) and what follows
 * run: 5 ms of fake time (an immediate queued by a timer runs only once the clock moves)
 */
function settle(): void {
  for (let i = 0; i < 5; i++) vi.advanceTimersByTime(1);
}

const kinds = (messages: Envelope[]) => messages.map((m) => m.kind);

let store: GatewayStore;
beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 11, 1, 20, 0, 0) });
  store = new GatewayStore(':memory:', { synchronous: 'normal', retentionDays: 14 });
});
afterEach(() => {
  store.close();
  vi.useRealTimers();
});

describe('TableRuntime in process', () => {
  it('publishes a card only after its input and messages are committed to the journal', () => {
    const { link, send } = startRig(store);
    settle();
    const before = link.sent.length;
    send(0, 'CARD', ['9S']);
    expect(link.sent.length).toBe(before); // not yet committed: nothing left the gateway
    settle();
    expect(kinds(link.on('events'))).toContain('card');
    const journal = [...store.journal('bac-01', 0)].map((e) => e.input.type);
    expect(journal).toEqual(['start', 'device-status', 'frame']);
  });

  it('plays a round to its result; retained topics are published retained', () => {
    const { link, send } = startRig(store);
    for (const [i, c] of ['9S', '2H', 'KD', '3C'].entries()) send(i, 'CARD', [c]);
    settle();
    const result = link.on('result').at(-1);
    expect(result).toMatchObject({ status: 'complete', cards: { player: ['9S', 'KD'], banker: ['2H', '3C'], burn: [] } });
    expect(link.sent.find((m) => m.topic.endsWith('/result'))?.retain).toBe(true);
    expect(link.sent.find((m) => m.topic.endsWith('/events'))?.retain).toBe(false);
  });

  it('a SEQ gap on the shoe mid-round (no REPEAT) holds the round and LOCKs the shoe until resume-round', () => {
    const { link, send, written } = startRig(store, { verifier: pitVerifier() });
    send(0, 'CARD', ['9S']);
    send(3, 'CARD', ['2H']);
    settle();
    const gap = link.on('alerts').find((a) => a.kind === 'frame-gap');
    expect(gap).toMatchObject({ severity: 'critical', repaired: false, missing: 2 });
    expect(link.on('round').at(-1)?.phase).toBe('held');
    expect(written).toContain('LOCK');
    // unsigned: refused by the machine, still held
    link.requests.next({ command: 'resume-round', payload: JSON.stringify({ transaction: 'r0', by: 'pit-1' }) });
    settle();
    expect(link.on('response/resume-round').at(-1)).toMatchObject({ status: 'error', code: 'signature-required', transaction: 'r0' });
    expect(link.on('round').at(-1)?.phase).toBe('held');
    link.requests.next({ command: 'resume-round', payload: signedBy('resume-round', { transaction: 'r1', by: 'someone-else' }) });
    settle();
    expect(link.on('response/resume-round').at(-1)).toMatchObject({ status: 'ok', transaction: 'r1' });
    expect(link.on('events').find((e) => e.kind === 'round-resumed')).toMatchObject({ by: 'pit-1' });
    // the verified signer is journaled with the input (replay needs no key)
    expect([...store.journal('bac-01', 0)].map((e) => e.input).find((i) => i.type === 'request' && i.signer !== undefined)).toMatchObject({
      signer: 'pit-1',
      command: 'resume-round',
    });
    expect(written.at(-1)).toBe('UNLOCK');
    expect(link.on('round').at(-1)?.phase).toBe('dealing');
  });

  it('a device restart (SEQ back to 0) is an event, and the round goes on', () => {
    const { link, send } = startRig(store);
    send(40, 'CARD', ['9S']);
    send(0, 'CARD', ['2H']);
    settle();
    expect(kinds(link.on('events'))).toContain('device-restart');
    expect(link.on('alerts').filter((a) => a.kind === 'frame-gap')).toEqual([]);
    expect(
      link
        .on('events')
        .filter((e) => e.kind === 'card')
        .map((e) => e.role),
    ).toEqual(['player', 'banker']);
  });

  it('bad frames: one bad-frame alert at once, then one per second with the count', () => {
    const { link, shoe } = startRig(store);
    for (let i = 0; i < 4; i++) shoe.deliver('$SHOE,1,CARD,AS*00\r\n');
    settle();
    expect(
      link
        .on('alerts')
        .filter((a) => a.kind === 'bad-frame')
        .map((a) => a.count),
    ).toEqual([1]);
    vi.advanceTimersByTime(1000);
    settle();
    expect(
      link
        .on('alerts')
        .filter((a) => a.kind === 'bad-frame')
        .map((a) => a.count),
    ).toEqual([1, 3]);
  });

  it('a silent shoe goes stale (devices/shoe-1 stale, one device-stale warning); a heartbeat brings it back', () => {
    const { link, send } = startRig(store);
    send(0, 'HB');
    settle();
    vi.advanceTimersByTime(2000);
    settle();
    expect(link.on('devices/shoe-1').at(-1)?.state).toBe('stale');
    expect(link.on('alerts').filter((a) => a.kind === 'device-stale')).toHaveLength(1);
    send(1, 'HB');
    settle();
    expect(link.on('devices/shoe-1').at(-1)?.state).toBe('connected');
  });

  it('recovers from the journal: the round in progress, seq and the device SEQ go on after a restart', async () => {
    const first = startRig(store);
    first.send(0, 'CARD', ['9S']);
    first.send(1, 'CARD', ['2H']);
    settle();
    const lastSeq = Math.max(...first.link.sent.map((m) => m.payload.seq));
    await first.runtime.stop();
    settle();
    const second = startRig(store);
    settle();
    // nothing already delivered is sent again; new messages continue the seq
    expect(Math.min(...second.link.sent.map((m) => m.payload.seq))).toBe(lastSeq + 1);
    expect(second.runtime.snapshot.kind === 'card' && second.runtime.snapshot.round?.seen).toEqual(['9S', '2H']);
    second.send(2, 'CARD', ['KD']);
    second.send(3, 'CARD', ['3C']);
    settle();
    expect(second.link.on('result').at(-1)).toMatchObject({ status: 'complete', cards: { player: ['9S', 'KD'], banker: ['2H', '3C'] } });
    expect(second.link.on('alerts').filter((a) => a.kind === 'frame-gap')).toEqual([]);
    // the device's SEQ baseline came back from the store: a jump is a gap
    second.send(9, 'CARD', ['4D']);
    settle();
    expect(second.link.on('alerts').filter((a) => a.kind === 'frame-gap')).toHaveLength(1);
    await second.runtime.stop();
  });

  it('a signed request taken before a restart is refused replayed-request after it, within the window', async () => {
    const first = startRig(store, { verifier: pitVerifier() });
    first.send(0, 'CARD', ['9S']);
    first.send(1, 'CARD', ['2H']);
    settle();
    const voidIt = signedBy('void-round', { transaction: 'v1', reason: 'dealer error' });
    first.link.requests.next({ command: 'void-round', payload: voidIt });
    settle();
    expect(first.link.on('response/void-round').at(-1)).toMatchObject({ status: 'ok', transaction: 'v1' });
    await first.runtime.stop();
    settle();
    vi.advanceTimersByTime(5_000);
    const second = startRig(store, { verifier: pitVerifier() });
    settle();
    second.send(2, 'CARD', ['KD']);
    settle();
    const round = second.runtime.snapshot.kind === 'card' ? second.runtime.snapshot.round?.id : undefined;
    second.link.requests.next({ command: 'void-round', payload: voidIt });
    settle();
    expect(second.link.on('response/void-round').at(-1)).toMatchObject({ status: 'error', code: 'replayed-request', transaction: 'v1' });
    expect(second.runtime.snapshot.kind === 'card' && second.runtime.snapshot.round?.id).toBe(round);
    // past the window the same bytes are stale, never taken again
    vi.advanceTimersByTime(60_000);
    second.link.requests.next({ command: 'void-round', payload: voidIt });
    settle();
    expect(second.link.on('response/void-round').at(-1)).toMatchObject({ status: 'error', code: 'stale-request' });
    await second.runtime.stop();
  });

  it('messages the broker never acknowledged are delivered after a restart, in seq order', async () => {
    const first = startRig(store);
    first.link.setConnected(false);
    first.send(0, 'CARD', ['9S']);
    first.send(1, 'CARD', ['2H']);
    settle();
    expect(first.link.sent).toEqual([]);
    await first.runtime.stop();
    settle();
    const second = startRig(store);
    settle();
    const seqs = second.link.sent.map((m) => m.payload.seq);
    expect(seqs[0]).toBe(1);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(
      second.link
        .on('events')
        .filter((e) => e.kind === 'card')
        .map((e) => e.card),
    ).toEqual(['9S', '2H']);
    await second.runtime.stop();
  });

  it('the outbox hold: a full outbox LOCKs the shoe (outbox-full), the drained outbox UNLOCKs it', () => {
    const { link, send, written, runtime } = startRig(store, { outboxMaxMessages: 10 });
    settle();
    link.setConnected(false);
    for (let i = 0; i < 6; i++) send(i, 'CARD', [['9S', '2H', 'KD', '3C', '4D', '5H'][i]]);
    settle();
    expect(written).toContain('LOCK');
    expect(written).not.toContain('UNLOCK');
    link.setConnected(true);
    settle();
    expect(runtime.outbox.depth).toBe(0);
    // the level is looked at as messages are published (in the gateway the periodic `health` is one):
    // the next message finds the outbox drained
    link.requests.next({ command: 'status', payload: '{}' });
    settle();
    expect(written.at(-1)).toBe('UNLOCK');
    const alertKinds = kinds(link.on('alerts'));
    expect(alertKinds).toContain('outbox-filling');
    expect(alertKinds).toContain('outbox-full');
  });
});

describe('a message the topic map refuses', () => {
  afterEach(() => {
    refused.cards.clear();
    refused.throwOn.clear();
  });

  /** deals 9S, then 2H (the card the tests make the topic map refuse), then KD */
  function dealNineTwoKing(send: Rig['send']): void {
    send(0, 'CARD', ['9S']);
    send(1, 'CARD', ['2H']);
    send(2, 'CARD', ['KD']);
  }

  /** the refused card's event is journaled (its seq used) and acknowledged, never sent; a critical alert names it; the next card goes out */
  function expectQuarantined(link: FakeLink, s: GatewayStore): void {
    const cards = link
      .on('events')
      .filter((e) => e.kind === 'card')
      .map((e) => e.card);
    expect(cards).toEqual(['9S', 'KD']);
    const alert = link.on('alerts').find((a) => a.kind === 'message-quarantined');
    expect(alert).toMatchObject({ severity: 'critical', topic: 'events' });
    const seq = (alert as unknown as { quarantinedSeq: number }).quarantinedSeq;
    expect(JSON.parse(s.message('bac-01', seq)!.payload)).toMatchObject({ kind: 'card', card: '2H', seq });
    expect(s.recover('bac-01').unacked.map((m) => m.seq)).not.toContain(seq);
  }

  /** 2H put in `refusal` (refused or throwing), the three cards dealt with the inline writer: the quarantine checked */
  function expectQuarantinedInline(refusal: Set<string>): FakeLink {
    refusal.add('2H');
    const { link, send } = startRig(store);
    dealNineTwoKing(send);
    settle();
    settle();
    expectQuarantined(link, store);
    return link;
  }

  it('is journaled, not published, and quarantined with a critical alert (the inline writer: checked when the effects run)', () => {
    expectQuarantinedInline(refused.cards);
  });

  it('a check that throws quarantines the message and stops nothing: the next card goes out', () => {
    const link = expectQuarantinedInline(refused.throwOn);
    expect(link.on('alerts').find((a) => a.kind === 'message-quarantined')?.detail).toMatch(/the check itself failed \(the check broke\)/);
  });

  it('the same with the writer thread, where the check runs beside the commit', async () => {
    vi.useRealTimers();
    refused.cards.add('2H');
    const file = new GatewayStore(mkdtempSync(join(tmpdir(), 'runtime-quarantine-')), { synchronous: 'normal', retentionDays: 14, writer: 'thread' });
    try {
      const { runtime, link, send } = startRig(file);
      dealNineTwoKing(send);
      const end = Date.now() + 5000;
      while (!link.on('alerts').some((a) => a.kind === 'message-quarantined') && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 50));
      await runtime.stop();
      expectQuarantined(link, file);
    } finally {
      await file.closeAsync();
    }
  });
});
