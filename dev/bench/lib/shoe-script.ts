/**
 * What a baccarat card shoe sends, shoe after shoe, as wire lines: `STATE,LOADED`, the reveal card
 * and its burns, rounds dealt by the game module's own order (`baccarat.expect`), and the cut
 * card 70 cards from the end. Every `CARD` line yields exactly one `card` event from the gateway;
 * the last card of each round also yields the round's `result`.
 */
import { encodeLine } from '../../../drivers/codecs/nmea-line.js';
import { revealBurnCount, type Card } from '../../../src/core/vocabulary/card.js';
import { seededRng, shuffledShoe, type Rng } from '../../../simulators/rng.js';
import { baccarat } from '../../../src/core/games/baccarat.js';

export interface ScriptFrame {
  line: Buffer;
  /** the card of a CARD line, else null */
  card: Card | null;
  /** the last card of a round: its `result` follows */
  lastOfRound: boolean;
}

const DECKS = 8;
const CUT_FROM_END = 70;

export class ShoeScript {
  private readonly rng: Rng;
  private queue: ScriptFrame[] = [];
  private pos = 0;
  private seq = 0;
  shoes = 0;

  constructor(seed: string) {
    this.rng = seededRng(seed);
  }

  next(): ScriptFrame {
    if (this.pos >= this.queue.length) {
      this.queue = this.dealShoe();
      this.pos = 0;
    }
    return this.queue[this.pos++];
  }

  /** the next frame without consuming it */
  peek(): ScriptFrame {
    if (this.pos >= this.queue.length) {
      this.queue = this.dealShoe();
      this.pos = 0;
    }
    return this.queue[this.pos];
  }

  private frame(type: string, fields: string[], card: Card | null = null): ScriptFrame {
    const line = Buffer.from(encodeLine('SHOE', this.seq, type, fields), 'latin1');
    this.seq = (this.seq + 1) & 0xffff;
    return { line, card, lastOfRound: false };
  }

  private dealShoe(): ScriptFrame[] {
    this.shoes++;
    const cards = shuffledShoe(DECKS, this.rng);
    const cutIndex = cards.length - CUT_FROM_END;
    const out: ScriptFrame[] = [this.frame('STATE', ['LOADED'])];
    let next = 0;
    let cutSeen = false;
    const draw = (): Card => {
      if (next === cutIndex && !cutSeen) {
        cutSeen = true;
        out.push(this.frame('CUT', []));
      }
      const c = cards[next++];
      out.push(this.frame('CARD', [c], c));
      return c;
    };
    const reveal = draw();
    for (let i = revealBurnCount(reveal); i > 0; i--) draw();
    for (;;) {
      if (!cutSeen && next === cutIndex) {
        // the cut card before a round's first card: the shoe ends here
        out.push(this.frame('CUT', []));
        break;
      }
      if (cutSeen || cards.length - next < 6) break;
      let round = baccarat.newRound({ engine: false });
      for (;;) {
        const e = baccarat.expect(round);
        if (e.kind !== 'card') break;
        round = baccarat.place(round, draw());
      }
      out[out.length - 1].lastOfRound = true;
    }
    return out;
  }
}
