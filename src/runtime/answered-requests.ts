/**
 * Idempotent requests (mqtt-api.md v1.2): a request's `transaction` — or, without one, its MQTT 5
 * correlation data — identifies it. The table remembers every request it answered within
 * `requests.idempotencyWindowSec`, with its body and its answer; a retry (the same key, the same
 * command and body) is not executed again: the runtime hands the machine the first answer to
 * publish once more (`replayed: true`, `replayOf`). A key used again with another command or body
 * is refused `transaction-reused`, never answered with the other request's answer.
 *
 * The memory is rebuilt at every start from the journal (the answers and the requests that caused
 * them, `GatewayStore.answeredRequests`), so it survives restarts and crashes exactly as the
 * journal does: an answer journaled is an answer remembered.
 *
 * Not remembered (a retry runs again): requests without a key; `status` (it changes nothing, and
 * a retry should see the table as it is now; its answers are also the large ones); refusals that
 * executed nothing and that a retry may cure — `rate-limited`, `too-large`, `not-allowed` (a bad
 * response topic). Neither are `transaction-reused` refusals nor replays themselves (the first
 * answer stays). At most `maxEntries` answers per table are kept (20,000: the oldest go first).
 */
import type { RequestReplay, TableInput } from '../core/table/types.js';

/** commands a retry simply runs again: they change nothing */
export const NOT_REMEMBERED_COMMANDS: ReadonlySet<string> = new Set(['status']);

type RequestInput = Extract<TableInput, { type: 'request' }>;

/** refusals that executed nothing and that the same request may pass later */
const RETRYABLE_CODES: ReadonlySet<string> = new Set(['rate-limited', 'too-large', 'not-allowed', 'transaction-reused']);

/** the answer fields kept (the envelope is the machine's, new on a replay) */
const ANSWER_FIELDS = ['command', 'transaction', 'status', 'code', 'error', 'data'] as const;

interface Answered {
  /** the command and the body without `transaction`, canonical: a retry must match it */
  body: string;
  answer: Record<string, unknown>;
  seq: number;
  at: number;
}

export type AnsweredLookup = { kind: 'new' } | { kind: 'replay'; replay: RequestReplay } | { kind: 'reused'; reason: string };

/** JSON with object keys sorted (a retry from another client library may order them differently) */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** the key that identifies a request (null: none, not idempotent) and its body's canonical text */
export function requestIdentity(command: string, payload: string, correlationData?: string): { key: string; body: string } | null {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    json = undefined;
  }
  const obj = json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  const tx = obj && Object.hasOwn(obj, 'transaction') && typeof obj.transaction === 'string' && obj.transaction !== '' ? obj.transaction.slice(0, 128) : null;
  const key = tx !== null ? `t:${tx}` : correlationData ? `c:${correlationData}` : null;
  if (key === null) return null;
  let body: string;
  if (obj) {
    const { transaction: _t, ...rest } = obj;
    body = `${command}\n${canonical(rest)}`;
  } else body = `${command}\n${payload}`;
  return { key, body };
}

export interface AnsweredRequestsOptions {
  /** how long an answer is remembered (ms); 0: requests are not idempotent */
  windowMs: number;
  /** the most answers remembered per table (the oldest are forgotten first) */
  maxEntries?: number;
}

export class AnsweredRequests {
  private readonly byKey = new Map<string, Answered>();
  private readonly max: number;

  constructor(private readonly o: AnsweredRequestsOptions) {
    this.max = o.maxEntries ?? 20_000;
  }

  get size(): number {
    return this.byKey.size;
  }

  get enabled(): boolean {
    return this.o.windowMs > 0;
  }

  /** what to do with a request received at `at` */
  lookup(r: Pick<RequestInput, 'command' | 'payload' | 'correlationData'>, at: number): AnsweredLookup {
    if (!this.enabled || NOT_REMEMBERED_COMMANDS.has(r.command)) return { kind: 'new' };
    const id = requestIdentity(r.command, r.payload, r.correlationData);
    if (!id) return { kind: 'new' };
    const a = this.byKey.get(id.key);
    if (!a) return { kind: 'new' };
    if (at - a.at > this.o.windowMs) {
      this.byKey.delete(id.key);
      return { kind: 'new' };
    }
    if (a.body !== id.body) {
      const what = id.key.startsWith('t:') ? `transaction "${id.key.slice(2, 66)}"` : 'this correlation data';
      return {
        kind: 'reused',
        reason: `${what} was already used (answer seq ${a.seq}) for another request: a retry must repeat the same command and body; a new request needs a new transaction`,
      };
    }
    return { kind: 'replay', replay: { answer: a.answer, of: a.seq } };
  }

  /** remembers the answer (`payload` of the published response, `seq`) to a request input */
  record(input: RequestInput, seq: number, answer: Record<string, unknown>): void {
    if (!this.enabled || input.replay || NOT_REMEMBERED_COMMANDS.has(input.command)) return;
    if (typeof answer.code === 'string' && RETRYABLE_CODES.has(answer.code)) return;
    if (input.refusedCode && RETRYABLE_CODES.has(input.refusedCode)) return;
    const id = requestIdentity(input.command, input.payload, input.correlationData);
    if (!id) return;
    const kept: Record<string, unknown> = {};
    for (const f of ANSWER_FIELDS) if (answer[f] !== undefined) kept[f] = answer[f];
    this.byKey.delete(id.key); // re-inserted last: the Map's order is the age order
    this.byKey.set(id.key, { body: id.body, answer: kept, seq, at: input.at });
    if (this.byKey.size > this.max) this.byKey.delete(this.byKey.keys().next().value as string);
  }

  /** rebuilds the memory from the journal's answers, oldest first (GatewayStore.answeredRequests) */
  rebuild(rows: Iterable<{ seq: number; input: TableInput; answer: string }>): void {
    for (const r of rows) {
      if (r.input.type !== 'request') continue;
      let answer: Record<string, unknown>;
      try {
        answer = JSON.parse(r.answer) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (answer.replayed === true) continue;
      this.record(r.input, r.seq, answer);
    }
  }
}
