/**
 * What the runtime decides about an engine request before it becomes an input of the pure table
 * machine (mqtt-api.md, "Rules a request path must keep"). Every decision that refuses a request
 * is written into the input (`refused`, `refusedCode`), so it is journaled and a replay gives the
 * same answer; a request that is not executed at all (a retained copy, a flood beyond the answer
 * bound) never becomes an input.
 *
 * - a request delivered with the retain flag (the stale copy a broker hands out on every
 *   (re)subscribe) is ignored and logged once per command;
 * - payload size cap and rate limit (`RequestGate`);
 * - an MQTT 5 response topic is honoured only when it is a valid topic name (no `+`, `#`, empty
 *   level or U+0000) under this table's own `response/` or a `requests.responseTopicPrefixes`
 *   entry; otherwise the request is refused `not-allowed` and answered on `response/<command>` only;
 * - a retry of a request the table already answered (its `transaction` or correlation data and
 *   the same body, within `requests.idempotencyWindowSec`) is handed to the machine with its first
 *   answer to publish again (`replayed: true`), never executed twice; the same key with another
 *   body is refused `transaction-reused` (answered-requests.ts);
 * - a round id an engine supplies in `open-betting` must not have the form of the gateway's own
 *   ids and must not have been used on this table within the journal's retention
 *   (`duplicate-round-id`);
 * - a privileged command (`void-round`, `correction`, `resume-round`, `end-shoe`, `new-shoe`) that
 *   carries a signature has it checked (the `RequestSignatureChecker` port; src/adapters/security/request-signing.ts):
 *   a bad, unknown-key, not-allowed, stale or replayed one is refused with its code; a verified one
 *   gets the key's configured name as the input's `signer`. Whether the request needed a signature
 *   at all (a completed or held round) is the table machine's to say (src/core/table/privileged.ts).
 */
import type { RequestLimitsConfig } from '../core/vocabulary/config-schema.js';
import type { RequestErrorCode } from '../core/vocabulary/requests.js';
import type { IncomingRequest } from './ports.js';
import { RequestGate } from './request-limiter.js';
import { topicNameProblem } from '../core/vocabulary/topics.js';
import type { TableInput } from '../core/table/types.js';
import { PRIVILEGED_COMMANDS } from '../core/vocabulary/requests.js';
import type { AnsweredRequests } from './answered-requests.js';

/** what the signature of one request comes to: none (the machine decides whether one was needed), a verified signer, or a refusal */
export type RequestSignatureCheck = { kind: 'unsigned' } | { kind: 'signed'; signer: string } | { kind: 'refused'; code: RequestErrorCode; reason: string };

/**
 * The port of the privileged requests' signatures (docs/SECURITY.md "Privileged requests"):
 * `RequestVerifier` of src/adapters/security/request-signing.ts implements it with the table's keys.
 */
export interface RequestSignatureChecker {
  /** the time window (`requests.privileged.maxSkewSeconds`) in ms */
  readonly maxSkewMs: number;
  /** `payload`: the request's raw text; `at`: when it was received */
  check(command: string, payload: string, at: number): RequestSignatureCheck;
  /** a signed request the table took before (from the journal, at a restart): a copy is `replayed-request` */
  noteTaken(payload: string, at: number): void;
}

/** a table without keys: a signed request names a key it does not list; an unsigned one is the machine's to judge */
export const NO_PRIVILEGED_KEYS: RequestSignatureChecker = {
  maxSkewMs: 0,
  check(_command, payload) {
    let json: unknown;
    try {
      json = JSON.parse(payload);
    } catch {
      return { kind: 'unsigned' };
    }
    if (json === null || typeof json !== 'object' || Array.isArray(json) || !Object.hasOwn(json, 'signature')) return { kind: 'unsigned' };
    return { kind: 'refused', code: 'unknown-key', reason: 'this table lists no privileged-request keys (tables[].requests.privileged.keys)' };
  },
  noteTaken() {},
};

const PRIVILEGED: ReadonlySet<string> = new Set(PRIVILEGED_COMMANDS);

/** why `topic` may not be used as a response topic, or null when it may */
export function responseTopicProblem(topic: string, allowedPrefixes: readonly string[]): string | null {
  const invalid = topicNameProblem(topic);
  if (invalid) return `the response topic is not a valid topic name: ${invalid}`;
  if (!allowedPrefixes.some((p) => topic.startsWith(p))) {
    return `the response topic is not under an allowed prefix (${allowedPrefixes.join(', ')}; requests.responseTopicPrefixes)`;
  }
  return null;
}

/** the forms of the gateway's own round ids: `<table>-s<n>-r<n>` (shoe games) and `<table>-r<n>` (sic bo, keno) */
export function hasGatewayRoundIdForm(tableId: string, roundId: string): boolean {
  if (/^[a-z0-9-]{1,32}-s\d+-r\d+$/.test(roundId)) return true;
  return roundId.startsWith(`${tableId}-r`) && /^\d+$/.test(roundId.slice(tableId.length + 2));
}

export interface RequestAdmissionOptions {
  tableId: string;
  /** this table's own `<prefix>/<table>/response/`: always allowed */
  ownResponsePrefix: string;
  /** `requests.responseTopicPrefixes` */
  responseTopicPrefixes?: readonly string[];
  limits?: Pick<RequestLimitsConfig, 'ratePerSec' | 'burst' | 'maxPayloadBytes'>;
  /** round ids this table used within the journal's retention (from the store) */
  usedRoundIds?: Iterable<string>;
  /** checks the signatures of privileged requests (default: no keys, so every signed request is `unknown-key`) */
  verifier?: RequestSignatureChecker;
  /** the requests this table answered within the idempotency window: a retry is replayed, not executed */
  answered?: AnsweredRequests;
}

export type Admitted =
  | { kind: 'input'; input: Extract<TableInput, { type: 'request' }> }
  | { kind: 'retained'; firstOfItsCommand: boolean }
  | { kind: 'dropped' };

/** what happened to the requests of a table since the gateway started (for `/metrics`) */
export interface RequestCounts {
  /** refused at the edge and answered, by code */
  refused: Partial<Record<RequestErrorCode, number>>;
  /** over the rate limit's answer bound: dropped without an answer */
  droppedUnanswered: number;
  /** delivered with the retain flag: not executed */
  retainedIgnored: number;
  /** retries of answered requests, answered again without being executed */
  replayed: number;
}

export class RequestAdmission {
  private readonly gate: RequestGate | null;
  private readonly allowedPrefixes: readonly string[];
  private readonly usedRoundIds: Set<string>;
  private readonly retainedSeen = new Set<string>();
  private readonly verifier: RequestSignatureChecker;
  readonly counts: RequestCounts = { refused: {}, droppedUnanswered: 0, retainedIgnored: 0, replayed: 0 };

  constructor(private readonly o: RequestAdmissionOptions) {
    this.gate = o.limits ? new RequestGate(o.limits) : null;
    this.allowedPrefixes = [o.ownResponsePrefix, ...(o.responseTopicPrefixes ?? [])];
    this.usedRoundIds = new Set(o.usedRoundIds ?? []);
    this.verifier = o.verifier ?? NO_PRIVILEGED_KEYS;
  }

  admit(r: IncomingRequest, at: number): Admitted {
    if (r.retained) {
      this.counts.retainedIgnored++;
      const first = !this.retainedSeen.has(r.command);
      if (first && this.retainedSeen.size < 1000) this.retainedSeen.add(r.command);
      return { kind: 'retained', firstOfItsCommand: first };
    }
    const { retained: _retained, ...rest } = r;
    let input: Extract<TableInput, { type: 'request' }> = { type: 'request', at, ...rest };
    // checked before anything else, so that no answer (a refusal included) ever goes to such a topic
    const topicProblem = r.responseTopic === undefined ? null : responseTopicProblem(r.responseTopic, this.allowedPrefixes);
    if (topicProblem) {
      const { responseTopic: _t, correlationData: _c, ...withoutResponseTopic } = input;
      input = withoutResponseTopic;
    }
    if (this.gate) {
      const a = this.gate.admit(r.payload, at);
      if (a.action === 'drop') {
        this.counts.droppedUnanswered++;
        return { kind: 'dropped' };
      }
      if (a.action === 'refuse') {
        const code: RequestErrorCode = a.dropPayload ? 'too-large' : 'rate-limited';
        return this.refuse({ ...input, ...(a.dropPayload ? { payload: '' } : {}) }, a.reason, code);
      }
    }
    if (topicProblem) return this.refuse(input, topicProblem, 'not-allowed');
    // a retry of an answered request: its first answer again, before any rule that would refuse a
    // second execution (a signed request's retry included: nothing is executed again)
    const seen = this.o.answered?.lookup(input, at);
    if (seen?.kind === 'replay') {
      this.counts.replayed++;
      return { kind: 'input', input: { ...input, replay: seen.replay } };
    }
    if (seen?.kind === 'reused') return this.refuse(input, seen.reason, 'transaction-reused');
    // after the rate limit: a flood of signed requests costs one bucket check each, not a verification
    if (PRIVILEGED.has(r.command)) {
      const c = this.verifier.check(r.command, r.payload, at);
      if (c.kind === 'refused') return this.refuse(input, c.reason, c.code);
      if (c.kind === 'signed') input = { ...input, signer: c.signer };
    }
    if (r.command === 'open-betting') {
      const roundId = this.engineRoundIdOf(r.payload);
      if (roundId !== undefined) {
        if (hasGatewayRoundIdForm(this.o.tableId, roundId)) {
          return this.refuse(
            input,
            `round id "${roundId}" has the form of the gateway's own ids (<table>-s<n>-r<n>, <table>-r<n>): choose another`,
            'duplicate-round-id',
          );
        }
        if (this.usedRoundIds.has(roundId)) {
          return this.refuse(input, `round id "${roundId}" was already used on this table`, 'duplicate-round-id');
        }
      }
    }
    return { kind: 'input', input };
  }

  /** learns the round ids of what the table published (called with every message, in order) */
  notePublished(payload: { roundId?: unknown }): void {
    if (typeof payload.roundId === 'string') this.usedRoundIds.add(payload.roundId);
  }

  /** requests dropped unanswered since the last call (for the log) */
  takeDropped(): number {
    return this.gate?.takeDropped() ?? 0;
  }

  private refuse(input: Extract<TableInput, { type: 'request' }>, reason: string, code: RequestErrorCode): Admitted {
    this.counts.refused[code] = (this.counts.refused[code] ?? 0) + 1;
    return { kind: 'input', input: { ...input, refused: reason, refusedCode: code } };
  }

  /** the `roundId` of an open-betting payload, when it has a string one (validation comes later) */
  private engineRoundIdOf(payload: string): string | undefined {
    try {
      const json: unknown = JSON.parse(payload);
      if (json && typeof json === 'object' && Object.hasOwn(json, 'roundId')) {
        const id = (json as { roundId: unknown }).roundId;
        return typeof id === 'string' ? id : undefined;
      }
    } catch {
      // not JSON: the machine answers invalid-json
    }
    return undefined;
  }
}
