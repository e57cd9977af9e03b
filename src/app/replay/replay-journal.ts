/**
 * Replays a table's journal through the same pure state machine and checks that every message it
 * produces is byte for byte the message that was published (stored with its seq). The first
 * difference is reported with both texts.
 */
import { tableSchema } from '../../core/vocabulary/config-schema.js';
import type { GatewayStore } from '../../adapters/store/gateway-store.js';
import { envelopeText } from '../../core/vocabulary/envelope-text.js';
import { stateFromSnapshot, step } from '../../core/table/table-machine.js';
import { tableSettings } from '../../core/table/table-settings.js';
import type { Envelope, TableState } from '../../core/table/types.js';

export interface ReplayMismatch {
  seq: number;
  topic: string;
  inputId: number;
  published: string | null;
  replayed: string;
}

export interface ReplayReport {
  tableId: string;
  fromInputId: number;
  inputs: number;
  messages: number;
  results: number;
  /** messages no longer in the store (pruned by retention) that could not be compared */
  notStored: number;
  mismatch: ReplayMismatch | null;
}

export interface ReplayOptions {
  /** the same serialisation the gateway used (e.g. with result signatures) */
  serialize?: (e: Envelope) => string;
  /** pass the state through JSON after every step, as a snapshot does (checks recovery from any snapshot) */
  roundTripState?: boolean;
}

export function replayTable(store: GatewayStore, tableId: string, opts: ReplayOptions = {}): ReplayReport {
  const cfg = tableSchema.parse(store.tableSettings(tableId));
  // the epoch as journalled (gateway-store.ts ensureEpoch): the envelopes carry it
  const settings = { ...tableSettings(cfg), epoch: store.epochOf(tableId) };
  const first = store.firstSnapshot(tableId);
  if (!first) throw new Error(`no snapshot of table ${tableId} in the journal`);
  const serialize = opts.serialize ?? envelopeText;
  let state = stateFromSnapshot(first.state as TableState);
  const report: ReplayReport = { tableId, fromInputId: first.inputId, inputs: 0, messages: 0, results: 0, notStored: 0, mismatch: null };
  for (const entry of store.journal(tableId, first.inputId)) {
    const r = step(settings, state, entry.input);
    state = opts.roundTripState ? (JSON.parse(JSON.stringify(r.state)) as TableState) : r.state;
    report.inputs++;
    for (const o of r.outputs) {
      if (o.type !== 'publish') continue;
      const text = serialize(o.payload);
      const stored = store.message(tableId, o.payload.seq);
      if (!stored) {
        report.notStored++;
        continue;
      }
      report.messages++;
      if (o.topic === 'result') report.results++;
      if (stored.payload !== text || stored.topic !== o.topic) {
        report.mismatch = { seq: o.payload.seq, topic: o.topic, inputId: entry.id, published: stored.payload, replayed: text };
        return report;
      }
    }
  }
  return report;
}
