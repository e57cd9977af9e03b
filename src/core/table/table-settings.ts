/** Resolves a table's config entry into the pure machine's settings (defaults from games.md). */
import type { TableConfig } from '../vocabulary/config-schema.js';
import { nonCardGame } from '../games/non-card-games.js';
import { cardGame } from '../games/registry.js';
import type { TableSettings } from './types.js';

/** games.md: the games whose shoe an exposed card voids, and whose unnecessary cards become burns */
const SHOE_VOID_ON_EXPOSED = new Set(['baccarat', 'seven-up-baccarat', 'dragon-tiger']);
const UNNECESSARY_BURNS = new Set(['baccarat', 'seven-up-baccarat', 'dragon-tiger', 'pok-deng']);

export function tableSettings(t: TableConfig): TableSettings {
  const nonCard = nonCardGame(t.game);
  if (nonCard) {
    const base = {
      tableId: t.id,
      gameId: t.game,
      engine: t.betting === 'engine',
      devices: t.devices.map((d) => ({ id: d.id, kind: d.kind })),
      gameOptions: t.gameOptions,
      correctionWindowRounds: t.correctionWindowRounds,
      repeatTimeoutMs: t.repeatTimeoutMs,
    };
    return nonCard.table === 'sic-bo' ? { kind: 'sic-bo', ...base, minBounces: t.minBounces } : { kind: 'keno', ...base };
  }
  const game = cardGame(t.game);
  if (!game) throw new Error(`unknown game ${t.game}`);
  return {
    kind: 'card',
    tableId: t.id,
    gameId: t.game,
    game,
    decks: t.decks ?? game.defaults.decks,
    engine: t.betting === 'engine',
    burnPerRound: t.burnPerRound ?? game.defaults.burnPerRound,
    burnFaceDown: game.defaults.burnFaceDown,
    rescanRetries: t.rescanRetries,
    rescanIntervalMs: t.rescanIntervalMs,
    rescanTimeoutMs: t.rescanTimeoutMs,
    repeatTimeoutMs: t.repeatTimeoutMs,
    expectedDeckSize: t.expectedDeckSize ?? 52 * (t.decks ?? game.defaults.decks),
    exposedCardVoidsShoe: t.exposedCardVoidsShoe ?? SHOE_VOID_ON_EXPOSED.has(t.game),
    unnecessaryCardRule: t.unnecessaryCardRule ?? (UNNECESSARY_BURNS.has(t.game) ? 'burn-then-void-shoe' : 'alert'),
    cutBeforeFirstCardIsLastRound: t.game === 'pok-deng',
    correctionWindowRounds: t.correctionWindowRounds,
    devices: t.devices.map((d) => ({ id: d.id, kind: d.kind })),
    gameOptions: t.gameOptions,
  };
}
