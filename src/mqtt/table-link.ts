/**
 * One table's MQTT connection (mqtt-api.md): client id `<clientIdPrefix><tableId>`, the retained
 * `status` with its `offline` last will, QoS 1 publishing in order, and the `request/+` subscription.
 * Nagle is switched off on every (re)connect: mqtt.js leaves it on, which costs ~40 ms per message.
 */
import type { Socket } from 'node:net';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { Subject, type Observable } from 'rxjs';
import type { Logger } from '../log.js';
import { describeConnectError, loadMqttCredentials, type MqttCredentials } from '../security/mqtt-credentials.js';
import { requestCommandOf, topicsFor, type TopicMap } from './topics.js';

export interface TableLinkOptions {
  url: string;
  tableId: string;
  gameId: string;
  topicPrefix: string;
  clientIdPrefix: string;
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
  logger: Logger;
  /**
   * Instead of the table's `status`: a retained presence message published on every connect, with
   * `offline` as the last will and on close, and no request subscription. The gateway's own
   * connection (`info` topic, src/mqtt/gateway-info.ts) is a link with this set.
   */
  presence?: { clientId: string; topic: string; online: () => string; offline: string };
}

/** a failed connection attempt is logged when its reason changes, else at most this often */
const REPEAT_FAILURE_LOG_MS = 60_000;

export interface IncomingRequest {
  command: string;
  payload: string;
  responseTopic?: string;
  correlationData?: string;
  /** delivered with the retain flag: a stale copy the broker keeps, never executed (mqtt-api.md) */
  retained?: boolean;
}

export class TableLink {
  readonly topics: TopicMap;
  readonly requests$: Observable<IncomingRequest>;
  readonly connected$ = new Subject<boolean>();
  private readonly requestSubject = new Subject<IncomingRequest>();
  private client: MqttClient | null = null;
  private isConnected = false;
  private failure: { reason: string; since: number; attempts: number; loggedAt: number } | null = null;

  constructor(private readonly o: TableLinkOptions) {
    this.topics = topicsFor(o.topicPrefix, o.tableId);
    this.requests$ = this.requestSubject.asObservable();
  }

  /** the retained presence topic: the table's `status`, or `presence.topic` */
  private get statusTopic(): string {
    return this.o.presence?.topic ?? this.topics.status;
  }

  get connected(): boolean {
    return this.isConnected;
  }

  private statusPayload(state: 'online' | 'offline'): string {
    const p = this.o.presence;
    if (p) return state === 'online' ? p.online() : p.offline;
    return JSON.stringify({ v: 1, type: 'status', table: this.o.tableId, game: this.o.gameId, ts: new Date().toISOString(), state });
  }

  connect(): void {
    const o = this.o;
    const opts: IClientOptions = {
      clientId: o.presence?.clientId ?? o.clientIdPrefix + o.tableId,
      protocolVersion: o.protocolVersion,
      keepalive: o.keepaliveSec,
      clean: true,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
      will: { topic: this.statusTopic, payload: Buffer.from(this.statusPayload('offline')), qos: 1, retain: true },
      // a refused CONNACK (bad password, not authorized) is retried like a lost connection
      reconnectOnConnackError: true,
      rejectUnauthorized: true,
    };
    // files are read (and checked, errors naming the config key) here unless the gateway did it at start-up
    const cred = o.credentials ?? loadMqttCredentials({
      url: o.url, username: o.username, password: o.password, passwordFile: o.passwordFile, ca: o.ca, cert: o.cert, key: o.key,
    });
    if (cred.username !== undefined) opts.username = cred.username;
    if (cred.password !== undefined) opts.password = cred.password;
    if (cred.ca) opts.ca = cred.ca;
    if (cred.cert) opts.cert = cred.cert;
    if (cred.key) opts.key = cred.key;
    if (o.maxPacketBytes && o.protocolVersion === 5) opts.properties = { maximumPacketSize: o.maxPacketBytes };
    const client = mqtt.connect(o.url, opts);
    this.client = client;
    client.on('connect', () => {
      (client.stream as unknown as Socket | undefined)?.setNoDelay?.(true);
      this.isConnected = true;
      this.connected$.next(true);
      const f = this.failure;
      this.failure = null;
      o.logger.info(`connected to ${o.url} as ${opts.clientId}${f ? ` after ${f.attempts} failed attempt(s)` : ''}`);
      client.publish(this.statusTopic, this.statusPayload('online'), { qos: 1, retain: true });
      if (o.presence) return;
      client.subscribe(this.topics.requests, { qos: 1 }, (err) => {
        if (err) o.logger.error(`cannot subscribe to ${this.topics.requests}: ${err.message}`);
      });
    });
    client.on('close', () => {
      if (this.isConnected && this.client) o.logger.warn(`connection to ${o.url} lost; reconnecting`);
      this.isConnected = false;
      this.connected$.next(false);
    });
    client.on('error', (e) => this.onConnectionError(e));
    client.on('message', (topic, payload, packet) => {
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
  }

  /**
   * Logs why the broker cannot be reached, without secrets: at once when the reason changes, then
   * at most once a minute with the number of attempts (mqtt.js keeps retrying every second).
   */
  private onConnectionError(e: Error): void {
    if (this.isConnected) {
      this.o.logger.warn(`MQTT error: ${describeConnectError(e, this.o.url)}`);
      return;
    }
    const reason = describeConnectError(e, this.o.url);
    const now = Date.now();
    const f = this.failure;
    if (!f || f.reason !== reason) {
      this.failure = { reason, since: now, attempts: 1, loggedAt: now };
      this.o.logger.warn(`cannot connect to ${this.o.url}: ${reason}; retrying`);
      return;
    }
    f.attempts++;
    if (now - f.loggedAt >= REPEAT_FAILURE_LOG_MS) {
      f.loggedAt = now;
      this.o.logger.warn(`still cannot connect to ${this.o.url}: ${reason} (${f.attempts} attempts since ${new Date(f.since).toISOString()}); retrying`);
    }
  }

  /** why the last connection attempts failed (null while connected or before any failure) */
  get connectFailure(): { reason: string; attempts: number } | null {
    return this.failure ? { reason: this.failure.reason, attempts: this.failure.attempts } : null;
  }

  /** publishes at QoS 1; `done` runs on the broker's PUBACK (or with the error) */
  publish(topic: string, payload: string, retain: boolean, correlationData?: string, done?: (err?: Error) => void): void {
    if (!this.client) {
      done?.(new Error('not connected'));
      return;
    }
    const opts: mqtt.IClientPublishOptions = { qos: 1, retain };
    if (correlationData && this.o.protocolVersion === 5) opts.properties = { correlationData: Buffer.from(correlationData, 'base64') };
    this.client.publish(topic, payload, opts, (err) => {
      if (err) this.o.logger.warn(`publish to ${topic} failed: ${err.message}`);
      done?.(err ?? undefined);
    });
  }

  /** graceful shutdown: `offline` status, then disconnect */
  async close(): Promise<void> {
    const c = this.client;
    if (!c) return;
    this.client = null;
    this.isConnected = false;
    if (c.connected) {
      await new Promise<void>((resolve) => c.publish(this.statusTopic, this.statusPayload('offline'), { qos: 1, retain: true }, () => resolve()));
    }
    await new Promise<void>((resolve) => c.end(false, {}, () => resolve()));
    this.requestSubject.complete();
    this.connected$.complete();
  }
}
