/**
 * Every `tablegw` command answers `--help` with its usage and exit code 0; `tail` formats a
 * technician's lines from the messages.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/app/cli/commands/index.js';
import { formatMessage } from '../../../src/app/cli/commands/tail.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/app/cli/main.ts'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });

describe('tablegw --help', () => {
  const commands = ['start', 'check-config', ...Object.keys(COMMANDS)];

  it('lists every command', () => {
    const r = cli('--help');
    expect(r.status).toBe(0);
    for (const c of commands) expect(r.stdout).toContain(c);
  });

  it.each(commands)('%s --help prints its usage and exits 0', (c) => {
    const r = cli(c, '--help');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Usage: tablegw ${c}\\b`));
  });

  it('has tail among the commands', () => {
    expect(Object.keys(COMMANDS)).toContain('tail');
  });
});

describe('tail formatting', () => {
  const env = { v: 1, table: 'bac-01', game: 'baccarat', seq: 42, ts: '2026-11-30T12:00:01.250Z', shoeId: 'bac-01-s0001', roundId: 'bac-01-s0001-r0003' };
  const fmt = (p: Record<string, unknown>, color = false) => formatMessage(`casino/bac-01/x`, { ...env, ...p }, { color });

  it('prints cards, face-down cards, results and alerts', () => {
    expect(fmt({ type: 'event', kind: 'card', role: 'player', card: 'TH', faceDown: false, cardNo: 9 })).toBe(
      '12:00:01.250 bac-01 #42 CARD    10♥ -> player  #9 bac-01-s0001-r0003',
    );
    expect(fmt({ type: 'event', kind: 'card', role: 'p1', card: null, faceDown: true, cardNo: 10 })).toContain('?? -> p1 (face down)');
    expect(
      fmt({
        type: 'result',
        status: 'complete',
        cards: { player: ['9H', '9C'], banker: ['KD', '2S'], burn: [] },
        outcome: { winner: 'player', playerTotal: 8, bankerTotal: 2 },
      }),
    ).toBe('12:00:01.250 bac-01 #42 RESULT  bac-01-s0001-r0003: player 9♥ 9♣ | banker K♦ 2♠ -> PLAYER 8-2');
    expect(fmt({ type: 'result', status: 'void', reason: 'exposed-card', detail: '7D exposed during betting', cards: {}, outcome: null })).toContain(
      'VOID    bac-01-s0001-r0003: exposed-card',
    );
    expect(fmt({ type: 'alert', kind: 'foreign-card', severity: 'critical', detail: 'AS seen 9 times' })).toContain('CRITICAL foreign-card: AS seen 9 times');
    expect(fmt({ type: 'round', phase: 'complete', cards: {} })).toBeNull();
  });

  it('colours by severity only when asked', () => {
    const line = fmt({ type: 'alert', kind: 'foreign-card', severity: 'critical', detail: 'x' }, true)!;
    expect(line).toContain('\x1b[31m');
    expect(fmt({ type: 'alert', kind: 'misread', severity: 'info', detail: 'x' }, false)).not.toContain('\x1b[');
  });
});
