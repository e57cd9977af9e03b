/**
 * The pit's screen in headless Chromium (Debian's /usr/bin/chromium through playwright-core), as a
 * pit boss uses it: a running gateway with the demo's 10 simulated tables plus one baccarat table
 * whose shoe is a real serial line (a socat pty) dealing a scripted shoe. The test checks
 *  - the big road of the scripted shoe, cell by cell, against a grid worked out by hand (and the
 *    roads started again at the new shoe);
 *  - the recall: the last 10 rounds in order after more than 12, on the table page and its API;
 *  - a held table (a frame gap mid-round), its shoe then in fault, still shows its recall, without
 *    the round in progress;
 *  - one clock: 24-hour times, the time zone shown once; scores by name; no pill at 0;
 *  - the floor: at 1920x1080 all 11 tables on the screen and the cards filling it, at 1280x720 a
 *    scroll cue while tables are below the fold;
 *  - no console error and no page error.
 * Screenshots at both sizes go to test-artifacts/ (gitignored).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import type { Recall } from '../../src/adapters/http/recall.js';
import { CHROMIUM, haveChromium, openHeadlessPage, type HeadlessPage } from '../helpers/chromium.js';
import { createPtyPair, type PtyPair } from '../../dev/rig/pty-pair.js';
import { hasCommand } from '../../dev/rig/commands.js';
import { requireRealIo } from '../helpers/real-io.js';
import { ReferenceShoe } from '../helpers/reference-shoe.js';
import { cleanupTempDirs, makeTempDir } from '../../dev/rig/temp-dir.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ARTIFACTS = join(ROOT, 'test-artifacts');
const available = haveChromium && hasCommand('socat');
if (!available) {
  const reason = `${CHROMIUM} or socat is missing (apt-get install -y chromium socat)`;
  if (requireRealIo) throw new Error(`REQUIRE_REAL_IO=1 but ${reason}`);
  console.warn(`[pit-screen] skipping the browser test: ${reason}`);
}

const TABLE = 'pit-bac';
// the worked shoe of test/unit/games/roads.test.ts: 23 rounds, one tie
const SHOE = 'BBB PP T B PPPPPPP BBBBBBB PP'.replace(/\s+/g, '');
// its big road, worked out by hand (col 3: seven P, the seventh turning right along the bottom;
// col 4: seven B, down to row 4 above the P tail, then right along row 4)
const BIG_ROAD = ['BPBPBP.', 'BP.PBP.', 'B..PB..', '...PB..', '...PBBB', '...PP..'];

/** cards for scripted rounds: two-card naturals decide every round (P1 B1 P2 B2), no card used more than 8 decks hold */
class ScriptedCards {
  private readonly left = new Map<string, number>();
  private suit = 0;
  constructor() {
    for (const r of 'A23456789TJQK') this.left.set(r, 32);
  }
  private take(rank: string): string {
    const n = this.left.get(rank)!;
    if (n <= 0) throw new Error(`no ${rank} left`);
    this.left.set(rank, n - 1);
    return `${rank}${'SHDC'[this.suit++ % 4]}`;
  }
  /** two cards of the given baccarat total (0-9), varied ranks */
  private pair(total: number, k: number): [string, string] {
    const value = (r: string) => ('TJQK'.includes(r) ? 0 : r === 'A' ? 1 : Number(r));
    const ranks = [...'A23456789TJQK'];
    for (let i = 0; i < ranks.length; i++) {
      const a = ranks[(i + k) % ranks.length];
      const b = ranks.find((r, j) => (value(a) + value(r)) % 10 === total && (this.left.get(r) ?? 0) > (r === a ? 1 : 0) && j >= 0);
      if (b && (this.left.get(a) ?? 0) > 0) return [this.take(a), this.take(b)];
    }
    throw new Error(`no pair for ${total}`);
  }
  /** the four cards of a round the given side wins (B banker, P player, T tie) in dealing order */
  round(w: string, k: number): string[] {
    const [p, b] =
      w === 'P'
        ? [this.pair(9, k), this.pair(k % 8, k + 3)]
        : w === 'B'
          ? [this.pair(k % 8, k + 5), this.pair(9, k + 1)]
          : [this.pair(8, k), this.pair(8, k + 7)];
    return [p[0], b[0], p[1], b[1]];
  }
}

describe.skipIf(!available)("the pit's screen in headless Chromium", () => {
  let gw: Gateway;
  let chrome: HeadlessPage;
  let page: Page;
  let pty: PtyPair;
  let shoe: ReferenceShoe;
  let base: string;

  const api = async <T>(path: string): Promise<{ status: number; body: T }> => {
    const r = await fetch(`${base}${path}`);
    return { status: r.status, body: (await r.json()) as T };
  };
  type State = {
    tables: Array<{ table: string; retained: Record<string, any>; results: Array<{ roundId: string; status: string; seq: number; shoeId: string }> }>;
  };
  const tableState = async () => (await api<State>('/api/state')).body.tables.find((t) => t.table === TABLE)!;
  const open = async (hash: string) => {
    await page.evaluate((h) => {
      location.hash = h;
    }, hash);
    await expect.poll(() => page.evaluate(() => document.body.className), { timeout: 10_000 }).toContain(hash ? 'view-table' : 'view-floor');
  };

  beforeAll(async () => {
    pty = await createPtyPair();
    shoe = new ReferenceShoe(pty);
    const demo = parseYaml(readFileSync(join(ROOT, 'config', 'default.yaml'), 'utf8')) as { tables: Array<Record<string, any>> };
    for (const t of demo.tables) {
      for (const d of t.devices) {
        if (d.transport?.type === 'simulator') Object.assign(d.transport, { seed: `pit:${t.id}`, cardIntervalMs: 40, roundIntervalMs: 150 });
      }
    }
    const cfg = validateConfig({
      mqtt: { url: 'embedded', protocolVersion: 4 },
      embeddedBroker: { port: 0 },
      http: { host: '127.0.0.1', port: 0 },
      journal: { synchronous: 'normal' },
      dataDir: await makeTempDir('teg-pit-'),
      tables: [
        {
          id: TABLE,
          game: 'baccarat',
          decks: 8,
          devices: [{ id: 'shoe-1', kind: 'card-shoe', staleAfterMs: 0, transport: { type: 'serial', path: pty.gatewayPath } }],
        },
        ...demo.tables,
      ],
    });
    gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger, summaryIntervalMs: 0 });
    base = gw.observability.httpUrl!;
    chrome = await openHeadlessPage(`${base}/`, { width: 1920, height: 1080 });
    page = chrome.page;
  }, 60_000);

  afterAll(async () => {
    await chrome?.close();
    await gw?.stop();
    await pty?.dispose();
    await cleanupTempDirs();
  });

  it('deals a scripted shoe after two rounds of the old one; the roads start again and the big road matches the hand-worked grid cell by cell', async () => {
    const cards = new ScriptedCards();
    // two rounds of the shoe the gateway assumed at start (a player and a banker win)
    for (const [i, w] of ['P', 'B'].entries()) await shoe.cards(...cards.round(w, i));
    await expect.poll(async () => (await tableState()).results.length, { timeout: 20_000 }).toBe(2);
    // a new shoe: loaded, the reveal (an ace: one burn) and its burn
    await shoe.send('STATE', 'LOADED');
    await shoe.cards('AD', '7C');
    for (const [i, w] of [...SHOE].entries()) await shoe.cards(...cards.round(w, i + 2));
    await expect.poll(async () => (await tableState()).results.length, { timeout: 30_000 }).toBe(25);
    const st = await tableState();
    const shoeResults = st.results.filter((r) => r.shoeId === st.retained.shoe.shoeId);
    expect(shoeResults.map((r) => r.status)).toEqual(Array(23).fill('complete'));

    await open(`#/table/${TABLE}`);
    const sec = page.locator(`section.table[data-table="${TABLE}"]`);
    await expect.poll(() => sec.locator('.roads-box .road.big .cell[data-winner]').count(), { timeout: 10_000 }).toBe(22);
    const cells = await sec.locator('.roads-box .road.big .cell[data-winner]').evaluateAll((els) =>
      els.map((e) => {
        const d = (e as HTMLElement).dataset;
        return { col: Number(d.col), row: Number(d.row), winner: d.winner!, ties: Number(d.ties) };
      }),
    );
    const grid = Array.from({ length: 6 }, () => Array.from({ length: 7 }, () => '.'));
    for (const c of cells) {
      expect(grid[c.row][c.col], `cell ${c.col},${c.row} drawn twice`).toBe('.');
      grid[c.row][c.col] = c.winner === 'banker' ? 'B' : 'P';
    }
    expect(grid.map((r) => r.join(''))).toEqual(BIG_ROAD);
    // the one tie is marked on the cell before it (col 1, row 1)
    expect(cells.filter((c) => c.ties > 0)).toEqual([{ col: 1, row: 1, winner: 'player', ties: 1 }]);
    // the cells are where the grid says on screen too: same column -> same x, next row -> lower
    const boxes = await sec.locator('.roads-box .road.big .cell[data-winner]').evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { col: Number((e as HTMLElement).dataset.col), row: Number((e as HTMLElement).dataset.row), x: Math.round(r.left), y: Math.round(r.top) };
      }),
    );
    for (const a of boxes) {
      for (const b of boxes) {
        if (a.col === b.col) expect(a.x).toBe(b.x);
        if (a.row === b.row) expect(a.y).toBe(b.y);
        if (a.col < b.col) expect(a.x).toBeLessThan(b.x);
        if (a.row < b.row) expect(a.y).toBeLessThan(b.y);
      }
    }
    // the bead plate: the 23 rounds of this shoe only (the two of the old shoe are gone), ties too
    const beads = await sec.locator('.roads-box .road.bead-plate .cell[data-round]').evaluateAll((els) => els.map((e) => e.textContent));
    expect(beads.join('')).toBe(SHOE);
    // every cell of the roads is drawn inside its road's frame (none clipped away)
    const clipped = await sec.locator('.roads-box .road').evaluateAll((roads) =>
      roads.flatMap((road) => {
        const r = road.getBoundingClientRect();
        return [...road.querySelectorAll('.cell')]
          .filter((c) => {
            const b = c.getBoundingClientRect();
            return b.top < r.top || b.bottom > r.bottom + 0.5 || b.left < r.left || b.right > r.right + 0.5;
          })
          .map((c) => `${road.className} ${(c as HTMLElement).dataset.col},${(c as HTMLElement).dataset.row}`);
      }),
    );
    expect(clipped).toEqual([]);
    // the derived roads are drawn (their marks are checked in test/unit/games/roads.test.ts)
    expect(await sec.locator('.roads-box .road.eye .cell[data-colour]').count()).toBe(18);
    expect(await sec.locator('.roads-box .road.small .cell[data-colour]').count()).toBe(16);
    expect(await sec.locator('.roads-box .road.pig .cell[data-colour]').count()).toBe(15);
    // the floor card shows the same big road, its newest column whole at the right (older ones may be cut at the left)
    await open('');
    const card = page.locator(`.tcard[data-table="${TABLE}"]`);
    expect(await card.locator('.road.big .cell[data-winner]').count()).toBe(22);
    const edge = await card
      .locator('.rw')
      .first()
      .evaluate((w) => {
        const box = w.getBoundingClientRect();
        const cells = [...w.querySelectorAll('.road.big .cell[data-winner]')].map((c) => c.getBoundingClientRect());
        return { right: box.right, newest: Math.max(...cells.map((c) => c.right)) };
      });
    expect(edge.newest).toBeLessThanOrEqual(edge.right + 0.5);
  }, 90_000);

  it('recalls the last 10 rounds in the order played, on the table page and at /api/tables/<id>/recall', async () => {
    const st = await tableState();
    const last10 = st.results.slice(-10).map((r) => r.roundId);
    const { status, body } = await api<Recall>(`/api/tables/${TABLE}/recall`);
    expect(status).toBe(200);
    expect(body.recall.map((r) => r.roundId)).toEqual(last10);
    await open(`#/table/${TABLE}`);
    const sec = page.locator(`section.table[data-table="${TABLE}"]`);
    await expect
      .poll(() => sec.locator('table.recall tr[data-round]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.round)), { timeout: 10_000 })
      .toEqual(last10);
    const rows = sec.locator('table.recall tr[data-round]');
    // each row: its cards by position, a 24-hour time, the result by name
    const last = rows.last();
    expect(await last.locator('td.no').textContent()).toBe('last');
    expect(await last.locator('.pc[data-position="player"] .card').count()).toBe(2);
    expect(await last.locator('.pc[data-position="banker"] .card').count()).toBe(2);
    expect(await last.locator('td.when').textContent()).toMatch(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/);
    // the last round of the script is a player win: player 9 (natural)
    expect(await last.locator('.outcome-text').textContent()).toMatch(/^player wins, banker \d - player 9$/);
    const unknown = await api<{ error: { code: string } }>('/api/tables/nope-01/recall');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('unknown-table');
  }, 30_000);

  it('a held table (a frame gap in a round), its shoe then in fault, still shows its recall, without the round in progress', async () => {
    const before = (await tableState()).results.slice(-10).map((r) => r.roundId);
    await shoe.cards('4S');
    shoe.seq += 2; // two frames lost on the line: no REPEAT on this shoe, the round is held
    await shoe.cards('5S');
    await expect.poll(async () => (await tableState()).retained.round?.phase, { timeout: 15_000 }).toBe('held');
    const held = (await tableState()).retained.round.roundId as string;
    const { body } = await api<Recall>(`/api/tables/${TABLE}/recall`);
    expect(body.recall.map((r) => r.roundId)).toEqual(before);
    expect(body.recall.map((r) => r.roundId)).not.toContain(held);
    // a pit boss opening the page now
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.body.dataset.ready), { timeout: 15_000 }).toBe('1');
    await open(`#/table/${TABLE}`);
    const sec = page.locator(`section.table[data-table="${TABLE}"]`);
    await expect.poll(() => sec.locator('.round .phase').textContent(), { timeout: 10_000 }).toBe('held');
    await expect
      .poll(() => sec.locator('table.recall tr[data-round]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.round)), { timeout: 10_000 })
      .toEqual(before);
    // and its shoe in fault as well: the recall answers the same
    await shoe.send('ERR', 'JAM', 'card jam');
    await expect.poll(async () => (await tableState()).retained['devices/shoe-1']?.state, { timeout: 15_000 }).toBe('fault');
    expect((await api<Recall>(`/api/tables/${TABLE}/recall`)).body.recall.map((r) => r.roundId)).toEqual(before);
    await expect.poll(() => sec.locator('li.dev[data-device="shoe-1"] .state').textContent(), { timeout: 10_000 }).toBe('fault');
    expect(await sec.locator('table.recall tr[data-round]').count()).toBe(10);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'pit-table-1920x1080.png'), fullPage: false });
  }, 40_000);

  it("one clock: 24-hour times in the gateway's time zone, named once; scores by name; no pill at 0", async () => {
    await open('');
    expect(await page.locator('#clock').textContent()).toMatch(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/);
    const zone = await page.locator('#tz').textContent();
    expect(zone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(await page.evaluate((z) => document.body.innerText.split(z!).length - 1, zone)).toBe(1);
    expect(await page.evaluate(() => /\b(AM|PM)\b/.test(document.body.innerText))).toBe(false);
    // every pill counts something
    for (const t of await page.locator('.chip').allTextContents()) expect(t).toMatch(/^[CWI] [1-9]\d*$/);
    // baccarat scores say whose number is whose
    for (const id of [TABLE, 'sim-bac-01']) {
      await expect
        .poll(() => page.locator(`.tcard[data-table="${id}"] .last-result`).textContent(), { timeout: 20_000 })
        .toMatch(/^(banker wins|player wins|tie), banker \d - player \d$/);
    }
  }, 40_000);

  it('a history that means something per game, and no shoe row where there is no shoe', async () => {
    // blackjack: per seat W / L / P / BJ; sic bo: dice and big / small / triple; keno: the draw
    await expect.poll(() => page.locator('.tcard[data-table="sim-bj-01"] table.ph td i').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    for (const t of await page.locator('.tcard[data-table="sim-bj-01"] table.ph td i').allTextContents())
      expect(['W', 'L', 'P', 'BJ', '\u00d7', '\u00b7']).toContain(t);
    expect(await page.locator('.tcard[data-table="sim-bj-01"] table.ph tr[data-position^="seat"]').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.tcard[data-table="sim-sicbo-01"] .roll .tag').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    for (const t of await page.locator('.tcard[data-table="sim-sicbo-01"] .roll .tag').allTextContents()) expect(t).toMatch(/^(big|small|triple [1-6]|void)$/);
    await expect.poll(() => page.locator('.tcard[data-table="sim-keno-01"] .draw .ball').count(), { timeout: 90_000 }).toBeGreaterThan(0);
    for (const id of ['sim-sicbo-01', 'sim-keno-01']) {
      expect(await page.locator(`.tcard[data-table="${id}"] .line .k`).allTextContents()).not.toContain('shoe');
    }
    expect(await page.locator('.tcard[data-table="sim-bj-01"] .line .k').allTextContents()).toContain('shoe');
    // their table pages: the same history, longer; no shoe box on sic bo and keno
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const id of ['sim-bj-01', 'sim-sicbo-01', 'sim-keno-01']) {
      await open(`#/table/${id}`);
      const sec = page.locator(`section.table[data-table="${id}"]`);
      expect(await sec.locator('.hist-box').count()).toBe(1);
      expect(await sec.locator('.shoe-box').count()).toBe(id === 'sim-bj-01' ? 1 : 0);
      await page.screenshot({ path: join(ARTIFACTS, `pit-table-${id}-1920x1080.png`) });
    }
    await open('');
  }, 120_000);

  it('the floor uses the 1920x1080 screen: every table on it, the cards filling it', async () => {
    await open('');
    const ids = await page.locator('.tcard').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.table));
    expect(ids.length).toBe(11);
    const view = await page.evaluate(() => ({ h: document.documentElement.scrollHeight, w: document.documentElement.scrollWidth }));
    expect(view.h).toBeLessThanOrEqual(1080);
    expect(view.w).toBeLessThanOrEqual(1920);
    const legend = (await page.locator('#legend').boundingBox())!;
    const boxes = await page.locator('.tcard').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
    for (const b of boxes) expect(b.bottom).toBeLessThanOrEqual(legend.y + 1);
    // the lowest card ends near the legend: the screen is used, not half empty
    expect(Math.max(...boxes.map((b) => b.bottom))).toBeGreaterThan(legend.y - 30);
    // six cards a row at 1920 wide: three rows of them (18 tables) fit one screen at the cards' least height
    expect(new Set(boxes.map((b) => Math.round(b.left))).size).toBe(6);
    expect(await page.locator('#more').isVisible()).toBe(false);
    mkdirSync(ARTIFACTS, { recursive: true });
    const png = await page.screenshot({ path: join(ARTIFACTS, 'pit-floor-1920x1080.png'), fullPage: true });
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1920, 1080]);
  }, 30_000);

  it('at 1280x720 the floor shows a scroll cue while tables are below the fold', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await open('');
    await expect.poll(() => page.locator('#more').isVisible(), { timeout: 5_000 }).toBe(true);
    expect(await page.locator('#more').textContent()).toMatch(/^\u25bc \d+ more tables? below/);
    await page.screenshot({ path: join(ARTIFACTS, 'pit-floor-1280x720.png') });
    // scrolled to the end: every card reachable, the cue gone
    await page.evaluate(() => {
      const f = document.getElementById('floor')!;
      f.scrollTop = f.scrollHeight;
    });
    await expect.poll(() => page.locator('#more').isVisible(), { timeout: 5_000 }).toBe(false);
    const floor = (await page.locator('#floor').boundingBox())!;
    const lastCard = (await page.locator('.tcard').last().boundingBox())!;
    expect(lastCard.y + lastCard.height).toBeLessThanOrEqual(floor.y + floor.height + 1);
    await open(`#/table/${TABLE}`);
    await page.screenshot({ path: join(ARTIFACTS, 'pit-table-1280x720.png') });
  }, 30_000);

  it('raised no console error and no page error', () => {
    expect(chrome.consoleErrors).toEqual([]);
    expect(chrome.pageErrors).toEqual([]);
  });
});
