/**
 * The ring buffer a virtual device keeps of the frames it sent, so that it can answer the
 * gateway's `REPEAT,<seq>` (device-protocols.md): every frame from `seq` on, with its original
 * SEQ, as long as it is still among the last `size` (at least 64). Frames lost on the line are in
 * the ring too: the device did send them.
 */
export class RepeatRing {
  private readonly lines: Array<{ seq: number; line: string | Buffer }> = [];

  constructor(readonly size = 64) {}

  add(seq: number, line: string | Buffer): void {
    this.lines.push({ seq, line });
    if (this.lines.length > this.size) this.lines.shift();
  }

  /** the frames from `seq` on (empty when `seq` is no longer kept) */
  from(seq: number): Array<string | Buffer> {
    const i = this.lines.findIndex((l) => l.seq === seq);
    return i < 0 ? [] : this.lines.slice(i).map((l) => l.line);
  }

  clear(): void {
    this.lines.length = 0;
  }
}

/** the SEQs of every `REPEAT,<seq>` command in bytes the gateway wrote */
export function repeatRequests(bytes: Buffer): number[] {
  const out: number[] = [];
  for (const m of bytes.toString('latin1').matchAll(/,REPEAT,(\d{1,5})\*/g)) out.push(Number(m[1]));
  return out;
}
