/**
 * Dedupe and gap detection of one table's stream (docs/ENGINES.md, "The stream: dedupe and
 * gaps"): a message is named by `(epoch ?? '', seq)`. The same name seen again is a duplicate
 * (the outbox delivers at least once; an answer's copy on an MQTT 5 response topic has the same
 * `seq`): dropped, and reported. A `seq` more than one above the highest seen in its epoch opens
 * a gap, reported with the missing range; a message of the range arriving later fills it. An
 * epoch never seen before starts its own numbering, and is reported.
 *
 * Pure: no I/O, no clock. The client (engine-client.ts) feeds every message of a table through
 * one tracker and turns its verdicts into typed events.
 */

/** what the tracker decided about one message */
export type Verdict =
  | { kind: 'new' }
  | { kind: 'duplicate' }
  /** an unseen `seq` below the highest seen: it fills a gap (`filled`), or predates what was seen first */
  | { kind: 'late'; filled: boolean }
  | { kind: 'gap'; from: number; to: number }
  | { kind: 'new-epoch'; previous: string | null };

interface EpochState {
  /** highest seq seen */
  last: number;
  /** seqs seen, above `last - keep` */
  seen: Set<number>;
  /** seqs reported missing and not seen since */
  missing: Set<number>;
  /** a message not retained was seen: the stream is live, and every jump from now on is a gap */
  live: boolean;
}

export interface StreamTrackerOptions {
  /** how many seqs below the highest one are remembered for dedupe (default 100,000) */
  keep?: number;
  /** gaps larger than this are reported but not remembered seq by seq (default 10,000) */
  maxTrackedGap?: number;
}

export class StreamTracker {
  private readonly epochs = new Map<string, EpochState>();
  private current: string | null = null;
  private readonly keep: number;
  private readonly maxTrackedGap: number;

  constructor(opts: StreamTrackerOptions = {}) {
    this.keep = opts.keep ?? 100_000;
    this.maxTrackedGap = opts.maxTrackedGap ?? 10_000;
  }

  /**
   * Decides about the message `(epoch, seq)`. The retained messages delivered on the first
   * subscribe (`retained`), up to and including the first live message, are a snapshot: deduped,
   * but they open no gap (retained topics arrive in topic order, not in `seq` order, and what
   * was published before the subscribe was never this subscriber's to lose). From the first live
   * message on every jump is a gap, a retained message's too (a resubscribe after a lost session). Returns every verdict that applies (a new epoch's first message
   * is `new-epoch` then `new`); a `duplicate` is the only verdict when it applies.
   */
  accept(epoch: string | undefined, seq: number, retained = false): Verdict[] {
    const key = epoch ?? '';
    const out: Verdict[] = [];
    let st = this.epochs.get(key);
    if (!st) {
      st = { last: 0, seen: new Set(), missing: new Set(), live: !retained };
      this.epochs.set(key, st);
      if (this.current !== null || key !== '') out.push({ kind: 'new-epoch', previous: this.current });
      this.current = key;
      st.last = seq;
      st.seen.add(seq);
      out.push({ kind: 'new' });
      return out;
    }
    if (st.seen.has(seq) || seq <= st.last - this.keep) return [{ kind: 'duplicate' }];
    st.seen.add(seq);
    if (seq < st.last) {
      const filled = st.missing.delete(seq);
      out.push({ kind: 'late', filled });
      return out;
    }
    const snapshot = !st.live; // the retained snapshot on subscribe, up to the first live message
    if (!retained) st.live = true;
    if (seq > st.last + 1 && !snapshot) {
      out.push({ kind: 'gap', from: st.last + 1, to: seq - 1 });
      if (seq - 1 - st.last <= this.maxTrackedGap) for (let s = st.last + 1; s < seq; s++) st.missing.add(s);
    } else {
      out.push({ kind: 'new' });
    }
    st.last = seq;
    if (st.seen.size > this.keep * 2) for (const s of st.seen) if (s <= st.last - this.keep) st.seen.delete(s);
    return out;
  }

  /** the seqs reported missing and not seen since, of the current epoch (or of `epoch`) */
  missing(epoch: string | undefined = this.current ?? undefined): number[] {
    return [...(this.epochs.get(epoch ?? '')?.missing ?? [])].sort((a, b) => a - b);
  }

  /** the highest seq seen in the current epoch (null: nothing seen yet) */
  get last(): { epoch: string; seq: number } | null {
    if (this.current === null) return null;
    return { epoch: this.current, seq: this.epochs.get(this.current)!.last };
  }
}
