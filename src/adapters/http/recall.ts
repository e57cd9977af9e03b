/**
 * The recall of a table's last rounds (`GET /api/tables/<id>/recall`, the table page's RECALL
 * box): the last N rounds that have a result, in the order they were played, each with its cards
 * by position, burns, result, outcome facts, alerts and corrections. Read from the journal's
 * published messages (src/adapters/store/gateway-store.ts), so it survives restarts and does not
 * depend on the table's state: a held or void table, or one whose devices are in fault, recalls
 * the same way.
 *
 * Only rounds with a result are recalled, and only from what was published: a face-down card of
 * a round in progress was published as null and its round has no result yet, so it never
 * appears. A journal row that is not a valid message (bad JSON, a payload that fails its schema,
 * a seq that does not match its row) is skipped and its reason logged once.
 */
import * as z from 'zod';
import { alertMessageSchema, envelopeSchema, EVENT_SCHEMAS, resultMessageSchema } from '../../core/table/messages.js';
import type { Logger } from '../../runtime/log.js';

export const DEFAULT_RECALL_ROUNDS = 10;
export const MAX_RECALL_ROUNDS = 100;
/** the most journal rows one recall reads (a table that publishes thousands of messages between results stops here) */
export const RECALL_SCAN_LIMIT = 200_000;

/** the `?rounds=` query parameter */
export const recallQuerySchema = z
  .object({
    rounds: z.coerce.number().int().min(1).max(MAX_RECALL_ROUNDS).optional(),
  })
  .strict();

export interface RecallAlert {
  seq: number;
  ts: string;
  kind: string;
  severity: string;
  detail: string;
}

export interface RecallCorrection {
  seq: number;
  ts: string;
  /** `result`: the pit corrected or voided the completed round (a superseding result); `event`: a correction during the round */
  source: 'result' | 'event';
  /** result: `corrected` or `void` */
  status?: string;
  /** result: `void`, `cards`, `reverse-order`, `dice`, `balls`; event: the correction's text */
  kind?: string;
  by?: string;
  reason?: string;
  outcome?: Record<string, unknown> | null;
  cards?: Record<string, Array<string | null>>;
  dice?: [number, number, number] | null;
  balls?: number[];
}

export interface RecalledRound {
  roundId: string;
  shoeId: string | null;
  /** the round's number (in its shoe for card games), from its `round` snapshot when the journal has it */
  roundNo: number | null;
  /** the seq and time of the round's first result */
  seq: number;
  ts: string;
  /** as first published: `complete` or `void` */
  status: string;
  /** after the corrections: `complete`, `corrected` or `void` */
  finalStatus: string;
  reason?: string;
  detail?: string;
  /** card games: position -> cards (without the burns) */
  cards?: Record<string, Array<string | null>>;
  /** card games: the round's own burn cards (null: a burn dropped unread) */
  burns?: Array<string | null>;
  dice?: [number, number, number] | null;
  balls?: number[];
  /** the outcome as first published */
  outcome: Record<string, unknown> | null;
  /** the outcome after the corrections (the same as `outcome` when there were none) */
  finalOutcome: Record<string, unknown> | null;
  alerts: RecallAlert[];
  corrections: RecallCorrection[];
}

export interface Recall {
  table: string;
  game: string;
  /** how many rounds were asked for */
  rounds: number;
  /** the gateway's time zone (the message times are UTC) */
  timeZone: string;
  recall: RecalledRound[];
  /** journal rows skipped as corrupt while reading this recall */
  skipped: number;
}

export interface JournalRow {
  seq: number;
  topic: string;
  payload: string;
}

type Result = z.infer<typeof resultMessageSchema>;
type Alert = z.infer<typeof alertMessageSchema>;

const correctionEventSchema = EVENT_SCHEMAS.correction;

/** one row of the journal read as a message, or the reason it is not one */
function readRow(row: JournalRow): { ok: true; msg: z.infer<typeof envelopeSchema> } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(row.payload);
  } catch (e) {
    return { ok: false, reason: `not JSON (${(e as Error).message})` };
  }
  const env = envelopeSchema.safeParse(json);
  if (!env.success) return { ok: false, reason: `not a message envelope (${z.prettifyError(env.error).split('\n')[0]})` };
  if (env.data.seq !== row.seq) return { ok: false, reason: `its seq ${env.data.seq} is not its row's` };
  return { ok: true, msg: env.data };
}

function splitCards(cards: Record<string, Array<string | null>>): { cards: Record<string, Array<string | null>>; burns: Array<string | null> } {
  const out: Record<string, Array<string | null>> = {};
  for (const [pos, cs] of Object.entries(cards)) if (pos !== 'burn') out[pos] = [...cs];
  return { cards: out, burns: [...(cards.burn ?? [])] };
}

/**
 * Reads the recall from a table's journal rows, newest first. `skip` is told each corrupt row
 * (its seq and why).
 */
export function readRecall(
  o: { table: string; game: string; rounds: number; timeZone: string },
  rowsNewestFirst: Iterable<JournalRow>,
  skip: (seq: number, reason: string) => void,
): Recall {
  /** round id -> what was found of it, newest message first */
  type Found = { original?: Result; corrections: Result[]; alerts: Alert[]; events: Array<z.infer<typeof correctionEventSchema>>; roundNo: number | null };
  const found = new Map<string, Found>();
  const originals: string[] = [];
  let skipped = 0;
  let scanned = 0;
  const entry = (roundId: string) => {
    const known = found.get(roundId);
    if (known) return known;
    const e: Found = { corrections: [], alerts: [], events: [], roundNo: null };
    found.set(roundId, e);
    return e;
  };
  for (const row of rowsNewestFirst) {
    if (++scanned > RECALL_SCAN_LIMIT) break;
    const read = readRow(row);
    if (!read.ok) {
      skipped++;
      skip(row.seq, read.reason);
      continue;
    }
    const m = read.msg;
    const roundId = m.roundId;
    if (!roundId) continue;
    if (m.type === 'result') {
      const r = resultMessageSchema.safeParse(m);
      if (!r.success) {
        skipped++;
        skip(row.seq, `a result that fails its schema (${z.prettifyError(r.error).split('\n')[0]})`);
        continue;
      }
      if (r.data.supersedesSeq !== undefined) {
        // a correction of a completed round: kept only if its round turns out to be recalled
        entry(roundId).corrections.push(r.data);
        continue;
      }
      // the first result of a round older than the last N: everything before it is older still
      if (originals.length >= o.rounds && !found.get(roundId)?.original) break;
      const e = entry(roundId);
      if (!e.original) {
        e.original = r.data;
        originals.push(roundId);
      }
      continue;
    }
    // messages of rounds without a result so far (the round in progress) are never kept
    if (m.type === 'alert') {
      const a = alertMessageSchema.safeParse(m);
      if (a.success) entry(roundId).alerts.push(a.data);
      else {
        skipped++;
        skip(row.seq, `an alert that fails its schema (${z.prettifyError(a.error).split('\n')[0]})`);
      }
    } else if (m.type === 'event' && m.kind === 'correction') {
      const ev = correctionEventSchema.safeParse(m);
      if (ev.success) entry(roundId).events.push(ev.data);
    } else if (m.type === 'round' && typeof m.roundNo === 'number') {
      const e = entry(roundId);
      e.roundNo ??= m.roundNo;
    }
  }
  const recall: RecalledRound[] = [];
  // originals were found newest first: the recall is in the order the rounds were played
  for (const roundId of originals.slice(0, o.rounds).reverse()) {
    const e = found.get(roundId)!;
    const r = e.original!;
    // the corrections that apply to this result (a chain: each supersedes the one before), oldest first
    const chain: Result[] = [];
    const bySeq = new Map(e.corrections.map((c) => [c.supersedesSeq!, c]));
    for (let next = bySeq.get(r.seq); next; next = bySeq.get(next.seq)) chain.push(next);
    const last = chain.length > 0 ? chain[chain.length - 1] : r;
    const corrections: RecallCorrection[] = [
      ...e.events.map((ev): RecallCorrection => ({ seq: ev.seq, ts: ev.ts, source: 'event', kind: ev.correction, ...(ev.by ? { by: ev.by } : {}) })),
      ...chain.map(
        (c): RecallCorrection => ({
          seq: c.seq,
          ts: c.ts,
          source: 'result',
          status: c.status,
          ...(c.correction ? { kind: c.correction.kind, by: c.correction.by, ...(c.correction.reason ? { reason: c.correction.reason } : {}) } : {}),
          outcome: c.outcome,
          ...('cards' in c ? { cards: c.cards } : {}),
          ...('dice' in c ? { dice: c.dice } : {}),
          ...('balls' in c ? { balls: c.balls } : {}),
        }),
      ),
    ].sort((a, b) => a.seq - b.seq);
    const round: RecalledRound = {
      roundId,
      shoeId: r.shoeId ?? null,
      roundNo: e.roundNo,
      seq: r.seq,
      ts: r.ts,
      status: r.status,
      finalStatus: last.status,
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.detail ? { detail: r.detail } : {}),
      outcome: r.outcome,
      finalOutcome: last.outcome,
      alerts: e.alerts.map((a) => ({ seq: a.seq, ts: a.ts, kind: a.kind, severity: a.severity, detail: a.detail })).sort((a, b) => a.seq - b.seq),
      corrections,
    };
    if ('cards' in r) Object.assign(round, splitCards(r.cards));
    if ('dice' in r) round.dice = r.dice;
    if ('balls' in r) round.balls = [...r.balls];
    recall.push(round);
  }
  return { table: o.table, game: o.game, rounds: o.rounds, timeZone: o.timeZone, recall, skipped };
}

/** the gateway's time zone: the process's (the `TZ` environment variable, else the system's) */
export function gatewayTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * A recall reader over the journal that logs each corrupt row once (a page asking again and
 * again does not fill the log).
 */
export class RecallReader {
  private readonly logged = new Set<string>();

  constructor(
    private readonly source: { messagesNewestFirst(tableId: string): Iterable<JournalRow> },
    private readonly log: Logger,
    readonly defaultRounds = DEFAULT_RECALL_ROUNDS,
  ) {}

  read(table: { id: string; game: string }, rounds = this.defaultRounds): Recall {
    return readRecall({ table: table.id, game: table.game, rounds, timeZone: gatewayTimeZone() }, this.source.messagesNewestFirst(table.id), (seq, reason) => {
      const key = `${table.id}\0${seq}`;
      if (this.logged.has(key)) return;
      if (this.logged.size < 10_000) this.logged.add(key);
      this.log.warn(`recall of ${table.id}: journal message seq ${seq} skipped: ${reason}`);
    });
  }
}
