import { describe, it, expect } from 'vitest';
import { SeqTracker } from '../../../drivers/codecs/seq-tracker.js';

describe('SeqTracker (serial, modulus 65536)', () => {
  it('first frame is the baseline, whatever its value', () => {
    expect(new SeqTracker().check(4711)).toEqual({ kind: 'first' });
    expect(new SeqTracker().check(0)).toEqual({ kind: 'first' });
  });

  it('+1 is ok, same as last is a duplicate that does not move the baseline', () => {
    const t = new SeqTracker();
    t.check(10);
    expect(t.check(11)).toEqual({ kind: 'ok' });
    expect(t.check(11)).toEqual({ kind: 'duplicate' });
    expect(t.check(11)).toEqual({ kind: 'duplicate' });
    expect(t.check(12)).toEqual({ kind: 'ok' });
    expect(t.last).toBe(12);
  });

  it('wraps 65535 -> 0 as ok', () => {
    const t = new SeqTracker();
    t.check(65534);
    expect(t.check(65535)).toEqual({ kind: 'ok' });
    expect(t.check(0)).toEqual({ kind: 'ok' });
    expect(t.check(1)).toEqual({ kind: 'ok' });
  });

  it('0 after anything but 65535 is a restart, and counting goes on from 0', () => {
    const t = new SeqTracker();
    t.check(500);
    expect(t.check(0)).toEqual({ kind: 'restart' });
    expect(t.check(1)).toEqual({ kind: 'ok' });
    const u = new SeqTracker();
    u.check(65534);
    expect(u.check(0)).toEqual({ kind: 'restart' });
  });

  it('reports gaps with the number of missing frames, also across the wrap', () => {
    const t = new SeqTracker();
    t.check(10);
    expect(t.check(14)).toEqual({ kind: 'gap', missing: 3 });
    expect(t.check(15)).toEqual({ kind: 'ok' });
    expect(t.check(9)).toEqual({ kind: 'gap', missing: 65529 }); // went "backwards": 65536 - 7
    const w = new SeqTracker();
    w.check(65534);
    expect(w.check(1)).toEqual({ kind: 'gap', missing: 2 }); // 65535 and 0 lost
  });

  it('reset() makes the next frame a baseline again', () => {
    const t = new SeqTracker();
    t.check(10);
    t.reset();
    expect(t.last).toBeUndefined();
    expect(t.check(300)).toEqual({ kind: 'first' });
  });

  it('refuses out-of-range SEQs', () => {
    const t = new SeqTracker();
    expect(() => t.check(65536)).toThrow(RangeError);
    expect(() => t.check(-1)).toThrow(RangeError);
    expect(() => t.check(1.5)).toThrow(RangeError);
  });
});

describe('SeqTracker (HID dice, modulus 256)', () => {
  it('wraps 255 -> 0, restarts on 0 otherwise, counts gaps mod 256', () => {
    const t = new SeqTracker(256);
    expect(t.check(254)).toEqual({ kind: 'first' });
    expect(t.check(255)).toEqual({ kind: 'ok' });
    expect(t.check(0)).toEqual({ kind: 'ok' });
    expect(t.check(0)).toEqual({ kind: 'duplicate' });
    expect(t.check(5)).toEqual({ kind: 'gap', missing: 4 });
    expect(t.check(0)).toEqual({ kind: 'restart' });
    const w = new SeqTracker(256);
    w.check(250);
    expect(w.check(3)).toEqual({ kind: 'gap', missing: 8 });
    expect(() => w.check(256)).toThrow(RangeError);
  });
});
