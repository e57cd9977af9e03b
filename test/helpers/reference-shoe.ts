/**
 * A reference-protocol device for tests, written independently of the gateway's codec: it builds
 * `$TALKER,SEQ,TYPE,...*CS\r\n` lines itself and writes them into the device end of a pty pair.
 */
import type { PtyPair } from '../../dev/rig/pty-pair.js';

export function referenceLine(body: string): string {
  let cs = 0;
  for (const ch of Buffer.from(body, 'latin1')) cs ^= ch;
  return `$${body}*${cs.toString(16).toUpperCase().padStart(2, '0')}\r\n`;
}

export class ReferenceShoe {
  seq = 0;
  constructor(
    private readonly pty: PtyPair,
    private readonly talker = 'SHOE',
  ) {}

  async send(...parts: string[]): Promise<void> {
    await this.pty.write(referenceLine([this.talker, String(this.seq), ...parts].join(',')));
    this.seq = (this.seq + 1) % 65536;
  }

  async cards(...cards: string[]): Promise<void> {
    for (const c of cards) await this.send('CARD', c);
  }
}
