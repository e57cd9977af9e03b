/**
 * SEQ bookkeeping of one device (device-protocols.md §1), fed with valid frames only:
 * - the first frame after open (or reset) is the baseline: `first`;
 * - last + 1 (mod modulus): `ok`;
 * - equal to the last accepted SEQ: `duplicate` (a retransmission: drop it, count it, no alert);
 *   the baseline is unchanged;
 * - 0 after anything other than modulus-1: `restart` (the device restarted, not a gap);
 * - anything else: `gap` with `missing` = frames lost (mod modulus); the new SEQ becomes the baseline.
 * Serial devices count modulo 65536; the HID dice sensor's 8-bit seq modulo 256.
 */
export type SeqCheck = { kind: 'first' } | { kind: 'ok' } | { kind: 'duplicate' } | { kind: 'gap'; missing: number } | { kind: 'restart' };

export const SERIAL_SEQ_MODULUS = 65536;

export class SeqTracker {
  private lastSeq = -1;

  constructor(readonly modulus: number = SERIAL_SEQ_MODULUS) {
    if (!Number.isInteger(modulus) || modulus < 2) throw new RangeError(`invalid SEQ modulus: ${modulus}`);
  }

  /** The last accepted SEQ, or undefined before the first frame. */
  get last(): number | undefined {
    return this.lastSeq < 0 ? undefined : this.lastSeq;
  }

  check(seq: number): SeqCheck {
    if (!Number.isInteger(seq) || seq < 0 || seq >= this.modulus) throw new RangeError(`SEQ out of range: ${seq}`);
    const last = this.lastSeq;
    if (last < 0) {
      this.lastSeq = seq;
      return { kind: 'first' };
    }
    if (seq === last) return { kind: 'duplicate' };
    this.lastSeq = seq;
    if (seq === (last + 1) % this.modulus) return { kind: 'ok' };
    if (seq === 0) return { kind: 'restart' };
    return { kind: 'gap', missing: (seq - last - 1 + this.modulus) % this.modulus };
  }

  /** Sets the baseline (the last SEQ accepted before a restart of the gateway, from its store). */
  seed(seq: number): void {
    if (Number.isInteger(seq) && seq >= 0 && seq < this.modulus) this.lastSeq = seq;
  }

  /** Forget the baseline: the next frame is `first` again. */
  reset(): void {
    this.lastSeq = -1;
  }
}
