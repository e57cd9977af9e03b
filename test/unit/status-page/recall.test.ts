/**
 * The recall of a table's last rounds, read from a real journal (GatewayStore on disk) holding
 * what the real table machine published: 12 baccarat rounds (one with a misread, one corrected by
 * the pit, one voided), a 13th in progress. The last 10 in the order played, their cards, burns,
 * outcome, alerts and corrections; a corrupt row skipped with its reason logged once; and the
 * HTTP endpoint's answers (200, 404 for an unknown table, 400 for a bad query), errors as JSON.
 */
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayStore } from '../../../src/adapters/store/gateway-store.js';
import { RecallReader, readRecall, type Recall } from '../../../src/adapters/http/recall.js';
import { StatusFeed } from '../../../src/adapters/http/feed.js';
import { GatewayMetrics } from '../../../src/adapters/http/metrics.js';
import { startHttpServer, type HttpServer } from '../../../src/adapters/http/server.js';
import type { TableView } from '../../../src/adapters/http/table-view.js';
import { createLogger } from '../../../src/runtime/log.js';
import type { PublishedMessage } from '../../../src/runtime/table-runtime.js';
import type { TableState } from '../../../src/core/table/types.js';
import { TableHarness } from '../../helpers/table-harness.js';

const dirs: string[] = [];
const stops: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

// player 9S TS (9, natural) vs banker 2H 3H: player; player 2C 3C vs banker 9D KD: banker; 8S/8H both 8 with a ten: tie
const PLAYER = ['9S', '2H', 'TS', '3H'];
const BANKER = ['2C', '9D', '3C', 'KD'];
const TIE = ['8S', '8H', 'TC', 'JH'];
const PLAN = [PLAYER, BANKER, BANKER, TIE, PLAYER, PLAYER, BANKER, PLAYER, TIE, BANKER, PLAYER, BANKER];

/** the machine plays the plan; every step's messages go into a journal on disk, as the runtime does */
function journalOfTwelveRounds() {
  const dir = mkdtempSync(join(tmpdir(), 'teg-recall-'));
  dirs.push(dir);
  const store = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 14, writer: 'inline' });
  stops.push(() => store.close());
  const t = new TableHarness({ id: 'bac-01', table: { correctionWindowRounds: 2 } });
  store.registerTable('bac-01', {}, () => ({}));
  const journal = (run: () => unknown) => {
    const before = t.outputs.length;
    run();
    const messages = t.outputs
      .slice(before)
      .flatMap((o) => (o.type === 'publish' ? [{ seq: o.payload.seq as number, topic: o.topic, retain: o.retain, payload: JSON.stringify(o.payload) }] : []));
    store.enqueue({ tableId: 'bac-01', input: { type: 'tick', at: t.now } as never, messages }, () => {});
    store.flush();
  };
  PLAN.forEach((cards, i) => {
    journal(() => {
      t.card(cards[0]);
      // round 5: a misread before its second card (an alert of that round), then the rescan
      if (i === 4) {
        t.frame({ type: 'MISREAD' });
        t.card(cards[1], true);
      } else t.card(cards[1]);
      t.cards(cards[2], cards[3]);
    });
  });
  const results = t.results();
  expect(results.length).toBe(12);
  // the pit corrects round 11 (the cards were swapped: banker wins) and voids round 12
  // signed by the pit's key (the edge verified it; docs/SECURITY.md "Privileged requests"): `by` is the signer's name
  journal(() =>
    expect(
      t.request(
        'correction',
        {
          kind: 'cards',
          roundId: results[10].roundId,
          by: 'pit-7',
          reason: 'player and banker swapped',
          cards: { player: ['2H', '3H'], banker: ['9S', 'TS'] },
        },
        'pit-7',
      ),
    ).toMatchObject({ status: 'ok' }),
  );
  journal(() =>
    expect(t.request('void-round', { roundId: results[11].roundId, by: 'pit-7', reason: 'dealt before betting closed' }, 'pit-7')).toMatchObject({
      status: 'ok',
    }),
  );
  // a 13th round in progress: two cards dealt, no result
  journal(() => t.cards('4S', '5S'));
  return { dir, store, results, inProgress: t.published('round').at(-1)!.roundId as string };
}

describe('the recall from the journal', () => {
  it('has the last 10 rounds in the order played, with cards, burns, outcome, alerts and corrections', () => {
    const { store, results, inProgress } = journalOfTwelveRounds();
    const lines: string[] = [];
    const reader = new RecallReader(store, createLogger({ json: false, level: 'info', write: (l) => lines.push(l) }));
    const r = reader.read({ id: 'bac-01', game: 'baccarat' });
    expect(r.rounds).toBe(10);
    expect(r.recall.map((x) => x.roundId)).toEqual(results.slice(2).map((x) => x.roundId));
    expect(r.recall.map((x) => x.roundId)).not.toContain(inProgress);
    expect(r.recall.map((x) => x.roundNo)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // round 3: banker 2C 3C / 9D KD as dealt (P1 B1 P2 B2), no burns in baccarat rounds
    expect(r.recall[0]).toMatchObject({
      status: 'complete',
      finalStatus: 'complete',
      cards: { player: ['2C', '3C'], banker: ['9D', 'KD'] },
      burns: [],
      alerts: [],
      corrections: [],
    });
    expect(r.recall[0].outcome).toMatchObject({ winner: 'banker', playerTotal: 5, bankerTotal: 9 });
    expect(r.recall.map((x) => (x.outcome as { winner: string }).winner).join(' ')).toBe('banker tie player player banker player tie banker player banker');
    // round 5 had a misread
    expect(r.recall[2].alerts.map((a) => a.kind)).toEqual(['misread']);
    expect(r.recall[2].alerts[0].severity).toBe('info');
    // round 11: corrected to a banker win by pit-7; the first outcome stays as it was published
    const c = r.recall[8];
    expect(c).toMatchObject({ status: 'complete', finalStatus: 'corrected' });
    expect((c.outcome as { winner: string }).winner).toBe('player');
    expect((c.finalOutcome as { winner: string }).winner).toBe('banker');
    // the machine's `correction` event, then the superseding result
    expect(c.corrections.map((x) => x.source)).toEqual(['event', 'result']);
    expect(c.corrections[0]).toMatchObject({ source: 'event', by: 'pit-7' });
    expect(c.corrections[1]).toMatchObject({
      source: 'result',
      status: 'corrected',
      kind: 'cards',
      by: 'pit-7',
      reason: 'player and banker swapped',
      cards: { player: ['2H', '3H'], banker: ['9S', 'TS'], burn: [] },
    });
    // round 12: voided after its result
    expect(r.recall[9]).toMatchObject({ status: 'complete', finalStatus: 'void', finalOutcome: null });
    expect(r.recall[9].corrections.find((x) => x.source === 'result')).toMatchObject({ status: 'void', kind: 'void', by: 'pit-7' });
    expect(r.skipped).toBe(0);
    expect(lines).toEqual([]);
    // fewer when asked
    expect(reader.read({ id: 'bac-01', game: 'baccarat' }, 3).recall.map((x) => x.roundNo)).toEqual([10, 11, 12]);
    // a table without rounds
    expect(reader.read({ id: 'nobody', game: 'baccarat' }).recall).toEqual([]);
  });

  it("survives a restart: a store opened again on the same journal recalls the same rounds; the page's history and roads start from it", () => {
    const { dir, store, results } = journalOfTwelveRounds();
    const log = createLogger({ json: false, level: 'error', write: () => {} });
    const before = new RecallReader(store, log).read({ id: 'bac-01', game: 'baccarat' });
    store.close();
    const again = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 14, writer: 'inline' });
    stops.push(() => again.close());
    expect(new RecallReader(again, log).read({ id: 'bac-01', game: 'baccarat' })).toEqual(before);
    // the status feed of a restarted gateway: the last results from the journal, and the roads of the shoe
    const feed = new StatusFeed({ countersIntervalMs: 0 });
    feed.useJournal(again);
    feed.addTable({
      id: 'bac-01',
      game: 'baccarat',
      runtime: { published$: new Subject<PublishedMessage>(), snapshot: { seq: 0, devices: {} } as unknown as TableState, drivers: [], apply: () => {} },
      link: { connected: false, connected$: new Subject<boolean>() },
    });
    const snap = feed.snapshot()[0];
    // 12 results, the correction of round 11 and the void of round 12
    expect(snap.results.map((r) => r.seq)).toEqual([...results.map((r) => r.seq), ...snap.results.slice(12).map((r) => r.seq)]);
    expect(snap.results).toHaveLength(14);
    // on the roads: the plan's winners with round 11 corrected to banker and round 12 taken off
    const letters = snap.roads!.bead.map((c) => c.winner[0].toUpperCase()).join('');
    expect(letters).toBe('PBBTPPBPTBB');
    feed.stop();
  });

  it('skips a corrupt journal row with its reason, logged once, and recalls the rest', () => {
    const { dir, store, results } = journalOfTwelveRounds();
    const db = new Database(join(dir, 'gateway.db'));
    // the result of round 7 is garbage; an alert of round 5 has the wrong seq inside
    const r7 = results[6].seq as number;
    db.prepare('UPDATE messages SET payload = ? WHERE table_id = ? AND seq = ?').run('{"v":1,"type":"res', 'bac-01', r7);
    const alertSeq = (db.prepare("SELECT seq FROM messages WHERE table_id = 'bac-01' AND topic = 'alerts' LIMIT 1").get() as { seq: number }).seq;
    db.prepare("UPDATE messages SET payload = json_set(payload, '$.seq', 99999) WHERE table_id = 'bac-01' AND seq = ?").run(alertSeq);
    db.close();
    const lines: string[] = [];
    const reader = new RecallReader(store, createLogger({ json: false, level: 'info', write: (l) => lines.push(l) }));
    const first = reader.read({ id: 'bac-01', game: 'baccarat' });
    // round 7's result is gone: rounds 2-6 and 8-12 are the last 10 that have one
    expect(first.recall.map((x) => x.roundNo)).toEqual([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]);
    expect(first.skipped).toBe(2);
    expect(first.recall[3].alerts).toEqual([]);
    expect(lines.join('\n')).toContain(`seq ${r7} skipped: not JSON`);
    expect(lines.join('\n')).toContain(`seq ${alertSeq} skipped: its seq 99999 is not its row's`);
    expect(lines).toHaveLength(2);
    reader.read({ id: 'bac-01', game: 'baccarat' });
    expect(lines).toHaveLength(2);
    // the page's history at start skips the broken result too, with its reason
    const skippedByFeed: string[] = [];
    const feed = new StatusFeed({ countersIntervalMs: 0 });
    feed.useJournal(store, (table, seq, reason) => skippedByFeed.push(`${table} ${seq} ${reason}`));
    feed.addTable({
      id: 'bac-01',
      game: 'baccarat',
      runtime: { published$: new Subject<PublishedMessage>(), snapshot: { seq: 0, devices: {} } as unknown as TableState, drivers: [], apply: () => {} },
      link: { connected: false, connected$: new Subject<boolean>() },
    });
    expect(feed.snapshot()[0].results.map((r) => r.seq)).not.toContain(r7);
    expect(feed.snapshot()[0].results).toHaveLength(13);
    expect(skippedByFeed).toHaveLength(1);
    expect(skippedByFeed[0].startsWith(`bac-01 ${r7} not JSON (`)).toBe(true);
    feed.stop();
  });

  it('a result that fails its schema is skipped too (readRecall over rows)', () => {
    const ok = (seq: number, roundId: string) => ({
      seq,
      topic: 'result',
      payload: JSON.stringify({
        v: 1,
        type: 'result',
        table: 't-1',
        game: 'dragon-tiger',
        seq,
        ts: '2026-12-01T10:00:00.000Z',
        roundId,
        status: 'complete',
        outcome: {
          winner: 'dragon',
          dragonRank: 13,
          tigerRank: 2,
          suitedTie: false,
          dragonSuit: 'S',
          tigerSuit: 'S',
          dragonColor: 'black',
          tigerColor: 'black',
        },
        cards: { dragon: ['KS'], tiger: ['2S'], burn: ['3S'] },
      }),
    });
    const bad = {
      seq: 3,
      topic: 'result',
      payload: JSON.stringify({
        v: 1,
        type: 'result',
        table: 't-1',
        game: 'dragon-tiger',
        seq: 3,
        ts: '2026-12-01T10:00:00.000Z',
        roundId: 'r3',
        status: 'finished',
        outcome: 7,
      }),
    };
    const skipped: number[] = [];
    const r: Recall = readRecall({ table: 't-1', game: 'dragon-tiger', rounds: 10, timeZone: 'UTC' }, [ok(4, 'r4'), bad, ok(2, 'r2'), ok(1, 'r1')], (seq) =>
      skipped.push(seq),
    );
    expect(r.recall.map((x) => x.roundId)).toEqual(['r1', 'r2', 'r4']);
    expect(r.recall[0]).toMatchObject({ cards: { dragon: ['KS'], tiger: ['2S'] }, burns: ['3S'] });
    expect(skipped).toEqual([3]);
  });
});

function get(port: number, path: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const r = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}` } }, (res) => {
      let body = '';
      res.on('data', (b: Buffer) => {
        body += b.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
    });
    r.on('error', reject);
    r.end();
  });
}

describe('GET /api/tables/<id>/recall', () => {
  it('answers the recall as JSON; an unknown table 404 and a bad query 400, as JSON errors with a code', async () => {
    const { store, results } = journalOfTwelveRounds();
    const view: TableView = {
      id: 'bac-01',
      game: 'baccarat',
      runtime: { published$: new Subject<PublishedMessage>(), snapshot: { seq: 0, devices: {} } as unknown as TableState, drivers: [], apply: () => {} },
      link: { connected: false, connected$: new Subject<boolean>() },
    };
    const feed = new StatusFeed({ countersIntervalMs: 0 });
    feed.addTable(view);
    const log = createLogger({ json: false, level: 'error', write: () => {} });
    const server: HttpServer = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      feed,
      metrics: new GatewayMetrics(),
      tables: [view],
      logger: log,
      recall: new RecallReader(store, log),
    });
    stops.push(() => server.stop());
    const ok = await get(server.port, '/api/tables/bac-01/recall');
    expect(ok.status).toBe(200);
    expect(ok.type).toContain('application/json');
    const body = JSON.parse(ok.body) as Recall;
    expect(body).toMatchObject({ table: 'bac-01', game: 'baccarat', rounds: 10 });
    expect(body.recall.map((x) => x.roundId)).toEqual(results.slice(2).map((x) => x.roundId));
    expect(typeof body.timeZone).toBe('string');
    const four = JSON.parse((await get(server.port, '/api/tables/bac-01/recall?rounds=4')).body) as Recall;
    expect(four.recall.map((x) => x.roundNo)).toEqual([9, 10, 11, 12]);
    const unknown = await get(server.port, '/api/tables/nope-01/recall');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toEqual({ error: { code: 'unknown-table', message: 'no table "nope-01" on this gateway' } });
    const badId = await get(server.port, '/api/tables/%E0%A4%A/recall');
    expect(badId.status).toBe(400);
    expect(JSON.parse(badId.body).error.code).toBe('bad-request');
    for (const q of ['rounds=0', 'rounds=101', 'rounds=ten', 'other=1']) {
      const bad = await get(server.port, `/api/tables/bac-01/recall?${q}`);
      expect(bad.status, q).toBe(400);
      expect(JSON.parse(bad.body).error.code).toBe('bad-request');
    }
  });
});
