/**
 * The status page end to end in headless Chromium (Debian's /usr/bin/chromium, driven by
 * playwright-core): a gateway with a simulated baccarat table dealing a shoe in fast mode and a
 * slower Pok Deng table (its cards are dealt face down) on the embedded broker; the page must show
 * the tables, their devices, the shoe's rounds on the bead plate and face-down cards as card backs.
 * A screenshot goes to test-artifacts/status-page.png.
 * Skipped with a printed reason without Chromium, unless REQUIRE_REAL_IO=1 (then it fails).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { cardGame } from '../../src/core/games/registry.js';
import { silentLogger } from '../../src/runtime/log.js';
import { CHROMIUM, haveChromium, openHeadlessPage, type HeadlessPage } from '../helpers/chromium.js';
import { createPtyPair, type PtyPair } from '../../dev/rig/pty-pair.js';
import { hasCommand } from '../../dev/rig/commands.js';
import { requireRealIo } from '../helpers/real-io.js';
import { cleanupTempDirs, makeTempDir } from '../../dev/rig/temp-dir.js';

const ROOT = join(import.meta.dirname, '..', '..');
if (!haveChromium) {
  const reason = `${CHROMIUM} is missing (install with: apt-get install -y chromium)`;
  if (requireRealIo) throw new Error(`REQUIRE_REAL_IO=1 but ${reason}`);
  console.warn(`[status-page] skipping the browser test: ${reason}`);
}
const faceDownGame = cardGame('pok-deng') ? 'pok-deng' : null;

describe.skipIf(!haveChromium)('status page in headless Chromium', () => {
  let gw: Gateway;
  let chrome: HeadlessPage;
  let page: Page;
  /** a serial shoe on a pty that will send only garbage (needs socat) */
  let rejecting: PtyPair | undefined;

  beforeAll(async () => {
    const dataDir = await makeTempDir('teg-page-');
    if (hasCommand('socat')) rejecting = await createPtyPair();
    const tables: unknown[] = [
      {
        id: 'page-bac',
        game: 'baccarat',
        decks: 8,
        // its one shoe is dealt at full speed and then the shoe is quiet: not stale 3 s later, since
        // a loaded machine may take longer than that to load the page
        devices: [
          {
            id: 'shoe-1',
            kind: 'card-shoe',
            staleAfterMs: 600_000,
            transport: { type: 'simulator', seed: 'page', cardIntervalMs: 0, roundIntervalMs: 0, faults: { misreadRate: 0.03, garbageRate: 0.02 } },
          },
        ],
      },
    ];
    if (faceDownGame) {
      tables.push({
        id: 'page-pok',
        game: faceDownGame,
        devices: [{ id: 'shoe-2', kind: 'card-shoe', transport: { type: 'simulator', seed: 'page-pok', cardIntervalMs: 150, roundIntervalMs: 300 } }],
      });
    }
    if (rejecting) {
      tables.push({
        id: 'page-rej',
        game: 'baccarat',
        devices: [{ id: 'shoe-9', kind: 'card-shoe', staleAfterMs: 0, transport: { type: 'serial', path: rejecting.gatewayPath } }],
      });
    }
    const cfg = validateConfig({
      mqtt: { url: 'embedded', protocolVersion: 4 },
      // port 0 (broker and page): the system picks a free one when the server listens (a port picked before can be taken by then)
      embeddedBroker: { port: 0 },
      http: { host: '127.0.0.1', port: 0 },
      journal: { synchronous: 'normal' },
      dataDir,
      tables,
    });
    gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger, simulatorShoes: 1 });
    chrome = await openHeadlessPage(`${gw.observability.httpUrl}/`, { width: 1280, height: 1000 });
    page = chrome.page;
  }, 60_000);

  afterAll(async () => {
    await chrome?.close();
    await gw?.stop();
    await rejecting?.dispose();
    await cleanupTempDirs();
  });

  it('shows the table, its device and its link', async () => {
    const bac = page.locator('section.table[data-table="page-bac"]');
    await expect.poll(() => bac.locator('.tid').textContent(), { timeout: 15_000 }).toBe('page-bac');
    await expect.poll(() => bac.locator('li.dev[data-device="shoe-1"] .state').textContent(), { timeout: 15_000 }).toBe('connected');
    await expect.poll(() => bac.locator('.badge.link').textContent(), { timeout: 15_000 }).toBe('online');
    expect(await page.locator('#conn').textContent()).toBe('live');
  });

  it("shows the shoe's results on the bead plate, as the gateway published them", async () => {
    const bac = page.locator('section.table[data-table="page-bac"]');
    type Results = Array<{ roundId: string; shoeId?: string; status: string; outcome: { winner?: string } | null }>;
    const published = async () => {
      const state = (await (await fetch(`${gw.observability.httpUrl}/api/state`)).json()) as {
        tables: Array<{ table: string; retained: Record<string, { state?: string }>; results: Results }>;
      };
      return state.tables.find((t) => t.table === 'page-bac')!;
    };
    // the simulated shoe (fast mode) deals to its end: cut card, last round, shoe closed
    await expect.poll(async () => (await published()).retained.shoe?.state, { timeout: 40_000 }).toBe('closed');
    const state = await published();
    // the bead plate: every round of the shoe in progress that stands (a void round is on no road)
    const results = state.results.filter((r) => r.shoeId === (state.retained.shoe as { shoeId?: string }).shoeId && r.status !== 'void');
    expect(results.length).toBeGreaterThan(20);
    await expect.poll(() => bac.locator('.beads .bead').count(), { timeout: 10_000 }).toBe(results.length);
    const beads = await bac
      .locator('.beads .bead')
      .evaluateAll((els) => els.map((e) => ({ round: (e as HTMLElement).dataset.round, text: e.textContent, cls: e.className })));
    expect(beads.map((b) => b.round)).toEqual(results.map((r) => r.roundId));
    const letter: Record<string, string> = { player: 'P', banker: 'B', tie: 'T' };
    for (const [i, r] of results.entries()) expect(beads[i].text).toBe(letter[r.outcome!.winner!]);
    // the shoe box follows the retained shoe message
    expect(Number(await bac.locator('dd.cards-dealt').textContent())).toBeGreaterThan(100);
  }, 60_000);

  it("shows the rejected frames of a device by reason, with the last one's redacted sample", async () => {
    // the simulated shoe puts garbage on the line (garbageRate): the gateway rejects it as noise
    const devices = async () =>
      (
        (await (await fetch(`${gw.observability.httpUrl}/api/state`)).json()) as {
          tables: Array<{
            table: string;
            devices: Record<string, { rejected: number; rejectsByReason: Record<string, number>; lastReject: { reason: string; sample: string } | null }>;
          }>;
        }
      ).tables.find((t) => t.table === 'page-bac')!.devices['shoe-1'];
    await expect.poll(async () => (await devices()).rejected, { timeout: 20_000 }).toBeGreaterThan(0);
    const dev = page.locator('section.table[data-table="page-bac"] li.dev[data-device="shoe-1"]');
    // the page gets the counters with the feed's `devices` event (every 2 s when they changed)
    await expect.poll(() => dev.locator('.rejects').textContent(), { timeout: 20_000 }).toMatch(/^\d+ rejected$/);
    const d = await devices();
    const detail = await dev.locator('.rej-detail').textContent();
    for (const reason of Object.keys(d.rejectsByReason)) expect(detail).toContain(reason);
    expect(detail).toMatch(/ · last: \S+ /);
    expect(await dev.locator('.rej-detail code.sample').count()).toBe(1);
  }, 40_000);

  it('shows a device that sends only rejects as such, on its table and on the floor card', async () => {
    if (!rejecting) throw new Error('socat is missing: the only-rejects table cannot be wired');
    // a shoe at the wrong speed, or another format: every line is rejected; the card codes in it never show
    const dev = page.locator('section.table[data-table="page-rej"] li.dev[data-device="shoe-9"]');
    await expect.poll(() => dev.locator('.state').textContent(), { timeout: 15_000 }).toBe('connected');
    // (a four-digit shoe and an STX/ETX shoe wired to a reference-protocol device)
    await rejecting.write(Buffer.from('C1130,1B\r\n\x021,C,S_K*37\x03\r\nC2120,1A\r\n', 'latin1'));
    await expect.poll(() => dev.locator('.rejects.only').textContent(), { timeout: 20_000 }).toMatch(/^only rejects \(\d+\)$/);
    type Counters = { frames: number; rejected: number; onlyRejects: boolean; rejectsByReason: Record<string, number> };
    const counters = async () =>
      (
        (await (await fetch(`${gw.observability.httpUrl}/api/state`)).json()) as { tables: Array<{ table: string; devices: Record<string, Counters> }> }
      ).tables.find((t) => t.table === 'page-rej')!.devices['shoe-9'];
    await expect.poll(async () => (await counters()).rejected, { timeout: 20_000 }).toBe(3);
    const c = await counters();
    expect(c).toMatchObject({ frames: 0, onlyRejects: true });
    const byReason = Object.entries(c.rejectsByReason)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([r, n]) => `${r} ${n}`);
    // the page catches up with the next `devices` event
    await expect
      .poll(async () => (await dev.locator('.rej-detail').textContent())?.split(' · ')[0].split(', ').sort(), { timeout: 20_000 })
      .toEqual(byReason.sort());
    const detail = await dev.locator('.rej-detail').textContent();
    expect(detail).toMatch(/ · last: \S+ /);
    expect(detail).not.toMatch(/1130|2120|S_K/);
    await expect.poll(() => page.locator('.tcard[data-table="page-rej"] .devs').textContent(), { timeout: 10_000 }).toBe('shoe-9 only rejects');
  }, 40_000);

  it.skipIf(!faceDownGame)(
    'shows face-down cards as card backs while the round is dealt',
    async () => {
      const pok = page.locator('section.table[data-table="page-pok"]');
      await expect.poll(() => pok.locator('.round .card.back').count(), { timeout: 30_000 }).toBeGreaterThan(0);
      // a face-down card never shows its value
      expect(await pok.locator('.round .card.back').first().textContent()).toBe('');
    },
    40_000,
  );

  it('saves a screenshot and raised no page error', async () => {
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    const file = join(ROOT, 'test-artifacts', 'status-page.png');
    await page.screenshot({ path: file, fullPage: true });
    expect(existsSync(file)).toBe(true);
    expect(chrome.pageErrors).toEqual([]);
  });
});
