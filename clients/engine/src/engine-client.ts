/**
 * The engine client (docs/ENGINES.md, "The engine client"): one MQTT connection that
 * - discovers gateways (their retained `<prefix>/gateway/<id>/info`) and the tables they serve;
 * - validates every table message with the gateway's own zod schemas (src/core/table/messages.ts:
 *   one source of truth) and types it by topic;
 * - dedupes and detects gaps per table by `(epoch ?? '', seq)` (stream-tracker.ts);
 * - verifies signatures against the public keys it is given;
 * - surfaces a gap, a duplicate dropped, a new epoch, a signature failure and an invalid message
 *   as typed events (`events$`), never silently;
 * - sends requests with a `transaction` (and, over MQTT 5, correlation data with the answer's own
 *   topic as the response topic), matches the answer on `response/<command>` by its correlation
 *   data, or by transaction when it carries none (MQTT 3.1.1), and retries with the same
 *   transaction and correlation data on a timeout (the gateway answers a retry with its first
 *   answer, `replayed: true`, never a second execution);
 * - gives each table's messages as RxJS observables.
 */
import { randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { filter, map, type Observable, Subject, BehaviorSubject, firstValueFrom, timeout as rxTimeout, share } from 'rxjs';
import * as z from 'zod';
import { type AnyGameResultMessage, type MessageOf, type PublishedType, schemaForTopic, type statusMessageSchema } from '../../../src/core/table/messages.js';
import type { RequestArgs, RequestCommand } from '../../../src/core/vocabulary/requests.js';
import { checkEnvelopeSignature, keyFingerprint } from '../../../src/adapters/security/signing.js';
import { StreamTracker } from './stream-tracker.js';

// ------------------------------------------------------------------ types

/** the gateway's retained info (mqtt-api.md, "The gateway itself"): online with its tables, or offline */
export const gatewayInfoSchema = z.union([
  z
    .object({
      v: z.literal(1),
      type: z.literal('info'),
      state: z.literal('online'),
      reason: z.enum(['start', 'reconnect']),
      gatewayId: z.string(),
      version: z.string(),
      startedAt: z.iso.datetime(),
      tables: z.array(z.object({ id: z.string(), game: z.string(), betting: z.string() }).loose()),
      signing: z.object({ keyId: z.string() }).optional(),
    })
    .loose(),
  z
    .object({ state: z.literal('offline'), reason: z.enum(['stopped', 'connection-lost', 'moved']), gatewayId: z.string(), startedAt: z.iso.datetime() })
    .loose(),
]);
export type GatewayInfo = z.infer<typeof gatewayInfoSchema>;

export type StatusMessage = z.infer<typeof statusMessageSchema>;
export type ResponseMessage = MessageOf<'response'>;
/** a table message with its type (its topic's), as the gateway's schema validated it */
export type TableMessage =
  | {
      [T in Exclude<PublishedType, 'result' | 'status'>]: {
        type: T;
        topic: string;
        table: string;
        retained: boolean;
        payload: MessageOf<T> & { epoch?: string };
      };
    }[Exclude<PublishedType, 'result' | 'status'>]
  | { type: 'result'; topic: string; table: string; retained: boolean; payload: AnyGameResultMessage & { epoch?: string } };

/** the payload of a table message of `type` (results typed by game) */
export type PayloadOf<T extends Exclude<PublishedType, 'status'>> = (T extends 'result' ? AnyGameResultMessage : MessageOf<T>) & { epoch?: string };

/** what the client reports instead of passing on (or besides) a message: never silent */
export type StreamEvent =
  | { kind: 'gap'; table: string; epoch: string; from: number; to: number }
  | { kind: 'gap-filled'; table: string; epoch: string; seq: number }
  | { kind: 'duplicate'; table: string; epoch: string; seq: number; topic: string }
  | { kind: 'new-epoch'; table: string; epoch: string; previous: string | null }
  | { kind: 'signature-failure'; table: string; seq: number | null; topic: string; reason: string }
  | { kind: 'invalid'; table: string; topic: string; problems: string[] }
  /** `sessionPresent` false after a reconnect: the broker kept nothing for the client while it was away (expect gaps) */
  | { kind: 'connection'; state: 'connected'; sessionPresent: boolean }
  | { kind: 'connection'; state: 'disconnected' };

export interface TableEntry {
  id: string;
  game: string;
  betting: string;
  gatewayId: string;
  status: StatusMessage | null;
}

export interface RequestOptions {
  /** defaults to a new one: `<runId>-<n>` */
  transaction?: string;
  /** how long one attempt waits for the answer (default 5 s) */
  timeoutMs?: number;
  /** how many times the request is sent at most, always with the same transaction (default 6) */
  attempts?: number;
  /** the wait before the n-th retry is min(backoffMs * 2^(n-1), maxBackoffMs) (default 1 s, 30 s) */
  backoffMs?: number;
  maxBackoffMs?: number;
}

export class RequestTimeoutError extends Error {
  readonly code = 'request-timeout';
  constructor(
    readonly table: string,
    readonly command: string,
    readonly transaction: string,
    readonly attempts: number,
  ) {
    super(`${table}: no answer to ${command} (transaction ${transaction}) after ${attempts} attempt(s)`);
  }
}

export interface EngineClientOptions {
  url: string;
  /** the gateway's `mqtt.topicPrefix` (default `casino`) */
  prefix?: string;
  /** a stable client id keeps the engine's session (and what the broker queues for it) across its reconnects */
  clientId?: string;
  /** 5 (default: requests carry correlation data, answers are matched by it) or 4 (3.1.1: answers are matched by `transaction`) */
  protocolVersion?: 4 | 5;
  /** the tables to follow (default: every table under the prefix) */
  tables?: string[];
  /**
   * Public keys the signatures are checked against: a list (named by their fingerprint) or a map
   * keyId -> key (for `signing.keyId`). Without keys nothing is checked.
   */
  publicKeys?: Array<KeyObject | string | Buffer> | Record<string, KeyObject | string | Buffer>;
  /** message types that must be signed (default: `result` when publicKeys are given); an unsigned one is a signature failure */
  requireSigned?: PublishedType[];
  /** a prefix of the transactions the client makes (default: a random UUID per client) */
  runId?: string;
  /** extra mqtt.js options */
  mqtt?: IClientOptions;
}

// ------------------------------------------------------------------ the client

export class EngineClient {
  readonly runId: string;
  private readonly prefix: string;
  private readonly client: MqttClient;
  private readonly trackers = new Map<string, StreamTracker>();
  private readonly keys = new Map<string, KeyObject | string | Buffer>();
  private readonly requireSigned: Set<string>;
  private readonly messagesSubject = new Subject<TableMessage>();
  private readonly eventsSubject = new Subject<StreamEvent>();
  private readonly gatewaysSubject = new BehaviorSubject<ReadonlyMap<string, GatewayInfo>>(new Map());
  private readonly statusSubject = new BehaviorSubject<ReadonlyMap<string, StatusMessage>>(new Map());
  /** every answer that passed the checks, with the MQTT 5 correlation data it came with (what `request` matches) */
  private readonly answersSubject = new Subject<{ table: string; payload: ResponseMessage; correlationData?: Buffer }>();
  private readonly protocolVersion: 4 | 5;
  private counter = 0;

  /** every table message, validated, deduped, signature-checked, in arrival order */
  readonly messages$: Observable<TableMessage>;
  /** gaps, duplicates dropped, new epochs, signature failures, invalid messages, connection changes */
  readonly events$: Observable<StreamEvent>;
  /** the gateways seen, by id (their latest info: online or offline) */
  readonly gateways$: Observable<ReadonlyMap<string, GatewayInfo>>;

  private constructor(opts: EngineClientOptions) {
    this.prefix = opts.prefix ?? 'casino';
    this.runId = opts.runId ?? randomUUID();
    const keys = opts.publicKeys ?? [];
    if (Array.isArray(keys)) for (const k of keys) this.keys.set(keyFingerprint(k), k);
    else for (const [id, k] of Object.entries(keys)) this.keys.set(id, k);
    this.requireSigned = new Set(opts.requireSigned ?? (this.keys.size ? ['result'] : []));
    this.messages$ = this.messagesSubject.asObservable().pipe(share());
    this.events$ = this.eventsSubject.asObservable();
    this.gateways$ = this.gatewaysSubject.asObservable();
    const protocolVersion = opts.protocolVersion ?? 5;
    this.protocolVersion = protocolVersion;
    this.client = mqtt.connect(opts.url, {
      clientId: opts.clientId ?? `engine-${this.runId.slice(0, 8)}`,
      protocolVersion,
      clean: opts.clientId === undefined,
      ...(protocolVersion === 5 && opts.clientId !== undefined ? { properties: { sessionExpiryInterval: 600 } } : {}),
      reconnectPeriod: 250,
      ...opts.mqtt,
    });
    this.client.on('message', (topic, payload, packet) => this.onMessage(topic, payload, packet.retain, packet.properties?.correlationData));
    this.client.on('connect', (ack) => this.eventsSubject.next({ kind: 'connection', state: 'connected', sessionPresent: ack.sessionPresent }));
    this.client.on('close', () => this.eventsSubject.next({ kind: 'connection', state: 'disconnected' }));
    this.client.on('error', () => {
      /* mqtt.js reconnects; the connection events say so */
    });
  }

  /** connects and subscribes (gateways' info, and the tables' topics) */
  static async connect(opts: EngineClientOptions): Promise<EngineClient> {
    const c = new EngineClient(opts);
    await new Promise<void>((resolve, reject) => {
      c.client.once('connect', () => resolve());
      c.client.once('error', reject);
    });
    const p = c.prefix;
    const filters = [`${p}/gateway/+/info`, ...(opts.tables ? opts.tables.map((t) => `${p}/${t}/#`) : [`${p}/+/#`])];
    await c.client.subscribeAsync(filters, { qos: 1 });
    return c;
  }

  // -------------------------------------------------------------- discovery

  /** the tables of every gateway online, with their latest status */
  tables(): TableEntry[] {
    const out: TableEntry[] = [];
    for (const info of this.gatewaysSubject.value.values()) {
      if (info.state !== 'online') continue;
      for (const t of (info as Extract<GatewayInfo, { state: 'online' }>).tables) {
        out.push({ id: t.id, game: t.game, betting: t.betting, gatewayId: info.gatewayId, status: this.statusSubject.value.get(t.id) ?? null });
      }
    }
    return out;
  }

  /** resolves with the first gateway info that satisfies `pred` (default: any online gateway) */
  async gateway(pred: (g: GatewayInfo) => boolean = (g) => g.state === 'online', timeoutMs = 10_000): Promise<GatewayInfo> {
    return firstValueFrom(
      this.gateways$.pipe(
        map((gs) => [...gs.values()].find(pred)),
        filter((g): g is GatewayInfo => g !== undefined),
        rxTimeout(timeoutMs),
      ),
    );
  }

  /** each table's `status` as it changes (retained, no seq: presence, not part of the stream) */
  status$(table: string): Observable<StatusMessage> {
    return this.statusSubject.pipe(
      map((m) => m.get(table)),
      filter((s): s is StatusMessage => s !== undefined),
    );
  }

  // -------------------------------------------------------------- per-table streams

  /** one table's messages (every type), deduped and checked */
  table(table: string): Observable<TableMessage> {
    return this.messages$.pipe(filter((m) => m.table === table));
  }

  /** one table's messages of one type */
  of<T extends Exclude<PublishedType, 'status'>>(table: string, type: T): Observable<PayloadOf<T>> {
    return this.table(table).pipe(
      filter((m) => m.type === type),
      map((m) => m.payload as PayloadOf<T>),
    );
  }

  /** one table's results, typed by game */
  results$(table: string): Observable<AnyGameResultMessage> {
    return this.of(table, 'result');
  }

  /** the seqs reported missing on `table` and not seen since (current epoch) */
  missing(table: string): number[] {
    return this.trackers.get(table)?.missing() ?? [];
  }

  // -------------------------------------------------------------- requests

  /** a transaction id no other request of this client (or of an earlier run) has */
  newTransaction(): string {
    return `${this.runId}-${++this.counter}`;
  }

  /**
   * Sends `command` to `table` (QoS 1, with a transaction) and resolves with its one answer:
   * a fresh one, or the first answer again (`replayed: true`) when an earlier attempt had gone
   * through. Retries with the SAME transaction and body on a timeout (backoff); rejects with
   * RequestTimeoutError when every attempt timed out.
   *
   * Over MQTT 5 every attempt also carries the same correlation data (16 random bytes per request)
   * and names the answer's own topic, `response/<command>`, as its response topic: the gateway
   * publishes the answer there once, with the correlation data, and the answer is matched by it
   * (so a reused transaction of another client cannot be taken for this request's). An answer
   * without correlation data (MQTT 3.1.1, or a gateway connected with 3.1.1) is matched by its
   * transaction and command.
   */
  async request<C extends RequestCommand>(table: string, command: C, args: RequestArgs<C>, o: RequestOptions = {}): Promise<ResponseMessage> {
    const transaction = o.transaction ?? this.newTransaction();
    const attempts = o.attempts ?? 6;
    const timeoutMs = o.timeoutMs ?? 5_000;
    const backoff = o.backoffMs ?? 1_000;
    const maxBackoff = o.maxBackoffMs ?? 30_000;
    const body = JSON.stringify({ ...(args as object), transaction });
    const topic = `${this.prefix}/${table}/request/${command}`;
    const correlation = this.protocolVersion === 5 ? randomBytes(16) : undefined;
    const publishOptions = correlation
      ? { qos: 1 as const, properties: { responseTopic: `${this.prefix}/${table}/response/${command}`, correlationData: correlation } }
      : { qos: 1 as const };
    let settled = false;
    const answer = firstValueFrom(
      this.answersSubject.pipe(
        filter(
          (a) =>
            a.table === table &&
            a.payload.command === command &&
            (a.correlationData ? correlation?.equals(a.correlationData) === true : a.payload.transaction === transaction),
        ),
        map((a) => a.payload),
      ),
    ).finally(() => {
      settled = true;
    });
    for (let i = 0; i < attempts; i++) {
      if (i > 0) {
        const wait = Math.min(backoff * 2 ** (i - 1), maxBackoff);
        const got = await Promise.race([answer, sleep(wait).then(() => null)]);
        if (got) return got;
      }
      // not awaited: while the connection is down mqtt.js holds the QoS 1 publish until it is back, and the timeout runs on
      this.client.publishAsync(topic, body, publishOptions).catch(() => {});
      const got = await Promise.race([answer, sleep(timeoutMs).then(() => null)]);
      if (got) return got;
    }
    if (!settled) void answer.catch(() => {});
    throw new RequestTimeoutError(table, command, transaction, attempts);
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
    this.messagesSubject.complete();
    this.answersSubject.complete();
    this.eventsSubject.complete();
  }

  // -------------------------------------------------------------- intake

  private onMessage(topic: string, raw: Buffer, retained: boolean, correlationData?: Buffer): void {
    const rest = topic.slice(this.prefix.length + 1).split('/');
    if (rest[0] === 'gateway') {
      if (rest.length === 3 && rest[2] === 'info') this.onInfo(rest[1], raw);
      return;
    }
    const table = rest[0];
    const rel = rest.slice(1).join('/');
    if (rest[1] === 'request' || rel === '') return; // requests (ours, or other engines'): not the table's stream
    let payload: unknown;
    try {
      payload = JSON.parse(raw.toString('utf8'));
    } catch (e) {
      if (raw.length === 0) return; // a retained message cleared
      this.eventsSubject.next({ kind: 'invalid', table, topic, problems: [`not JSON: ${(e as Error).message}`] });
      return;
    }
    const schema = schemaForTopic(rel, payload);
    if (!schema) {
      this.eventsSubject.next({ kind: 'invalid', table, topic, problems: [`${rel}: not a topic the gateway publishes on`] });
      return;
    }
    // `epoch` names the stream with `seq`; a schema that does not know it (yet) is asked without it
    const epoch = typeof (payload as { epoch?: unknown }).epoch === 'string' ? (payload as { epoch: string }).epoch : undefined;
    let checked = schema.safeParse(payload);
    if (!checked.success && epoch !== undefined) checked = schema.safeParse(stripEpoch(payload));
    if (!checked.success) {
      this.eventsSubject.next({
        kind: 'invalid',
        table,
        topic,
        problems: checked.error.issues.map((i) => `${rel}: ${i.path.join('.') || '(payload)'}: ${i.message}`),
      });
      return;
    }
    const type = rest[1] === 'events' ? 'event' : rest[1] === 'devices' ? 'device' : rest[1] === 'alerts' ? 'alert' : rest[1];
    if (type === 'status') {
      const next = new Map(this.statusSubject.value);
      next.set(table, checked.data as StatusMessage);
      this.statusSubject.next(next);
      return;
    }
    const msg = payload as { seq: number; signature?: unknown };
    if (!this.signatureOk(table, topic, type, payload as Record<string, unknown>)) return;
    let tracker = this.trackers.get(table);
    if (!tracker) {
      tracker = new StreamTracker();
      this.trackers.set(table, tracker);
    }
    const e = epoch ?? '';
    const verdicts = tracker.accept(epoch, msg.seq, retained);
    for (const v of verdicts) {
      if (v.kind === 'duplicate') {
        this.eventsSubject.next({ kind: 'duplicate', table, epoch: e, seq: msg.seq, topic });
        return;
      }
      if (v.kind === 'gap') this.eventsSubject.next({ kind: 'gap', table, epoch: e, from: v.from, to: v.to });
      if (v.kind === 'new-epoch') this.eventsSubject.next({ kind: 'new-epoch', table, epoch: e, previous: v.previous });
      if (v.kind === 'late' && v.filled) this.eventsSubject.next({ kind: 'gap-filled', table, epoch: e, seq: msg.seq });
    }
    this.messagesSubject.next({ type, topic, table, retained, payload } as TableMessage);
    if (type === 'response') this.answersSubject.next({ table, payload: payload as ResponseMessage, ...(correlationData ? { correlationData } : {}) });
  }

  private signatureOk(table: string, topic: string, type: string, payload: Record<string, unknown>): boolean {
    if (this.keys.size === 0) return true;
    const seq = typeof payload.seq === 'number' ? payload.seq : null;
    const sig = payload.signature as { keyId?: string } | undefined;
    if (!sig) {
      if (!this.requireSigned.has(type)) return true;
      this.eventsSubject.next({ kind: 'signature-failure', table, seq, topic, reason: `a ${type} without a signature` });
      return false;
    }
    const key = this.keys.get(String(sig.keyId));
    if (!key) {
      this.eventsSubject.next({ kind: 'signature-failure', table, seq, topic, reason: `signed with ${String(sig.keyId)}, a key not given to the client` });
      return false;
    }
    const r = checkEnvelopeSignature(payload, key);
    if (!r.ok) this.eventsSubject.next({ kind: 'signature-failure', table, seq, topic, reason: r.reason });
    return r.ok;
  }

  private onInfo(gatewayId: string, raw: Buffer): void {
    if (raw.length === 0) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      parsed = undefined;
    }
    const r = gatewayInfoSchema.safeParse(parsed);
    if (!r.success) {
      this.eventsSubject.next({
        kind: 'invalid',
        table: `gateway/${gatewayId}`,
        topic: `${this.prefix}/gateway/${gatewayId}/info`,
        problems: r.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`),
      });
      return;
    }
    const next = new Map(this.gatewaysSubject.value);
    next.set(gatewayId, r.data);
    this.gatewaysSubject.next(next);
  }
}

function stripEpoch(payload: unknown): unknown {
  if (payload && typeof payload === 'object' && 'epoch' in payload) {
    const { epoch: _e, ...rest } = payload as Record<string, unknown>;
    return rest;
  }
  return payload;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
