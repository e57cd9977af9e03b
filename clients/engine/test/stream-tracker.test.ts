import { describe, expect, it } from 'vitest';
import { StreamTracker } from '../src/stream-tracker.js';

describe('StreamTracker: dedupe and gaps by (epoch ?? "", seq)', () => {
  it('without an epoch: the first message sets the start, a repeat is a duplicate, a jump is a gap that later arrivals fill', () => {
    const t = new StreamTracker();
    expect(t.accept(undefined, 10)).toEqual([{ kind: 'new' }]);
    expect(t.accept(undefined, 11)).toEqual([{ kind: 'new' }]);
    expect(t.accept(undefined, 11)).toEqual([{ kind: 'duplicate' }]);
    expect(t.accept(undefined, 15)).toEqual([{ kind: 'gap', from: 12, to: 14 }]);
    expect(t.missing()).toEqual([12, 13, 14]);
    expect(t.accept(undefined, 13)).toEqual([{ kind: 'late', filled: true }]);
    expect(t.accept(undefined, 13)).toEqual([{ kind: 'duplicate' }]);
    expect(t.missing()).toEqual([12, 14]);
    // below the first message seen: late, but it filled nothing
    expect(t.accept(undefined, 5)).toEqual([{ kind: 'late', filled: false }]);
    expect(t.last).toEqual({ epoch: '', seq: 15 });
  });

  it('the retained snapshot on subscribe, up to the first live message, is deduped but opens no gap (retained topics come in topic order)', () => {
    const t = new StreamTracker();
    expect(t.accept(undefined, 50, true)).toEqual([{ kind: 'new' }]);
    expect(t.accept(undefined, 40, true)).toEqual([{ kind: 'late', filled: false }]);
    expect(t.accept(undefined, 60, true)).toEqual([{ kind: 'new' }]);
    expect(t.accept(undefined, 60)).toEqual([{ kind: 'duplicate' }]);
    expect(t.accept(undefined, 64)).toEqual([{ kind: 'new' }]);
    expect(t.missing()).toEqual([]);
    expect(t.accept(undefined, 66)).toEqual([{ kind: 'gap', from: 65, to: 65 }]);
    // live now: a retained message after a jump (a resubscribe after a lost session) is a gap too
    expect(t.accept(undefined, 70, true)).toEqual([{ kind: 'gap', from: 67, to: 69 }]);
    expect(t.missing()).toEqual([65, 67, 68, 69]);
  });

  it('with epochs: a new epoch is reported and numbers on its own; the same seq in two epochs is two messages', () => {
    const t = new StreamTracker();
    expect(t.accept('e1', 7)).toEqual([{ kind: 'new-epoch', previous: null }, { kind: 'new' }]);
    expect(t.accept('e1', 8)).toEqual([{ kind: 'new' }]);
    expect(t.accept('e2', 1)).toEqual([{ kind: 'new-epoch', previous: 'e1' }, { kind: 'new' }]);
    expect(t.accept('e2', 8)).toEqual([{ kind: 'gap', from: 2, to: 7 }]);
    expect(t.accept('e1', 8)).toEqual([{ kind: 'duplicate' }]);
    expect(t.accept('e2', 8)).toEqual([{ kind: 'duplicate' }]);
    expect(t.last).toEqual({ epoch: 'e2', seq: 8 });
    expect(t.missing('e1')).toEqual([]);
    expect(t.missing()).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it('a stream without epochs that gains one reports the new epoch', () => {
    const t = new StreamTracker();
    t.accept(undefined, 3);
    expect(t.accept('e9', 4)).toEqual([{ kind: 'new-epoch', previous: '' }, { kind: 'new' }]);
  });

  it('forgets seqs far below the highest one, and takes them as duplicates', () => {
    const t = new StreamTracker({ keep: 10 });
    for (let s = 1; s <= 40; s++) expect(t.accept(undefined, s)).toEqual([{ kind: 'new' }]);
    expect(t.accept(undefined, 35)).toEqual([{ kind: 'duplicate' }]);
    expect(t.accept(undefined, 3)).toEqual([{ kind: 'duplicate' }]);
  });
});
