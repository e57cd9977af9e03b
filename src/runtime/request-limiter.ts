/**
 * Engine requests at the runtime's edge (docs/SECURITY.md, "Requests"): a size cap and a token
 * bucket per table, decided before a request becomes an input of the pure table machine.
 *
 * - a payload over `maxPayloadBytes` is refused unread (its text is not journaled);
 * - beyond `burst` requests at once and `ratePerSec` sustained, a request is refused with
 *   `rate limited: ...`;
 * - refusals themselves are limited by a second bucket of the same size: a flood beyond twice the
 *   rate is dropped without an answer (counted and logged), so it cannot grow the journal or the
 *   outbox without bound.
 * A refused request still goes through the machine (`refused` set), which answers it with its `seq`
 * and changes nothing else.
 */
import type { RequestLimitsConfig } from '../core/vocabulary/config-schema.js';

export class TokenBucket {
  private tokens: number;
  private last: number | null = null;

  constructor(
    private readonly ratePerSec: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  /** takes one token if there is one at time `now` (ms) */
  take(now: number): boolean {
    if (this.last !== null && now > this.last) this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.ratePerSec);
    if (this.last === null || now > this.last) this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

export type Admission = { action: 'accept' } | { action: 'refuse'; reason: string; dropPayload: boolean } | { action: 'drop' };

export class RequestGate {
  private readonly requests: TokenBucket;
  private readonly refusals: TokenBucket;
  /** requests dropped without an answer since the last `takeDropped()` */
  private dropped = 0;

  constructor(private readonly limits: Pick<RequestLimitsConfig, 'ratePerSec' | 'burst' | 'maxPayloadBytes'>) {
    this.requests = new TokenBucket(limits.ratePerSec, limits.burst);
    this.refusals = new TokenBucket(limits.ratePerSec, limits.burst);
  }

  admit(payload: string, now: number): Admission {
    const bytes = Buffer.byteLength(payload, 'utf8');
    if (bytes > this.limits.maxPayloadBytes) {
      return this.refuse(`payload too large: ${bytes} bytes (requests.maxPayloadBytes is ${this.limits.maxPayloadBytes})`, true, now);
    }
    if (this.requests.take(now)) return { action: 'accept' };
    return this.refuse(
      `rate limited: more than ${this.limits.burst} requests at once or ${this.limits.ratePerSec} per second on this table; retry later`,
      false,
      now,
    );
  }

  /** how many requests were dropped unanswered since the last call */
  takeDropped(): number {
    const n = this.dropped;
    this.dropped = 0;
    return n;
  }

  private refuse(reason: string, dropPayload: boolean, now: number): Admission {
    if (!this.refusals.take(now)) {
      this.dropped++;
      return { action: 'drop' };
    }
    return { action: 'refuse', reason, dropPayload };
  }
}
