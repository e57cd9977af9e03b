/**
 * A wrong clock at the start (issue 33, docs/DURABILITY.md "Retention and the clock"): a real
 * gateway deals a fresh shoe over a pty and stops; it is started again as if the machine's clock
 * were 20 days ahead (TABLEGW_CLOCK_OFFSET_MS: libfaketime is not assumed), deals a round and
 * stops; then started again with the clock right, which is now behind the journal's newest entry.
 * Every journal row of the first run must still be there (must be 0: journal rows lost), the third
 * start must refuse its prune and publish a `clock-step` alert.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { ChaosResult, ChaosSection } from '../section.js';
import { kill, makeRig, Shoe, startGatewayProcess, Subscriber } from '../gateway-rig.js';

const T = 'clk-01';
const DAY = 86_400_000;
const ROUND = ['9H', 'KD', '9C', '2S'];

interface Rows {
  inputs: number;
  messages: number;
  snapshots: number;
  maxInput: number;
  maxSeq: number;
}

function rows(dataDir: string, upTo?: Rows): Rows {
  const db = new Database(join(dataDir, 'gateway.db'), { readonly: true, fileMustExist: true });
  try {
    const one = (sql: string, ...a: unknown[]) => (db.prepare(sql).get(...a) as { n: number | null }).n ?? 0;
    const maxInput = upTo?.maxInput ?? one('SELECT MAX(id) AS n FROM inputs');
    const maxSeq = upTo?.maxSeq ?? one('SELECT MAX(seq) AS n FROM messages');
    return {
      inputs: one('SELECT COUNT(*) AS n FROM inputs WHERE id <= ?', maxInput),
      messages: one('SELECT COUNT(*) AS n FROM messages WHERE seq <= ?', maxSeq),
      snapshots: one('SELECT COUNT(*) AS n FROM snapshots WHERE input_id <= ?', maxInput),
      maxInput,
      maxSeq,
    };
  } finally {
    db.close();
  }
}

function prunes(dataDir: string): Array<{ refused?: string; inputs: number }> {
  const db = new Database(join(dataDir, 'gateway.db'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT report FROM prunes ORDER BY id').all() as Array<{ report: string }>).map((r) => JSON.parse(r.report));
  } finally {
    db.close();
  }
}

async function dealRounds(shoe: Shoe, sub: Subscriber, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const before = sub.got.filter((m) => m.topic === `casino/${T}/result`).length;
    await shoe.cards(...ROUND);
    await sub.waitFor((m) => m.topic === `casino/${T}/result` && sub.got.filter((x) => x.topic === m.topic).length > before);
  }
}

const section: ChaosSection = {
  name: 'clock-ahead',
  async run({ quick, log }): Promise<ChaosResult> {
    const rig = await makeRig(T, {}, { http: { enabled: false }, health: { intervalMs: 0 }, journal: { retentionDays: 14 } });
    const sub = await Subscriber.connect(rig.broker.url, `${T}-sub`);
    const notes: string[] = [];
    try {
      const shoe = new Shoe(rig.pty);
      // 1. a fresh shoe, dealt minutes before, clock right
      let g = await startGatewayProcess(rig, sub, T);
      if (g.exited !== undefined) throw new Error(`first start exited ${g.exited}: ${g.run.stderr()}`);
      await dealRounds(shoe, sub, quick ? 4 : 12);
      await kill(g.run, 'SIGTERM');
      const before = rows(rig.dataDir);
      log(`clock-ahead: ${before.inputs} inputs, ${before.messages} messages, ${before.snapshots} snapshots journaled`);
      // 2. the clock 20 days ahead: started, a round dealt, stopped
      g = await startGatewayProcess(rig, sub, T, 20000, { TABLEGW_CLOCK_OFFSET_MS: String(20 * DAY) });
      if (g.exited !== undefined) throw new Error(`start with the clock ahead exited ${g.exited}: ${g.run.stderr()}`);
      await dealRounds(shoe, sub, 1);
      await kill(g.run, 'SIGTERM');
      const ahead = rows(rig.dataDir, before);
      // 3. the clock right again: behind the journal's newest entry now
      const from = sub.got.length;
      g = await startGatewayProcess(rig, sub, T);
      if (g.exited !== undefined) throw new Error(`start with the clock right exited ${g.exited}: ${g.run.stderr()}`);
      const alert = await sub.waitFor((m) => m.topic === `casino/${T}/alerts` && m.payload?.kind === 'clock-step', 10000, from).catch(() => null);
      await dealRounds(shoe, sub, 1);
      await kill(g.run, 'SIGTERM');
      const after = rows(rig.dataDir, before);
      const history = prunes(rig.dataDir);
      const lost = (r: Rows) => before.inputs - r.inputs + (before.messages - r.messages) + (before.snapshots - r.snapshots);
      notes.push(
        `rows of the first run: ${before.inputs} inputs, ${before.messages} messages, ${before.snapshots} snapshots; after the start 20 days ahead: ${ahead.inputs}/${ahead.messages}/${ahead.snapshots}; after the start with the clock right: ${after.inputs}/${after.messages}/${after.snapshots}`,
      );
      notes.push(`prunes recorded: ${history.map((p) => p.refused ?? `${p.inputs} inputs`).join(', ')}`);
      return {
        section: 'clock-ahead',
        figures: {
          'journal rows (first run)': before.inputs + before.messages + before.snapshots,
          'journal rows lost': Math.max(lost(ahead), lost(after)),
          'prunes recorded': history.length,
          'prunes refused (clock behind)': history.filter((p) => p.refused === 'clock-behind').length,
          'clock-step alert missing': alert ? 0 : 1,
        },
        zeroColumns: ['journal rows lost', 'clock-step alert missing'],
        notes,
      };
    } finally {
      await sub.client.endAsync();
      await rig.dispose();
    }
  },
};

export default section;
