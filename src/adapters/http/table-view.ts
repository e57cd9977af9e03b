/**
 * What the status page, the metrics and the health reporter see of one table: its runtime (the
 * envelopes it publishes, its machine state, its device drivers) and its MQTT link.
 */
import type { Observable } from 'rxjs';
import type { RequestCounts } from '../../runtime/request-admission.js';
import type { PublishedMessage } from '../../runtime/table-runtime.js';
import type { TableInput, TableState } from '../../core/table/types.js';

export interface DriverCounters {
  readonly deviceId: string;
  readonly framesTotal: number;
  readonly rejectedTotal: number;
  readonly duplicates: number;
  /** rejects since start by reason (`bad-checksum`, `noise`, ...); absent for a driver that does not count them */
  readonly rejectedByReason?: Readonly<Record<string, number>>;
  /** the last reject with its redacted sample (never a card value) */
  readonly lastReject?: { readonly reason: string; readonly sample: string } | null;
  /** serial lines: low-latency mode of the port and an FTDI adapter's latency timer (device-protocols.md §3.3) */
  readonly latency?: { readonly lowLatency: boolean; readonly reason?: string; readonly latencyTimerMs?: number };
}

export interface TableView {
  id: string;
  game: string;
  runtime: {
    readonly published$: Observable<PublishedMessage>;
    readonly snapshot: TableState;
    readonly drivers: readonly DriverCounters[];
    apply(input: TableInput): void;
    /** the durable outbox: messages not yet acknowledged by the broker */
    readonly outbox?: { readonly depth: number; readonly stall$?: Observable<unknown> };
    /** the broker stopped acknowledging (mqtt.ackTimeoutMs): what was seen; null while it acknowledges */
    readonly brokerStall?: string | null;
    /** engine requests refused or ignored at the edge (`tablegw_requests_refused_total`) */
    readonly requestCounts?: RequestCounts;
  };
  link: {
    readonly connected: boolean;
    readonly connected$: Observable<boolean>;
    /** the broker the table is on (null while on none); absent for a link without failover */
    readonly broker?: string | null;
    /** false while connected but `request/+` is not subscribed (a refused SUBACK) */
    readonly requestsSubscribed?: boolean;
    /** where the request subscription stands (`subscribing` until the first SUBACK) */
    readonly requestsSubscription?: 'none' | 'subscribing' | 'refused' | 'subscribed';
    /** any change of connection, broker or subscription */
    readonly changed$?: Observable<void>;
  };
}
