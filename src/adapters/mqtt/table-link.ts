/**
 * One table's MQTT connection (mqtt-api.md): client id `<clientIdPrefix><tableId>`, the retained
 * `status` with its `offline` last will, QoS 1 publishing in order, and the `request/+` subscription.
 * Nagle is switched off on every (re)connect: mqtt.js leaves it on, which costs ~40 ms per message.
 *
 * Failover (docs/SCALING.md): `url` may be a list. The link drives its own reconnects (mqtt.js's
 * `reconnectPeriod` is 0): after a loss it tries the URLs in order, at once; when a whole round of
 * the list failed it waits (exponential backoff with jitter, `reconnectMinMs` doubling up to
 * `reconnectMaxMs`) and starts again from the first. While on a later URL it checks the first every
 * `failbackCheckMs` and moves back when it answers. Every connection is a new mqtt.js client: the
 * outbox (outbox-sender.ts) resends whatever was not acknowledged, in `seq` order, on each connect;
 * callbacks of a finished client are dropped, so nothing is acknowledged twice.
 *
 * On every connect the retained `online` status is published again (a node that died may have
 * taken no will with it, or published a will late), then `request/+` is subscribed; a SUBACK
 * refusal (0x80) is retried with backoff, and until it succeeds `requestsSubscribed` is false (the
 * table is not ready). A broker that refuses MQTT 5 ("unacceptable protocol version", as NATS's
 * MQTT listener does) is spoken to in 3.1.1 from then on, said once in the log.
 * State changes are logged once each: connected (to which broker), lost, unreachable (the reasons
 * of a whole round; repeated at most once a minute), back to the first broker, subscription refused.
 */
import net, { type Socket } from 'node:net';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { Subject, type Observable } from 'rxjs';
import type { Logger } from '../../runtime/log.js';
import { wallClock } from '../../runtime/clock.js';
import { RecyclingMessageIds, SlotStore } from './inflight-slots.js';
import { describeConnectError, loadMqttCredentials, type MqttCredentials } from '../security/mqtt-credentials.js';
import { PUBLISH_QOS, requestCommandOf, topicsFor, type TopicMap } from '../../core/vocabulary/topics.js';
import type { IncomingRequest, Publisher, RequestSource } from '../../runtime/ports.js';

export interface TableLinkOptions {
  /** one broker URL, or the failover list (tried in order) */
  url: string | readonly string[];
  tableId: string;
  gameId: string;
  /** the table's stream epoch, named on its `status` (mqtt-api.md v1.2) */
  epoch?: string;
  topicPrefix: string;
  clientIdPrefix: string;
  /** the version to speak first; a broker that refuses 5 gets 4 (3.1.1) */
  protocolVersion: 4 | 5;
  keepaliveSec: number;
  username?: string;
  password?: string;
  passwordFile?: string;
  ca?: string;
  cert?: string;
  key?: string;
  /** credentials already loaded (and checked) at start-up; then the path options above are ignored */
  credentials?: MqttCredentials;
  /** MQTT 5: the broker must not send this client packets larger than this (request size cap) */
  maxPacketBytes?: number;
  /** backoff between rounds of connection attempts [500, doubling to 30000], with jitter */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** one connection attempt [5000] */
  connectTimeoutMs?: number;
  /** while on a later URL, how often the first one is checked [15000]; 0 = stay */
  failbackCheckMs?: number;
  /**
   * the table's session outlives its connection this long [0 = clean]: MQTT 5 clean start off with
   * this session expiry, 3.1.1 clean session off; the client id is the table's, stable across
   * restarts, so the broker delivers the requests it queued while the gateway was away
   */
  sessionExpirySec?: number;
  logger: Logger;
  /**
   * Instead of the table's `status`: a retained presence message published on every connect, with
   * `offline` as the last will and on close, and no request subscription. The gateway's own
   * connection (`info` topic, src/adapters/mqtt/gateway-info.ts) is a link with this set.
   */
  presence?: { clientId: string; topic: string; online: (reason: OnlineReason) => string; offline: (reason: OfflineReason) => string };
  /** when the gateway process started (ISO): on every presence message, the same for one run [the link's creation] */
  startedAt?: string;
}

/**
 * Why a presence message says `online` (mqtt-api.md v1.2, docs/ENGINES.md "Presence"): `start` —
 * the first connection of this gateway run (`startedAt` is new); `reconnect` — the same run
 * connected again (a broker restart, a network loss, a failover): nothing of the table was lost.
 */
export type OnlineReason = 'start' | 'reconnect';
/**
 * Why `offline`: `stopped` — a clean stop; `connection-lost` — the last will: the broker lost the
 * connection (the gateway, the network or the broker went away); `moved` — left on a broker the
 * table moved away from (failover back to the first URL).
 */
export type OfflineReason = 'stopped' | 'connection-lost' | 'moved';

/** a failed connection attempt is logged when its reason changes, else at most this often */
const REPEAT_FAILURE_LOG_MS = 60_000;
/** a connection that lasted this long resets the backoff (a flapping broker keeps backing off) */
const STABLE_CONNECTION_MS = 10_000;

/** exponential backoff with jitter: round 1 waits ~min, each further round twice as long, up to max; 50-100 % of it */
export function backoffDelay(round: number, minMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, minMs * 2 ** Math.max(0, round - 1));
  return Math.round(ceiling * (0.5 + 0.5 * random()));
}

/** `url` (one or a list) as the list of URLs */
export function linkUrls(url: string | readonly string[]): string[] {
  return typeof url === 'string' ? [url] : [...url];
}

/** the URL without credentials, for logs, health and metrics */
export function safeUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//');
}

/** DEBUG names mqtt.js's own debug output (then its logger is left on) */
const MQTTJS_DEBUG = /(^|[,\s])(mqttjs|\*)/.test(process.env.DEBUG ?? '');

/**
 * The mqtt.js options of a gateway connection to one broker (credentials, TLS, version, keepalive,
 * last will), without reconnect handling; also used for the gateway's own connections.
 */
export function clientOptionsFor(
  o: Pick<TableLinkOptions, 'keepaliveSec' | 'maxPacketBytes' | 'sessionExpirySec'> & { protocolVersion: 4 | 5 },
  cred: MqttCredentials,
  clientId: string,
  will?: { topic: string; payload: string },
  connectTimeoutMs = 10_000,
): IClientOptions {
  const opts: IClientOptions = {
    clientId,
    protocolVersion: o.protocolVersion,
    keepalive: o.keepaliveSec,
    clean: !(o.sessionExpirySec && o.sessionExpirySec > 0),
    reconnectPeriod: 0,
    connectTimeout: connectTimeoutMs,
    rejectUnauthorized: true,
    // no mqtt-packet number cache (65,536 two-byte Buffers, ~6 MB of heap) for a few publishes a second
    writeCache: false,
    // ids and a store that do not leave garbage in the old generation per message (inflight-slots.ts)
    messageIdProvider: new RecyclingMessageIds(),
    outgoingStore: new SlotStore(),
  };
  // mqtt.js formats a debug line for each of its steps (~110 call sites; ~1% of the main thread
  // at 150 tables) even when `debug` is off: a no-op unless DEBUG asks for mqttjs
  if (!MQTTJS_DEBUG) opts.log = () => {};
  if (will) opts.will = { topic: will.topic, payload: Buffer.from(will.payload), qos: PUBLISH_QOS, retain: true };
  if (cred.username !== undefined) opts.username = cred.username;
  if (cred.password !== undefined) opts.password = cred.password;
  if (cred.ca) opts.ca = cred.ca;
  if (cred.cert) opts.cert = cred.cert;
  if (cred.key) opts.key = cred.key;
  if (o.protocolVersion === 5) {
    const props: NonNullable<IClientOptions['properties']> = {};
    if (o.maxPacketBytes) props.maximumPacketSize = o.maxPacketBytes;
    if (!opts.clean) props.sessionExpiryInterval = o.sessionExpirySec;
    if (Object.keys(props).length) opts.properties = props;
  }
  return opts;
}

/** a CONNACK refusal of the protocol version (3.1.1 code 1; MQTT 5 0x84) */
function refusesVersion(e: Error): boolean {
  const code = (e as { code?: unknown }).code;
  return code === 1 || code === 0x84 || /unacceptable protocol version|unsupported protocol version/i.test(e.message);
}

export type { IncomingRequest };

export class TableLink implements Publisher, RequestSource {
  readonly topics: TopicMap;
  readonly requests$: Observable<IncomingRequest>;
  readonly connected$ = new Subject<boolean>();
  /** any change of `connected`, `broker` or `requestsSubscribed` */
  readonly changed$ = new Subject<void>();
  private readonly requestSubject = new Subject<IncomingRequest>();
  private readonly urls: string[];
  private readonly clientId: string;
  /** per URL: the version it is spoken to in (4 after it refused 5) */
  private readonly versions: Array<4 | 5>;
  private client: MqttClient | null = null;
  /** generation of the current client: callbacks of older ones are dropped */
  private gen = 0;
  private index = 0;
  private isConnected = false;
  private subscribed = false;
  /** the broker refused the `request/+` subscription on this connection (retrying) */
  private subscribeRefused = false;
  private connectedAt = 0;
  /** consecutive rounds of the URL list without a lasting connection */
  private failedRounds = 0;
  private roundErrors = new Map<string, string>();
  private closed = false;
  private timer: NodeJS.Timeout | null = null;
  private failbackTimer: NodeJS.Timeout | null = null;
  private subscribeTimer: NodeJS.Timeout | null = null;
  private cred: MqttCredentials | null = null;
  private failure: { reason: string; since: number; attempts: number; loggedAt: number } | null = null;
  private lostAt = 0;
  /** the last broker change: which URL, when, and how long the table was without a broker */
  private lastSwitch: { url: string; at: number; downMs: number } | null = null;
  /** this connection is on another broker than the one before it */
  private moved = false;
  /** a connection of this run was up before: the next `online` is a reconnect */
  private wasUp = false;
  private readonly startedAt: string;

  constructor(private readonly o: TableLinkOptions) {
    this.topics = topicsFor(o.topicPrefix, o.tableId);
    this.requests$ = this.requestSubject.asObservable();
    this.urls = linkUrls(o.url);
    if (this.urls.length === 0) throw new Error('TableLink: no broker URL');
    this.versions = this.urls.map(() => o.protocolVersion);
    this.clientId = o.presence?.clientId ?? o.clientIdPrefix + o.tableId;
    this.startedAt = o.startedAt ?? new Date().toISOString();
  }

  /** the retained presence topic: the table's `status`, or `presence.topic` */
  private get statusTopic(): string {
    return this.o.presence?.topic ?? this.topics.status;
  }

  get connected(): boolean {
    return this.isConnected;
  }

  /** the broker the table is on (credentials removed), or null while it is on none */
  get broker(): string | null {
    return this.isConnected ? safeUrl(this.urls[this.index]) : null;
  }

  /** every broker URL of the list (credentials removed) */
  get brokers(): string[] {
    return this.urls.map(safeUrl);
  }

  /** the MQTT version spoken on the current connection */
  get protocolVersion(): 4 | 5 {
    return this.versions[this.index];
  }

  /** true while connected and `request/+` is subscribed (the broker granted the SUBACK) */
  get requestsSubscribed(): boolean {
    return this.isConnected && this.subscribed;
  }

  /**
   * where the `request/+` subscription stands on this connection: `subscribing` until the first
   * SUBACK, `refused` after a refusal (retrying), `subscribed`; `none` while not connected
   */
  get requestsSubscription(): 'none' | 'subscribing' | 'refused' | 'subscribed' {
    if (!this.isConnected || this.o.presence) return 'none';
    return this.subscribed ? 'subscribed' : this.subscribeRefused ? 'refused' : 'subscribing';
  }

  /**
   * true while this connection is on another broker than the connection before it (a failover or
   * a move back): that broker may hold stale retained messages of the table (outbox-sender.ts)
   */
  get movedBroker(): boolean {
    return this.isConnected && this.moved;
  }

  /** the last change of broker: its URL, when, and how long the table had no broker before it */
  get lastFailover(): { url: string; at: number; downMs: number } | null {
    return this.lastSwitch;
  }

  private statusPayload(state: 'online', reason: OnlineReason): string;
  private statusPayload(state: 'offline', reason: OfflineReason): string;
  private statusPayload(state: 'online' | 'offline', reason: OnlineReason | OfflineReason): string {
    const p = this.o.presence;
    if (p) return state === 'online' ? p.online(reason as OnlineReason) : p.offline(reason as OfflineReason);
    return JSON.stringify({
      v: 1,
      type: 'status',
      table: this.o.tableId,
      game: this.o.gameId,
      ts: new Date(wallClock()).toISOString(),
      state,
      reason,
      startedAt: this.startedAt,
      ...(this.o.epoch ? { epoch: this.o.epoch } : {}),
    });
  }

  connect(): void {
    const o = this.o;
    // files are read (and checked, errors naming the config key) here unless the gateway did it at start-up
    this.cred =
      o.credentials ??
      loadMqttCredentials({
        url: this.urls,
        username: o.username,
        password: o.password,
        passwordFile: o.passwordFile,
        ca: o.ca,
        cert: o.cert,
        key: o.key,
      });
    this.closed = false;
    this.attempt(0);
  }

  private attempt(index: number): void {
    if (this.closed) return;
    this.index = index;
    const url = this.urls[index];
    const version = this.versions[index];
    const gen = ++this.gen;
    // the gateway's own presence link subscribes to nothing: its session need not outlive it
    const sessionExpirySec = this.o.presence ? 0 : this.o.sessionExpirySec;
    const opts = clientOptionsFor(
      { keepaliveSec: this.o.keepaliveSec, maxPacketBytes: this.o.maxPacketBytes, protocolVersion: version, sessionExpirySec },
      this.cred!,
      this.clientId,
      { topic: this.statusTopic, payload: this.statusPayload('offline', 'connection-lost') },
      this.o.connectTimeoutMs ?? 5_000,
    );
    const client = mqtt.connect(url, opts);
    this.client = client;
    let lastError: Error | null = null;
    let up = false;
    client.on('connect', () => {
      if (gen !== this.gen) return;
      up = true;
      this.onConnected(client, gen);
    });
    client.on('error', (e) => {
      if (gen !== this.gen) return;
      lastError = e;
      if (up) this.o.logger.warn(`MQTT error on ${safeUrl(url)}: ${describeConnectError(e, url)}`);
    });
    client.on('message', (topic, payload, packet) => {
      if (gen !== this.gen) return;
      const command = requestCommandOf(topic);
      if (!command) return;
      const props = packet.properties;
      this.requestSubject.next({
        command,
        payload: payload.toString('utf8'),
        ...(props?.responseTopic ? { responseTopic: props.responseTopic } : {}),
        ...(props?.correlationData ? { correlationData: Buffer.from(props.correlationData).toString('base64') } : {}),
        ...(packet.retain ? { retained: true } : {}),
      });
    });
    client.on('close', () => {
      if (gen !== this.gen) return;
      this.gen++; // this client is finished: its late callbacks are dropped
      this.client = null;
      this.discard(client);
      if (up) this.onLost(url);
      if (this.closed) return;
      if (!up && lastError && version === 5 && refusesVersion(lastError)) {
        this.versions[index] = 4;
        this.o.logger.warn(`${safeUrl(url)} refuses MQTT 5 (${lastError.message}): speaking MQTT 3.1.1 to it (mqtt.protocolVersion: 4 avoids the attempt)`);
        this.attempt(index);
        return;
      }
      if (!up) this.noteFailure(url, lastError);
      this.next(index, up);
    });
  }

  /** after a connection ended (or an attempt failed): the next URL at once, or a new round after the backoff */
  private next(index: number, wasUp: boolean): void {
    if (wasUp) {
      // a lost connection: start again from the first URL, at once unless it was short-lived
      if (Date.now() - this.connectedAt >= STABLE_CONNECTION_MS) this.failedRounds = 0;
      else this.failedRounds++;
      this.roundErrors.clear();
      this.schedule(0, this.failedRounds === 0 ? 0 : backoffDelay(this.failedRounds, this.minMs, this.maxMs));
      return;
    }
    if (index + 1 < this.urls.length) {
      this.attempt(index + 1);
      return;
    }
    // a whole round failed
    this.failedRounds++;
    this.logRound();
    this.roundErrors.clear();
    this.schedule(0, backoffDelay(this.failedRounds, this.minMs, this.maxMs));
  }

  private get minMs(): number {
    return this.o.reconnectMinMs ?? 500;
  }
  private get maxMs(): number {
    return this.o.reconnectMaxMs ?? 30_000;
  }

  private schedule(index: number, delayMs: number): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    if (delayMs <= 0) {
      this.timer = null;
      this.attempt(index);
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.attempt(index);
    }, delayMs);
    this.timer.unref?.();
  }

  private onConnected(client: MqttClient, gen: number): void {
    const url = this.urls[this.index];
    (client.stream as unknown as Socket | undefined)?.setNoDelay?.(true);
    const now = Date.now();
    const f = this.failure;
    this.failure = null;
    const previous = this.lastSwitch?.url;
    const downMs = this.lostAt ? now - this.lostAt : 0;
    this.moved = previous !== undefined && previous !== safeUrl(url);
    if (previous !== safeUrl(url)) this.lastSwitch = { url: safeUrl(url), at: now, downMs };
    this.lostAt = 0;
    this.connectedAt = now;
    this.subscribed = false;
    this.subscribeRefused = false;
    const version = this.versions[this.index] === 5 ? '5' : '3.1.1';
    const where = this.urls.length > 1 ? ` (broker ${this.index + 1} of ${this.urls.length})` : '';
    this.o.logger.info(
      `connected to ${safeUrl(url)}${where} over MQTT ${version} as ${this.clientId}` +
        `${f ? ` after ${f.attempts} failed attempt(s)` : ''}${downMs ? ` (${downMs} ms without a broker)` : ''}`,
    );
    // the retained `online` first, on every connect: the broker this table lands on must show it
    // online whatever will an old connection left; then the outbox (connected$) and the requests
    client.publish(this.statusTopic, this.statusPayload('online', this.wasUp ? 'reconnect' : 'start'), { qos: PUBLISH_QOS, retain: true });
    this.wasUp = true;
    this.isConnected = true;
    this.connected$.next(true);
    this.changed$.next();
    if (!this.o.presence) this.subscribeRequests(client, gen, 1);
    this.armFailback();
  }

  private onLost(url: string): void {
    const wasConnected = this.isConnected;
    this.isConnected = false;
    this.subscribed = false;
    this.subscribeRefused = false;
    this.lostAt = Date.now();
    if (this.subscribeTimer) clearTimeout(this.subscribeTimer);
    if (this.failbackTimer) clearInterval(this.failbackTimer);
    this.subscribeTimer = this.failbackTimer = null;
    if (!wasConnected) return;
    if (!this.closed)
      this.o.logger.warn(`connection to ${safeUrl(url)} lost; reconnecting${this.urls.length > 1 ? ` (trying ${this.brokers.join(', ')} in order)` : ''}`);
    this.connected$.next(false);
    this.changed$.next();
  }

  /** SUBACK checked: a refusal (0x80 and up) is retried with backoff; until then the table is not ready */
  private subscribeRequests(client: MqttClient, gen: number, attempt: number): void {
    client.subscribe(this.topics.requests, { qos: 1 }, (err, granted) => {
      if (gen !== this.gen || this.closed) return;
      const refused = granted?.find((g) => g.qos >= 0x80 || ((g as { reasonCode?: number }).reasonCode ?? 0) >= 0x80);
      if (!err && granted && granted.length > 0 && !refused) {
        if (attempt > 1) this.o.logger.info(`subscribed to ${this.topics.requests} after ${attempt} attempts`);
        this.subscribed = true;
        this.subscribeRefused = false;
        this.changed$.next();
        return;
      }
      if (!this.subscribeRefused) {
        this.subscribeRefused = true;
        this.changed$.next();
      }
      const why = err ? err.message : `SUBACK 0x${(refused?.qos ?? 0x80).toString(16)}`;
      const delay = backoffDelay(attempt, Math.max(this.minMs, 1000), this.maxMs);
      if (attempt === 1) this.o.logger.warn(`the broker refused the subscription to ${this.topics.requests} (${why}): not ready; retrying with backoff`);
      this.subscribeTimer = setTimeout(() => {
        this.subscribeTimer = null;
        if (gen === this.gen && this.isConnected) this.subscribeRequests(client, gen, attempt + 1);
      }, delay);
      this.subscribeTimer.unref?.();
    });
  }

  /** while on a later URL: check the first one now and then; when it accepts connections, move back */
  private armFailback(): void {
    if (this.failbackTimer) clearInterval(this.failbackTimer);
    this.failbackTimer = null;
    const every = this.o.failbackCheckMs ?? 15_000;
    if (this.index === 0 || every <= 0) return;
    const gen = this.gen;
    let probing = false;
    this.failbackTimer = setInterval(() => {
      if (probing || gen !== this.gen || !this.isConnected) return;
      probing = true;
      void probeTcp(this.urls[0], Math.min(2_000, every)).then((ok) => {
        probing = false;
        if (ok && gen === this.gen && this.isConnected && !this.closed) void this.moveBack();
      });
    }, every);
    this.failbackTimer.unref?.();
  }

  /** planned move to the first URL: `offline` on the broker left behind (acknowledged), then connect */
  private async moveBack(): Promise<void> {
    const c = this.client;
    if (!c) return;
    const from = this.urls[this.index];
    this.o.logger.info(`${safeUrl(this.urls[0])} answers again: moving back to it from ${safeUrl(from)}`);
    this.gen++;
    this.client = null;
    this.onLost(from);
    await withTimeout(
      new Promise<void>((resolve) => c.publish(this.statusTopic, this.statusPayload('offline', 'moved'), { qos: PUBLISH_QOS, retain: true }, () => resolve())),
      2_000,
    );
    this.discard(c, false);
    this.failedRounds = 0;
    this.roundErrors.clear();
    this.schedule(0, 0);
  }

  private discard(c: MqttClient, force = true): void {
    c.removeAllListeners('connect');
    c.removeAllListeners('message');
    c.on('error', () => {});
    c.end(force);
  }

  private noteFailure(url: string, e: Error | null): void {
    const reason = e ? describeConnectError(e, url) : 'connection closed before CONNACK';
    this.roundErrors.set(safeUrl(url), reason);
    this.o.logger.debug(`attempt on ${safeUrl(url)} failed: ${reason}`);
    if (this.failure) this.failure.attempts++;
    else this.failure = { reason: '', since: Date.now(), attempts: 1, loggedAt: 0 };
  }

  /**
   * Logs why no broker can be reached, without secrets: at once when the reasons change, then at
   * most once a minute with the number of attempts.
   */
  private logRound(): void {
    const f = this.failure;
    if (!f) return;
    const reason = this.urls.length === 1 ? ([...this.roundErrors.values()][0] ?? 'unknown') : [...this.roundErrors].map(([u, r]) => `${u}: ${r}`).join('; ');
    const now = Date.now();
    const target = this.urls.length === 1 ? safeUrl(this.urls[0]) : 'any broker';
    if (f.reason !== reason) {
      f.reason = reason;
      f.loggedAt = now;
      this.o.logger.warn(`cannot connect to ${target}: ${reason}; retrying with backoff (up to ${this.maxMs} ms)`);
      return;
    }
    if (now - f.loggedAt >= REPEAT_FAILURE_LOG_MS) {
      f.loggedAt = now;
      this.o.logger.warn(`still cannot connect to ${target}: ${reason} (${f.attempts} attempts since ${new Date(f.since).toISOString()}); retrying`);
    }
  }

  /** why the last connection attempts failed (null while connected or before any failure) */
  get connectFailure(): { reason: string; attempts: number } | null {
    return this.failure ? { reason: this.failure.reason || [...this.roundErrors.values()][0] || 'connecting', attempts: this.failure.attempts } : null;
  }

  /**
   * publishes at QoS 1; `done` runs on the broker's PUBACK (or with the error); never for a
   * connection that has ended. `copyOf`: this is a copy of the message on that topic (an answer on
   * a response topic): MQTT 5 says so in the user property `copy-of`
   */
  publish(topic: string, payload: string, retain: boolean, correlationData?: string, done?: (err?: Error) => void, copyOf?: string): void {
    const c = this.client;
    if (!c) {
      done?.(new Error('not connected'));
      return;
    }
    const gen = this.gen;
    const opts: mqtt.IClientPublishOptions = { qos: PUBLISH_QOS, retain };
    if (this.protocolVersion === 5 && (correlationData || copyOf)) {
      opts.properties = {
        ...(correlationData ? { correlationData: Buffer.from(correlationData, 'base64') } : {}),
        ...(copyOf ? { userProperties: { 'copy-of': copyOf } } : {}),
      };
    }
    c.publish(topic, payload, opts, (err) => {
      if (gen !== this.gen) return; // that connection ended: the outbox resends on the next one
      if (err) this.o.logger.warn(`publish to ${topic} failed: ${err.message}`);
      done?.(err ?? undefined);
    });
  }

  /**
   * drops the current connection and makes it again (a broker that stopped acknowledging,
   * outbox-sender.ts): the socket is destroyed at once (nothing is waited for from that broker),
   * and the usual reconnect follows (the first URL of the list, with backoff after a short-lived
   * connection); the outbox sends everything unacknowledged again on the new connection
   */
  dropConnection(reason: string): void {
    const c = this.client;
    if (!c || this.closed) return;
    const url = this.urls[this.index];
    this.o.logger.warn(`dropping the connection to ${safeUrl(url)}: ${reason}`);
    // this client is finished: its late callbacks (mqtt.js fails what it had in flight) are dropped
    this.gen++;
    this.client = null;
    this.onLost(url);
    this.discard(c);
    this.next(this.index, true);
  }

  /** graceful shutdown: `offline` status, then disconnect */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of [this.timer, this.subscribeTimer]) if (t) clearTimeout(t);
    if (this.failbackTimer) clearInterval(this.failbackTimer);
    this.timer = this.subscribeTimer = this.failbackTimer = null;
    const c = this.client;
    this.client = null;
    const wasConnected = this.isConnected;
    this.isConnected = false;
    this.gen++;
    if (c) {
      if (wasConnected && c.connected) {
        await withTimeout(
          new Promise<void>((resolve) =>
            c.publish(this.statusTopic, this.statusPayload('offline', 'stopped'), { qos: PUBLISH_QOS, retain: true }, () => resolve()),
          ),
          5_000,
        );
      }
      c.on('error', () => {});
      // mqtt.js's end waits for every PUBACK still due: a broker that stopped acknowledging would
      // hold the shutdown forever (nothing is lost: what is unacknowledged stays in the outbox)
      let ended = false;
      await withTimeout(
        new Promise<void>((resolve) =>
          c.end(!c.connected, {}, () => {
            ended = true;
            resolve();
          }),
        ),
        5_000,
      );
      if (!ended) (c.stream as unknown as Socket | undefined)?.destroy?.();
    }
    this.requestSubject.complete();
    this.connected$.complete();
    this.changed$.complete();
  }
}

function withTimeout(p: Promise<void>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref?.();
    void p.then(() => {
      clearTimeout(t);
      resolve();
    });
  });
}

/** does the host of `url` accept a TCP connection (mqtt/mqtts/tcp/tls/ws/wss with a port) */
function probeTcp(url: string, timeoutMs: number): Promise<boolean> {
  let host: string;
  let port: number;
  try {
    const u = new URL(url);
    host = u.hostname.replace(/^\[|\]$/g, '');
    const defaults: Record<string, number> = { 'mqtt:': 1883, 'tcp:': 1883, 'mqtts:': 8883, 'tls:': 8883, 'ws:': 80, 'wss:': 443 };
    port = u.port ? Number(u.port) : (defaults[u.protocol] ?? 1883);
  } catch {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    const done = (ok: boolean): void => {
      s.removeAllListeners();
      s.on('error', () => {});
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}
