/**
 * The outcome of every game as a zod schema of its own (games.md; docs/GAMES.md has a settlement
 * table per game: bet -> the fields that settle it). Each field's description carries the rule
 * that computes it, so the AsyncAPI document (`npm run docs:api`) tells an engine what it may
 * settle from without reading the cards.
 *
 * The shapes follow what the game modules return (`outcome()` of each module in this folder,
 * `sicBoOutcome`, `kenoOutcome`); the gateway validates every result it publishes against them,
 * and test/unit/games/outcome-schemas.test.ts deals thousands of rounds of every game through
 * them, so a fact added to a module without being added here fails a test.
 */
import * as z from 'zod';

const d = <T extends z.ZodType>(schema: T, text: string): T => schema.describe(text);

const points = (who: string) => d(z.number().int().min(0).max(9), `${who}: the sum of the card points (A=1, 2-9 face value, T/J/Q/K=0) mod 10`);

// ------------------------------------------------------------------ baccarat and 7 Up

const baccaratFields = {
  winner: d(z.enum(['player', 'banker', 'tie']), 'the side with the higher total; `tie` on equal totals (Player and Banker bets push on a tie)'),
  playerTotal: points("the player's final total"),
  bankerTotal: points("the banker's final total"),
  natural: d(z.boolean(), "either side's first two cards total 8 or 9 (the deal ended there)"),
  playerNatural: d(z.boolean(), "the player's first two cards total 8 or 9"),
  bankerNatural: d(z.boolean(), "the banker's first two cards total 8 or 9"),
  playerPair: d(z.boolean(), "the player's first two cards have the same rank (K-K yes, K-Q no): the Player Pair bet"),
  bankerPair: d(z.boolean(), "the banker's first two cards have the same rank: the Banker Pair bet"),
  cardCount: d(z.number().int().min(4).max(6), 'cards in both hands together (4-6)'),
  size: d(z.enum(['small', 'big']), '`small` = 4 cards, `big` = 5 or 6 cards: the Small and Big bets'),
};

export const baccaratOutcomeSchema = z.object(baccaratFields).strict().describe('baccarat: the facts of a complete round');

export const sevenUpOutcomeSchema = z
  .object({
    ...baccaratFields,
    playerTotal: points("the player's final total, the fixed 7 counted"),
    playerNatural: d(z.boolean(), 'the fixed 7 and P2 total 8 or 9'),
    playerPair: d(z.boolean(), 'P2 is a 7 (the fixed 7 and the first shoe card of the player have the same rank): the Player Pair bet'),
    cardCount: d(z.number().int().min(4).max(6), 'cards in both hands together, the fixed 7 counted (4-6)'),
    winningTotal: points('the winner\'s total (the tied total on a tie): the "with a total of 7" Banker, Player and Tie bets'),
    sevens: d(z.number().int().min(1).max(6), "7s in the finished round, the player's fixed 7 included (1-6): the Super 7's bet pays by this count"),
    super7: d(z.boolean(), "`sevens >= 2`: the Super 7's bet wins"),
  })
  .strict()
  .describe("7 Up baccarat: the baccarat facts with the player's fixed 7 counted, plus the 7s");

// ------------------------------------------------------------------ Dragon Tiger

const suit = z.enum(['S', 'H', 'D', 'C']);
const color = z.enum(['red', 'black']);

export const dragonTigerOutcomeSchema = z
  .object({
    winner: d(z.enum(['dragon', 'tiger', 'tie']), 'the higher rank wins (K high ... A low); equal ranks tie whatever the suits'),
    dragonRank: d(z.number().int().min(1).max(13), "the Dragon card's rank, A=1 ... K=13"),
    tigerRank: d(z.number().int().min(1).max(13), "the Tiger card's rank, A=1 ... K=13"),
    suitedTie: d(z.boolean(), 'a tie in the same suit (with 8 decks: the same card)'),
    dragonSuit: d(suit, "the Dragon card's suit (S, H, D, C)"),
    tigerSuit: d(suit, "the Tiger card's suit (S, H, D, C)"),
    dragonColor: d(color, "the Dragon card's colour: hearts and diamonds `red`, spades and clubs `black`"),
    tigerColor: d(color, "the Tiger card's colour: hearts and diamonds `red`, spades and clubs `black`"),
  })
  .strict()
  .describe('Dragon Tiger: the facts of a complete round');

// ------------------------------------------------------------------ Pok Deng

const pokDengHandFields = {
  points: points("the hand's points"),
  pok: d(z.boolean(), 'two cards totalling 8 or 9'),
  pair: d(z.boolean(), 'the two cards have the same rank'),
  flush: d(z.boolean(), 'the two cards have the same suit'),
  deng: d(z.union([z.literal(1), z.literal(2)]), '2 for a pair or a flush, else 1'),
  special: d(
    z.literal(true).optional(),
    "only when the hand matches the table's `gameOptions.specialHands`: it counts between 7 and 8 points and earns the 2x multiplier like a pair or flush",
  ),
};

const pokDengPlayerSchema = z
  .object({
    ...pokDengHandFields,
    outcome: d(z.enum(['win', 'lose', 'tie']), 'this player against the banker, on points (pok beats any non-pok hand, equal points tie)'),
    multiplier: d(
      z.union([z.literal(0), z.literal(1), z.literal(2)]),
      'unsigned stake multiplier, the direction is in `outcome`: a player win with pair/flush/special -> 2, except against a banker on 0 or 6 points -> 1 unless the player has pok with pair/flush -> 2; a banker win with pair/flush/special -> 2; any other win or loss -> 1; a tie -> 0',
    ),
  })
  .strict()
  .describe('a player box: its hand and its settlement against the banker');

export const pokDengOutcomeSchema = z
  .object({
    positions: z
      .object({
        p1: pokDengPlayerSchema,
        p2: pokDengPlayerSchema.optional(),
        p3: pokDengPlayerSchema.optional(),
        p4: pokDengPlayerSchema.optional(),
        p5: pokDengPlayerSchema.optional(),
        banker: z.object(pokDengHandFields).strict().describe("the banker's hand"),
      })
      .strict()
      .describe('each player box dealt (`gameOptions.players`, 1-5) and the banker'),
  })
  .strict()
  .describe('Pok Deng: each player box against the banker');

// ------------------------------------------------------------------ 3 Pictures

const threeCardCategory = z.enum(['straight-flush', 'three-of-a-kind', 'straight', 'flush', 'pair', 'high-card']);
const fiveCardCategory = z.enum([
  'royal-flush',
  'straight-flush',
  'four-of-a-kind',
  'full-house',
  'flush',
  'straight',
  'three-of-a-kind',
  'two-pair',
  'pair',
  'high-card',
]);

const threePicturesHandFields = {
  rank: d(
    z.number().int().min(1).max(31),
    '1 (three pictures) ... 31 (plain 0): 1 = three J/Q/K; then for points 9 down to 0 Double Knights, Single Knight, Plain. Lower is better; the same rank ties',
  ),
  rankName: d(
    z.string().regex(/^(three-knights|(double-knights|single-knight|plain)-[0-9])$/),
    '`three-knights`, `double-knights-<points>`, `single-knight-<points>` or `plain-<points>`',
  ),
  points: points("the hand's points"),
  pictures: d(z.number().int().min(0).max(3), 'J, Q and K cards in the hand (a 10 is no picture)'),
  pairPlus: d(
    z.union([threeCardCategory.exclude(['high-card']), z.null()]),
    "the hand's 3-card poker category when pair or better, else null: the Pair Plus bet",
  ),
};

const threePicturesPlayerSchema = z
  .object({
    rank: threePicturesHandFields.rank,
    rankName: threePicturesHandFields.rankName,
    points: threePicturesHandFields.points,
    pictures: threePicturesHandFields.pictures,
    outcome: d(z.enum(['win', 'lose', 'tie']), 'this player against the banker by rank; `tie` = the same rank (the Tie bet wins, Win and Lose push)'),
    winWith6: d(
      z.boolean(),
      'whichever side won this comparison won with rank 11-13 (a 6: Double Knights 6, Single Knight 6, Plain 6): the Win or Lose bet pays half',
    ),
    threeKnights: d(z.boolean(), 'the player has three pictures (rank 1): the 3 Knights bet'),
    pairPlus: threePicturesHandFields.pairPlus,
  })
  .strict()
  .describe('a player hand and its comparison with the banker');

export const threePicturesOutcomeSchema = z
  .object({
    positions: z
      .object({
        p1: threePicturesPlayerSchema,
        p2: threePicturesPlayerSchema,
        p3: threePicturesPlayerSchema,
        banker: z.object(threePicturesHandFields).strict().describe("the banker's hand"),
      })
      .strict()
      .describe('the three player hands and the banker'),
  })
  .strict()
  .describe('3 Pictures: each player hand against the banker (after a `reverse-order` correction p1 and p3 are swapped)');

// ------------------------------------------------------------------ Three Card Poker

const pokerRanks = (what: string) =>
  d(
    z.array(z.number().int().min(2).max(14)).min(1).max(5),
    `${what}: each rank once, most significant first, A=14 (a straight by its top card, A-2-3 -> [3], the wheel -> [5])`,
  );

const threeCardHandSchema = z
  .object({
    category: d(threeCardCategory, '3-card category: straight-flush > three-of-a-kind > straight > flush > pair > high-card'),
    ranks: pokerRanks('the ranks that break ties'),
    miniRoyal: d(z.literal(true).optional(), 'only on A-K-Q suited (a straight flush)'),
  })
  .strict();

export const threeCardPokerOutcomeSchema = z
  .object({
    playerHand: threeCardHandSchema.describe("the player's three cards"),
    dealerHand: threeCardHandSchema.describe("the dealer's three cards"),
    dealerQualifies: d(z.boolean(), 'the dealer has Q-high or better: when false the Ante pays and the Play pushes'),
    winner: d(z.enum(['player', 'dealer', 'standoff']), 'the hand comparison, whether or not the dealer qualifies: Ante and Play when the dealer qualifies'),
    anteBonus: d(
      z.union([threeCardCategory.extract(['straight-flush', 'three-of-a-kind', 'straight']), z.null()]),
      "the player's category when straight or better, else null: the Ante Bonus (paid whatever the dealer has)",
    ),
    pairPlus: d(
      z.union([threeCardCategory.exclude(['high-card']), z.null()]),
      "the player's category when pair or better, else null: the Pair Plus bet (paid even on a fold)",
    ),
    sixCardBonus: d(
      z.union([fiveCardCategory.extract(['royal-flush', 'straight-flush', 'four-of-a-kind', 'full-house', 'flush', 'straight', 'three-of-a-kind']), z.null()]),
      "the best five of the six cards (player's and dealer's) when three of a kind or better, else null: the 6 Card Bonus",
    ),
  })
  .strict()
  .describe('Three Card Poker with 6 Card Bonus: the facts of a complete round');

// ------------------------------------------------------------------ Blackjack

const card = z.string().regex(/^[A2-9TJQK][SHDC]$/);
const perfectPairs = d(
  z.union([z.enum(['perfect', 'colored', 'mixed']), z.null()]),
  'the first two cards as a Perfect Pairs bet: `perfect` same rank and suit (25:1), `colored` same rank and colour (12:1), `mixed` same rank (6:1), null no pair',
);

const blackjackHandFields = {
  cards: d(z.array(card).min(1), "the hand's cards in dealing order"),
  total: d(z.number().int().min(1).max(31), 'the best total: A=1 or 11, T/J/Q/K=10 (an ace counts 11 while that does not bust)'),
  soft: d(z.boolean(), 'an ace counts 11 in `total`'),
  bust: d(z.boolean(), '`total` over 21'),
  blackjack: d(z.boolean(), 'an ace and a ten-value card as the first two cards, not after a split (pays 3:2)'),
};

const blackjackSeatSchema = z
  .object({
    ...blackjackHandFields,
    charlie: d(z.boolean(), '8 cards not over 21: wins unless the dealer has blackjack'),
    doubled: d(z.boolean(), 'the hand doubled (one card after it; the stake is doubled)'),
    split: d(z.boolean(), 'a hand of a split seat (`seatNa`/`seatNb`)'),
    folded: d(z.boolean(), 'the hand folded on A-A or 8-8 (surrender: 20% of the stake is kept, the rest returned); `outcome` is `lose`'),
    outcome: d(
      z.enum(['win', 'lose', 'push']),
      'folded or bust -> lose; blackjack -> push against a dealer blackjack, else win; dealer blackjack -> lose (a charlie too); charlie or dealer bust -> win; else the higher total wins, equal totals push',
    ),
    perfectPairs: d(
      perfectPairs,
      "the seat's first two cards as a Perfect Pairs bet (carried on both hands of a split seat and on a standing hand): `perfect` same rank and suit, `colored` same rank and colour, `mixed` same rank, null no pair",
    ),
  })
  .strict()
  .describe('a seat hand (`seatN`, after a split `seatNa`/`seatNb`, a standing hand of a shared seat `seatNs`) and its settlement against the dealer');

export const blackjackOutcomeSchema = z
  .object({
    positions: z
      .object({
        dealer: z
          .object({
            ...blackjackHandFields,
            blackjack: d(z.boolean(), "the dealer's first two cards are an ace and a ten-value card: the Insurance bet wins (2:1)"),
            perfectPairs: d(
              perfectPairs,
              "the dealer's first two cards as the dealer's Perfect Pairs bet: `perfect` same rank and suit, `colored` same rank and colour, `mixed` same rank, null no pair",
            ),
          })
          .strict()
          .describe("the dealer's hand"),
      })
      .catchall(blackjackSeatSchema)
      .describe(
        '`dealer` and every seat hand dealt, by position name: `seat1` ... `seat4`, `seatNa`/`seatNb` after a split, `seatNs` for the standing hand of a shared seat',
      ),
  })
  .strict()
  .describe('Blackjack: each seat hand against the dealer');

// ------------------------------------------------------------------ Hold'em

const pokerHandSchema = z
  .object({
    category: d(
      fiveCardCategory,
      '5-card category: royal-flush > straight-flush > four-of-a-kind > full-house > flush > straight > three-of-a-kind > two-pair > pair > high-card',
    ),
    ranks: pokerRanks('the ranks that break ties'),
  })
  .strict();

const holdemBonus = d(
  z.union([z.enum(['aa', 'ak-suited', 'aq-aj-suited', 'ak-offsuit', 'kk-qq-jj', 'aq-aj-offsuit', 'pair-2-10']), z.null()]),
  "the player's two hole cards as the Bonus bet: `aa`, `ak-suited`, `aq-aj-suited`, `ak-offsuit`, `kk-qq-jj`, `aq-aj-offsuit`, `pair-2-10`, or null (the bet loses)",
);

export const holdemOutcomeSchema = z
  .object({
    playerHand: d(z.union([pokerHandSchema, z.null()]), "the player's best five of seven cards (null after a fold)"),
    dealerHand: d(z.union([pokerHandSchema, z.null()]), "the dealer's best five of seven cards (null after a fold)"),
    winner: d(
      z.enum(['player', 'dealer', 'tie']),
      'the better five-card hand; `dealer` after a fold: the Ante and the Flop, Turn and River bets of the players who played',
    ),
    anteWins: d(z.boolean(), 'the player wins with a straight or better: the Ante pays (otherwise it pushes on a player win)'),
    bonus: holdemBonus,
    bonusDealerAA: d(z.boolean(), "the player and the dealer both hold A-A: the Bonus bet's A-A vs A-A payout"),
    folded: d(z.boolean(), "the position folded before the flop: no board, no hands, `winner: dealer` (the Bonus is forfeited, the engine's rule)"),
  })
  .strict()
  .describe("Texas Hold'em vs dealer: the facts of a complete round");

/** a Hold'em round voided after the player's hole cards: the Bonus bet stands */
export const holdemVoidOutcomeSchema = z
  .object({
    bonus: holdemBonus,
    bonusDealerAA: d(z.union([z.boolean(), z.null()]), "the player and the dealer both hold A-A; null when the dealer's hole cards were not dealt yet"),
  })
  .strict()
  .describe("Hold'em, a round void after the player's two hole cards: the Bonus bet stands and is paid normally");

// ------------------------------------------------------------------ Sic Bo

const face = z.number().int().min(1).max(6);
const faceCount = z.number().int().min(0).max(3);

export const sicBoOutcomeSchema = z
  .object({
    total: d(z.number().int().min(3).max(18), 'the sum of the three dice: the Total bets (4-17)'),
    size: d(z.union([z.enum(['small', 'big']), z.null()]), '`small` 4-10, `big` 11-17, null on any triple (Small and Big lose on a triple)'),
    triple: d(z.union([face, z.null()]), 'the face of a triple, else null: the Specific Triple bet (the face) and the Any Triple bet (not null)'),
    doubles: d(z.array(face).max(2), 'faces shown at least twice, ascending (a triple lists its face): the Specific Double bet'),
    combinations: d(z.array(z.tuple([face, face])).max(3), 'distinct face pairs shown, each ascending, sorted: the two-dice Combination bet'),
    faceCounts: z
      .object(
        Object.fromEntries([1, 2, 3, 4, 5, 6].map((f) => [String(f), faceCount.describe(`dice showing ${f} (0-3)`)])) as Record<
          '1' | '2' | '3' | '4' | '5' | '6',
          typeof faceCount
        >,
      )
      .strict()
      .describe('"1".."6" -> how many dice show that face (0-3): the Single Number bet pays 1:1, 2:1, 3:1 by this count'),
  })
  .strict()
  .describe('Sic Bo: the facts of a valid roll');

// ------------------------------------------------------------------ Keno

export const kenoOutcomeSchema = z
  .object({
    sum: d(z.number().int().min(210).max(1410), 'the sum of the 20 balls'),
    bigSmall: d(
      z.enum(['big', 'small', '810']),
      '`big` sum > 810, `small` sum < 810, `810` exactly (Big/Small bets and their odd/even combinations are returned)',
    ),
    sumOddEven: d(z.enum(['odd', 'even']), 'the last digit of the sum is odd or even (0 is even; no tie)'),
    oddEvenCount: d(z.enum(['odd', 'even', 'tie']), 'more than 10 of the balls odd -> `odd`, more than 10 even -> `even`, 10 each -> `tie`'),
    upDown: d(z.enum(['up', 'down', 'tie']), 'more than 10 balls in 1-40 -> `up`, more than 10 in 41-80 -> `down`, 10 each -> `tie`'),
    element: d(
      z.enum(['gold', 'wood', 'water', 'fire', 'earth']),
      'the five elements by the sum: `gold` 210-695, `wood` 696-763, `water` 764-855, `fire` 856-923, `earth` 924-1410',
    ),
  })
  .strict()
  .describe("Keno: the facts of a complete draw (the Pearl Ball bet settles from the result's `balls`)");

/** game id -> the schema of a complete (or corrected) round's outcome */
export const OUTCOME_SCHEMAS = {
  baccarat: baccaratOutcomeSchema,
  'seven-up-baccarat': sevenUpOutcomeSchema,
  'dragon-tiger': dragonTigerOutcomeSchema,
  'pok-deng': pokDengOutcomeSchema,
  'three-pictures': threePicturesOutcomeSchema,
  'three-card-poker': threeCardPokerOutcomeSchema,
  blackjack: blackjackOutcomeSchema,
  holdem: holdemOutcomeSchema,
  'sic-bo': sicBoOutcomeSchema,
  keno: kenoOutcomeSchema,
} as const satisfies Record<string, z.ZodType>;

export type OutcomeGameId = keyof typeof OUTCOME_SCHEMAS;
export type OutcomeOf<G extends OutcomeGameId> = z.infer<(typeof OUTCOME_SCHEMAS)[G]>;

/** game id -> what a void round's result still carries besides null (only Hold'em: the Bonus) */
export const VOID_OUTCOME_SCHEMAS: Partial<Record<OutcomeGameId, z.ZodType>> = { holdem: holdemVoidOutcomeSchema };
