/**
 * The RxJS edge around one table's pure machine: it merges device events, engine requests and
 * timer firings into one ordered input stream, stamps each with the clock, runs `step`, journals
 * the input and its messages in the durable store, and — once that is committed — carries out the
 * outputs (publish through the outbox, device commands, timers, logs). All I/O and timing live here.
 *
 * After a crash it rebuilds the table from the store: the last snapshot plus the journaled inputs
 * after it, then delivers the messages the broker never acknowledged, in seq order, before
 * anything new.
 */
import { filter, merge, Subject, timer, type Observable, type Subscription, map } from 'rxjs';
import type { DeviceDriver, DriverEvent } from '../../drivers/device-driver.js';
import type { RequestLimitsConfig } from '../core/vocabulary/config-schema.js';
import type { Logger } from './log.js';
import { wallClock } from './clock.js';
import { NO_PROBE, type Probe } from '../core/vocabulary/probe.js';
import { validateMessage } from '../core/table/messages.js';
import { envelopeText } from '../core/vocabulary/envelope-text.js';
import { OutboxSender, type BrokerStall } from './outbox-sender.js';
import type { IncomingRequest, Journal, Publisher, RequestSource, StoredMessage } from './ports.js';
import { RequestAdmission, type RequestCounts, type RequestSignatureChecker } from './request-admission.js';
import { AnsweredRequests } from './answered-requests.js';
import { countersOf, initialTableState, stateFromSnapshot, step } from '../core/table/table-machine.js';
import type { Envelope, TableInput, TableOutput, TableSettings, TableState } from '../core/table/types.js';

/** the problems of a step whose messages all match the topic map (shared: most steps) */
const NOTHING_INVALID: ReadonlyMap<number, string> = new Map();

export interface PublishedMessage {
  topic: string;
  retain: boolean;
  payload: Envelope;
  /** the input that caused it (its type and receive time `at`): for frame-to-publish latency */
  cause?: { type: TableInput['type']; at: number };
}

export interface TableRuntimeOptions {
  settings: TableSettings;
  /** the table's config entry as validated (kept in the store for `replay`) */
  tableConfig: unknown;
  link: Publisher & RequestSource;
  drivers: readonly DeviceDriver[];
  store: Journal;
  log: Logger;
  clock?: () => number;
  /** turns an envelope into the text that is published (e.g. adds a signature to results) */
  serialize?: (e: Envelope) => string;
  /** take a snapshot at least every this many inputs (also at every round end) */
  snapshotEvery?: number;
  /** the outbox's bound: `outbox-filling` at 80%, `outbox-full` (and the shoes held) at 100% */
  outboxMaxMessages?: number;
  /** request size cap and rate limit, applied here before a request becomes an input (docs/SECURITY.md) */
  requestLimits?: RequestLimitsConfig;
  /** MQTT 5 response topics allowed besides the table's own `response/` (`requests.responseTopicPrefixes`) */
  responseTopicPrefixes?: readonly string[];
  /** marks of a card's way through the runtime (a measuring tool's; none by default) */
  probe?: Probe;
  /**
   * checks privileged requests' signatures (`tables[].requests.privileged`, docs/SECURITY.md;
   * src/adapters/security/request-signing.ts), seeded at start with the signed requests the journal
   * took within the window. Absent: no keys, so every request on a completed or held round is refused
   */
  requestVerifier?: RequestSignatureChecker;
  /**
   * `mqtt.ackTimeoutMs`: messages in flight and no PUBACK for this long is a stalled broker
   * (`broker-stalled`, the table degraded, the connection dropped and made again); absent: not watched
   */
  ackTimeoutMs?: number;
  /** how long an answered request is remembered, so that its retry is answered again, not executed (0: never) */
  idempotencyWindowMs?: number;
}

/** a stall as the health and `/readyz` say it */
export function describeStall(s: BrokerStall): string {
  return `no acknowledgement (PUBACK) for ${s.sinceMs} ms with ${s.inFlight} message(s) in flight (timeout ${s.timeoutMs} ms); the connection is dropped and made again`;
}

export class TableRuntime {
  readonly settings: TableSettings;
  readonly drivers: readonly DeviceDriver[];
  /** every message the table publishes, once it is committed and handed to the outbox */
  readonly published$: Observable<PublishedMessage>;
  /** every input the machine processed (after it was committed to the journal) */
  readonly inputs$: Observable<TableInput>;
  readonly outbox: OutboxSender;
  private readonly publishedSubject = new Subject<PublishedMessage>();
  private readonly inputSubject = new Subject<TableInput>();
  private readonly timerInputs = new Subject<TableInput>();
  private readonly timers = new Map<string, Subscription>();
  private readonly link: Publisher & RequestSource;
  private readonly store: Journal;
  private readonly log: Logger;
  private readonly clock: () => number;
  private readonly serialize: (e: Envelope) => string;
  private state: TableState;
  private sub: Subscription | null = null;
  private sinceSnapshot = 0;
  private stopped = false;
  private outboxLevel: 'ok' | 'filling' | 'full' = 'ok';
  private admission: RequestAdmission | null = null;
  private answered: AnsweredRequests | null = null;
  private droppedLoggedAt = -Infinity;
  private readonly probe: Probe;

  constructor(private readonly o: TableRuntimeOptions) {
    this.settings = o.settings;
    this.drivers = o.drivers;
    this.link = o.link;
    this.store = o.store;
    this.log = o.log;
    this.clock = o.clock ?? wallClock;
    this.probe = o.probe ?? NO_PROBE;
    this.serialize = o.serialize ?? envelopeText;
    this.state = initialTableState(o.settings, {});
    this.published$ = this.publishedSubject.asObservable();
    this.inputs$ = this.inputSubject.asObservable();
    this.outbox = new OutboxSender(
      o.link,
      (seq) => this.store.acknowledge(o.settings.tableId, seq),
      64,
      (m, reason) => this.quarantined(m.seq, m.topic, m.payload, reason),
      this.probe,
    );
    if (o.ackTimeoutMs) {
      this.outbox.watchAcks({
        timeoutMs: o.ackTimeoutMs,
        onStall: (stall, first) => this.onBrokerStall(stall, first),
        onMoving: (stall, stalledMs) =>
          this.log.info(`the broker acknowledges again after ${stalledMs} ms without a PUBACK (oldest seq then ${stall.oldestSeq})`),
      });
    }
  }

  /** the broker stopped acknowledging, what the health and `/readyz` say; null while it acknowledges */
  get brokerStall(): string | null {
    const s = this.outbox.stall;
    return s ? describeStall(s) : null;
  }

  /**
   * The broker stopped acknowledging: the first detection of a stall raises `broker-stalled` (a
   * machine output like every alert: journaled now, published in its turn once the broker moves
   * again); every detection drops the connection and makes it again (the outbox resends in order).
   */
  private onBrokerStall(stall: BrokerStall, first: boolean): void {
    if (this.stopped) return;
    if (first) {
      this.log.error(`broker stalled: ${describeStall(stall)}`);
      setImmediate(() =>
        this.apply({
          type: 'gateway-alert',
          at: this.clock(),
          kind: 'broker-stalled',
          detail: `the broker${this.link.broker ? ` ${this.link.broker}` : ''} acknowledged nothing for ${stall.sinceMs} ms with ${stall.inFlight} message(s) in flight (mqtt.ackTimeoutMs ${stall.timeoutMs}): connection dropped and made again; nothing is lost, what was in flight is sent again in order`,
          data: { inFlight: stall.inFlight, depth: stall.depth, sinceMs: stall.sinceMs, timeoutMs: stall.timeoutMs, oldestSeq: stall.oldestSeq },
        }),
      );
    }
    this.link.dropConnection?.(`no PUBACK for ${stall.sinceMs} ms with ${stall.inFlight} message(s) in flight`);
  }

  get snapshot(): TableState {
    return this.state;
  }

  /** rebuilds the table from the store, delivers what is still undelivered, starts the devices */
  start(): void {
    this.recover();
    // the last SEQ of every device is durable: after a restart the first frame is checked against it
    const seqs = this.store.deviceSeqs(this.settings.tableId);
    for (const d of this.drivers) {
      if (seqs[d.deviceId] !== undefined) d.seedSeq(seqs[d.deviceId]);
      d.onSeq = (seq) => this.store.noteDeviceSeq(this.settings.tableId, d.deviceId, seq);
    }
    this.requestAdmission();
    const deviceInputs = this.drivers.map((d) => d.events$.pipe(map((ev) => this.deviceInput(d.deviceId, ev))));
    const requestInputs = this.link.requests$.pipe(
      map((r) => this.admitRequest(r)),
      filter((i): i is TableInput => i !== null),
    );
    this.sub = merge(...deviceInputs, requestInputs, this.timerInputs).subscribe((input) => this.apply(input));
    this.apply({ type: 'start', at: this.clock() });
    for (const d of this.drivers) d.start();
  }

  private recover(): void {
    const id = this.settings.tableId;
    this.store.registerTable(id, this.o.tableConfig, () => initialTableState(this.settings, {}));
    const rec = this.store.recover(id);
    let state = rec.snapshot ? stateFromSnapshot(rec.snapshot.state as TableState) : initialTableState(this.settings, {});
    const pendingTimers = new Map<string, number>();
    for (const input of rec.inputs) {
      const r = step(this.settings, state, input);
      state = r.state;
      for (const out of r.outputs) {
        if (out.type === 'set-timer') pendingTimers.set(out.name, out.at);
        else if (out.type === 'cancel-timer') pendingTimers.delete(out.name);
        else if (out.type === 'publish' && out.payload.seq > rec.maxSeq) {
          this.log.error(`recovery: journaled input produced seq ${out.payload.seq} beyond the stored ${rec.maxSeq}`);
        }
      }
    }
    this.state = state;
    if (rec.inputs.length || rec.unacked.length) {
      this.log.info(
        `recovered from the journal: ${rec.inputs.length} input(s) after the last snapshot, ${rec.unacked.length} undelivered message(s), seq ${state.seq}`,
      );
    }
    for (const m of rec.unacked) this.outbox.push(m);
    for (const [name, at] of pendingTimers) this.setTimer(name, at);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.outbox.stop();
    for (const t of this.timers.values()) t.unsubscribe();
    this.timers.clear();
    await Promise.all(this.drivers.map((d) => d.stop()));
    this.sub?.unsubscribe();
    this.store.flush(); // sends what is queued; the gateway waits for it in store.closeAsync()
    this.publishedSubject.complete();
    this.inputSubject.complete();
  }

  /**
   * The request's input, `refused` when it is over the size cap or the rate limit (the machine
   * answers it and changes nothing); null for a flood dropped unanswered (logged as a count).
   */
  private admitRequest(r: IncomingRequest): TableInput | null {
    const at = this.clock();
    const a = this.requestAdmission().admit(r, at);
    if (a.kind === 'input') return a.input;
    if (a.kind === 'retained') {
      if (a.firstOfItsCommand)
        this.log.warn(
          `a retained request/${r.command.slice(0, 64)} was delivered (a stale copy the broker keeps): not executed; clear it with an empty retained message`,
        );
      return null;
    }
    if (at - this.droppedLoggedAt >= 10_000) {
      this.droppedLoggedAt = at;
      this.log.warn(`requests over the rate limit: ${this.requestAdmission().takeDropped()} dropped without an answer (latest: ${r.command.slice(0, 64)})`);
    }
    return null;
  }

  private requestAdmission(): RequestAdmission {
    if (!this.admission && this.o.requestVerifier) {
      // the signed requests taken within the window before a restart stay taken (replayed-request)
      const v = this.o.requestVerifier;
      const now = this.clock();
      for (const r of this.store.signedRequestsSince(this.settings.tableId, now - 2 * v.maxSkewMs)) v.noteTaken(r.payload, r.at);
    }
    if (!this.answered) {
      const windowMs = this.o.idempotencyWindowMs ?? 0;
      this.answered = new AnsweredRequests({ windowMs });
      if (windowMs > 0) this.answered.rebuild(this.store.answeredRequests(this.settings.tableId, this.clock() - windowMs));
    }
    this.admission ??= new RequestAdmission({
      answered: this.answered,
      tableId: this.settings.tableId,
      ownResponsePrefix: this.link.topics.response(''),
      responseTopicPrefixes: this.o.responseTopicPrefixes,
      limits: this.o.requestLimits,
      usedRoundIds: this.store.engineRoundIds(this.settings.tableId),
      verifier: this.o.requestVerifier,
    });
    return this.admission;
  }

  /** what happened to the table's requests at the edge since the start (for `/metrics`) */
  get requestCounts(): RequestCounts {
    return this.requestAdmission().counts;
  }

  private deviceInput(deviceId: string, ev: DriverEvent): TableInput {
    const at = this.clock();
    switch (ev.kind) {
      case 'frame':
        return { type: 'frame', at, deviceId, frame: ev.frame };
      case 'status':
        return { type: 'device-status', at, deviceId, state: ev.state, ...(ev.detail ? { detail: ev.detail } : {}) };
      case 'alert':
        return { type: 'device-alert', at, deviceId, kind: ev.alert, detail: ev.detail, ...(ev.data ? { data: ev.data } : {}) };
      case 'restart':
        return { type: 'device-restart', at, deviceId };
    }
  }

  /** runs one input through the machine, journals it, then carries out its outputs */
  apply(input: TableInput): void {
    if (this.stopped) return;
    const applyAt = this.probe.on ? this.probe.now() : 0;
    let result: ReturnType<typeof step>;
    try {
      result = step(this.settings, this.state, input);
    } catch (e) {
      // The machine must never throw; if it does, the input is dropped and the state kept.
      this.log.error(`table machine failed on a ${input.type} input: ${(e as Error).stack ?? e}`);
      return;
    }
    const steppedAt = this.probe.on ? this.probe.now() : 0;
    this.state = result.state;
    const outputs = result.outputs;
    const messages: StoredMessage[] = [];
    let roundEnded = false;
    for (const o of outputs) {
      if (o.type !== 'publish') continue;
      if (o.topic === 'result') roundEnded = true;
      if (input.type === 'request' && o.payload.type === 'response')
        this.answered?.record(input, o.payload.seq, o.payload as unknown as Record<string, unknown>);
      this.admission?.notePublished(o.payload);
      messages.push({
        seq: o.payload.seq,
        topic: o.topic,
        retain: o.retain,
        payload: this.serialize(o.payload),
        ...(o.alsoTo ? { alsoTopic: o.alsoTo.topic, alsoCorrelation: o.alsoTo.correlationData } : {}),
      });
    }
    const probed = this.probe.on ? this.markCard(input, outputs, messages, applyAt, steppedAt) : undefined;
    this.sinceSnapshot++;
    const snapshot = roundEnded || this.sinceSnapshot >= (this.o.snapshotEvery ?? 200) ? this.state : undefined;
    if (snapshot) this.sinceSnapshot = 0;
    // Each message is checked against the topic map before it may be published; what fails is
    // journaled all the same (its seq is used) and quarantined. The check decides nothing that is
    // journaled, so it runs while the batch commits (the store's `beside`: once the writer thread
    // has the batch), or, with the inline writer, when the effects run.
    let invalid: ReadonlyMap<number, string> | null = null;
    const checked = (): ReadonlyMap<number, string> => (invalid ??= this.topicMapProblems(outputs));
    this.store.enqueue(
      { tableId: this.settings.tableId, input, messages, snapshot, counters: countersOf(this.state) },
      () => {
        if (probed) this.probe.effectsRun(probed);
        const problems = checked();
        this.inputSubject.next(input);
        let i = 0;
        for (const o of outputs) {
          if (o.type !== 'publish') this.carryOut(o);
          else {
            const m = messages[i];
            const problem = problems.get(i++);
            if (problem === undefined) this.publishStored(m, o, input);
            else {
              // journaled (its seq is used and replays), never sent
              this.store.acknowledge(this.settings.tableId, m.seq);
              this.quarantined(m.seq, m.topic, m.payload, `it does not match the topic map: ${problem}`);
            }
          }
        }
      },
      checked,
    );
  }

  /** index among the step's published messages -> why it must not be published (its topic's schema in the topic map) */
  private topicMapProblems(outputs: readonly TableOutput[]): ReadonlyMap<number, string> {
    let invalid: Map<number, string> | undefined;
    let i = 0;
    for (const o of outputs) {
      if (o.type !== 'publish') continue;
      let problems: string[];
      try {
        problems = validateMessage(o.topic, o.payload);
      } catch (e) {
        // it runs beside a commit, in the store's flush: a check that throws quarantines the message, it never stops the flush
        problems = [`the check itself failed (${(e as Error).message})`];
      }
      if (problems.length) {
        invalid ??= new Map();
        invalid.set(i, problems.slice(0, 3).join('; '));
      }
      i++;
    }
    return invalid ?? NOTHING_INVALID;
  }

  /** a CARD frame's `card` event, marked on the probe (only when one measures); the message marked */
  private markCard(
    input: TableInput,
    outputs: readonly TableOutput[],
    messages: readonly StoredMessage[],
    applyAt: number,
    steppedAt: number,
  ): StoredMessage | undefined {
    if (input.type !== 'frame' || input.frame.type !== 'CARD') return undefined;
    let i = 0;
    for (const o of outputs) {
      if (o.type !== 'publish') continue;
      const m = messages[i++];
      if (o.topic === 'events' && (o.payload as { kind?: unknown }).kind === 'card') {
        this.probe.cardStepped(this.settings.tableId, m.seq, m, applyAt, steppedAt);
        return m;
      }
    }
    return undefined;
  }

  /**
   * A message that is never to be delivered: invalid against the topic map, or refused by the
   * broker. It is marked delivered so it cannot block the outbox, logged, and reported with a
   * critical `message-quarantined` alert (not for such an alert itself: no loop).
   */
  private quarantined(seq: number, topic: string, payload: string, reason: string): void {
    this.log.error(`message seq ${seq} on ${topic.slice(0, 200)} quarantined, not delivered: ${reason}`);
    if (this.stopped || (topic === 'alerts' && payload.includes('"message-quarantined"'))) return;
    setImmediate(() =>
      this.apply({
        type: 'gateway-alert',
        at: this.clock(),
        kind: 'message-quarantined',
        detail: `message seq ${seq} on ${topic.slice(0, 200)} was not delivered: ${reason.slice(0, 300)}`,
        data: { quarantinedSeq: seq, topic: topic.slice(0, 200) },
      }),
    );
  }

  private publishStored(m: StoredMessage, o: Extract<TableOutput, { type: 'publish' }>, input: TableInput): void {
    this.outbox.push(m);
    this.publishedSubject.next({ topic: o.topic, retain: o.retain, payload: o.payload, cause: { type: input.type, at: input.at } });
    this.checkOutbox();
  }

  /**
   * The outbox keeps every message until the broker has it, however long the outage. Its bound
   * is an alarm, not a drop: every change of level (80% `filling`, 100% `full`, below 50% `ok`)
   * reaches the machine as an `outbox-level` input; it raises `outbox-filling` / `outbox-full`
   * and holds the table's shoes (`LOCK`) from full until ok (`UNLOCK`).
   */
  private checkOutbox(): void {
    const max = this.o.outboxMaxMessages;
    if (!max) return;
    const depth = this.outbox.depth;
    const level = depth >= max ? 'full' : depth >= max * 0.8 ? 'filling' : depth < max * 0.5 ? 'ok' : this.outboxLevel;
    if (level === this.outboxLevel) return;
    this.outboxLevel = level;
    // The machine raises the alerts and owns the hold (src/core/table/card/holds.ts): LOCK at full, UNLOCK at ok.
    setImmediate(() => this.apply({ type: 'outbox-level', at: this.clock(), level, depth, max }));
  }

  private setTimer(name: string, at: number): void {
    this.timers.get(name)?.unsubscribe();
    const delay = Math.max(0, at - this.clock());
    this.timers.set(
      name,
      timer(delay).subscribe(() => {
        this.timers.delete(name);
        this.timerInputs.next({ type: 'timer', at: this.clock(), name });
      }),
    );
  }

  private carryOut(o: Exclude<TableOutput, { type: 'publish' }>): void {
    if (this.stopped) return;
    switch (o.type) {
      case 'device-command': {
        const d = this.drivers.find((x) => x.deviceId === o.deviceId);
        if (!d?.send(o.command)) this.log.debug(`device ${o.deviceId} does not take ${o.command}`);
        return;
      }
      case 'set-timer':
        this.setTimer(o.name, o.at);
        return;
      case 'cancel-timer':
        this.timers.get(o.name)?.unsubscribe();
        this.timers.delete(o.name);
        return;
      case 'log':
        this.log[o.level](o.msg, o.data);
        return;
    }
  }
}
