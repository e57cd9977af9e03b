/** Card codings of the learner: a preset that reads every code as its known card, else an explicit table. */
import { cardDecoder, type CardCodeOptions } from '../../../../drivers/profiles/card-codes.js';
import { cardSpellings } from '../../../../drivers/profiles/profile-encoder.js';

export const CARD_PRESETS: CardCodeOptions[] = [
  { preset: 'rank-suit' },
  { preset: 'suit-rank' },
  { preset: 'suit_rank' },
  { preset: 'four-digit' },
  ...permutations(['S', 'H', 'D', 'C'] as const).map((suitOrder) => ({ preset: 'index52' as const, suitOrder: [...suitOrder] })),
];

export function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

export const presetName = (o: CardCodeOptions): string => (o.preset === 'index52' ? `index52 (suits ${o.suitOrder?.join('')})` : o.preset);

/** does preset `b` read some spelling of preset `a` as another card */
export function presetsDisagree(a: CardCodeOptions, b: CardCodeOptions): boolean {
  const db = cardDecoder(b);
  for (const r of 'A23456789TJQK') for (const s of 'SHDC') for (const sp of cardSpellings(r + s, a)) if (db(sp) !== r + s) return true;
  return false;
}

/** the card coding that reads every code as its aligned card: a preset, else an explicit table (all 52 needed) */
export function solveCards(codes: string[], cards: string[]): { cards?: CardCodeOptions; alternatives: string[]; problem?: string; note: string } {
  const fits = CARD_PRESETS.filter((o) => {
    const d = cardDecoder(o);
    return codes.every((c, k) => d(c) === cards[k]);
  });
  if (fits.length > 0) {
    const alternatives = fits
      .slice(1)
      .filter((o) => presetsDisagree(fits[0], o))
      .map(presetName);
    return { cards: fits[0], alternatives, note: `card codes: preset ${presetName(fits[0])}, from ${codes.length} cards` };
  }
  // a preset that reads nearly every code: the script, not the coding, is wrong where they disagree
  for (const o of CARD_PRESETS) {
    const d = cardDecoder(o);
    const wrong = codes.map((c, k) => ({ c, k, got: d(c) })).filter((x) => x.got !== cards[x.k]);
    if (wrong.length > 0 && wrong.length <= Math.max(2, codes.length / 10)) {
      const w = wrong[0];
      return {
        alternatives: [],
        problem: `the script does not match the deal: card ${w.k + 1} of the script is ${cards[w.k]}, the device sent ${JSON.stringify(w.c)} (${w.got ?? 'no card'} in ${presetName(o)}, which reads the other ${codes.length - wrong.length} codes as the script says)`,
        note: '',
      };
    }
  }
  // codes a preset reads as cards, only not as the script's: the deal is not the script's
  for (const o of CARD_PRESETS.slice(0, 4)) {
    const d = cardDecoder(o);
    if (codes.every((c) => d(c) !== null)) {
      const k = codes.findIndex((c, i) => d(c) !== cards[i]);
      return {
        alternatives: [],
        problem: `the script does not match the deal: the device's codes read as ${presetName(o)} cards, and card ${k + 1} came as ${JSON.stringify(codes[k])} (${d(codes[k])}) where the script says ${cards[k]}`,
        note: '',
      };
    }
  }
  const table = new Map<string, string>();
  const back = new Map<string, string>();
  for (let k = 0; k < codes.length; k++) {
    if ((table.get(codes[k]) ?? cards[k]) !== cards[k])
      return { alternatives: [], problem: `the code ${JSON.stringify(codes[k])} stands for ${table.get(codes[k])} and for ${cards[k]}`, note: '' };
    if ((back.get(cards[k]) ?? codes[k]) !== codes[k])
      return { alternatives: [], problem: `${cards[k]} came as ${JSON.stringify(back.get(cards[k]))} and as ${JSON.stringify(codes[k])}`, note: '' };
    table.set(codes[k], cards[k]);
    back.set(cards[k], codes[k]);
  }
  if (table.size < 52)
    return {
      alternatives: [],
      problem: `deal more cards: the card codes fit no preset, and an explicit table needs all 52 cards (${table.size} seen)`,
      note: '',
    };
  const sorted = Object.fromEntries(
    [...table.entries()].sort((x, y) => (/^\d+$/.test(x[0]) && /^\d+$/.test(y[0]) ? Number(x[0]) - Number(y[0]) : x[0] < y[0] ? -1 : 1)),
  );
  return { cards: { preset: 'table', table: sorted }, alternatives: [], note: `card codes: an explicit table of 52, solved from ${codes.length} known cards` };
}
