/**
 * The journal-damage matrix (issue 12, docs/DURABILITY.md "A damaged journal"): a real gateway
 * deals a few rounds and is SIGKILLed; its journal is then damaged one way per case; the next
 * start must refuse (exit 65 naming the path) or come up with nothing lost, and after
 * `tablegw recover --accept-loss` the table goes on above its high-water mark. Zero columns:
 * a `seq` published twice with different content, a start that went on silently over a loss.
 */
import { closeSync, openSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { ChaosResult, ChaosSection } from '../section.js';
import { kill, makeRig, runCli, Shoe, startGatewayProcess, Subscriber } from '../gateway-rig.js';

type Damage = (dataDir: string) => void;

const db = (d: string) => join(d, 'gateway.db');
const wal = (d: string) => join(d, 'gateway.db-wal');

export const DAMAGES: Record<string, Damage> = {
  'zero-length db': (d) => {
    writeFileSync(db(d), '');
    rmSync(wal(d), { force: true });
    rmSync(`${db(d)}-shm`, { force: true });
  },
  'db deleted': (d) => {
    for (const f of [db(d), wal(d), `${db(d)}-shm`]) rmSync(f, { force: true });
  },
  'WAL deleted': (d) => {
    rmSync(wal(d), { force: true });
    rmSync(`${db(d)}-shm`, { force: true });
  },
  'one WAL frame corrupted': (d) => {
    // WAL header 32 bytes, then frames of 24 + page size (4096): flip bytes in the middle of the second frame
    const size = statSync(wal(d)).size;
    const off = Math.min(size - 16, 32 + (24 + 4096) + 24 + 100);
    const fd = openSync(wal(d), 'r+');
    writeSync(fd, Buffer.from('corrupted!'), 0, 10, off);
    closeSync(fd);
  },
  'WAL truncated': (d) => {
    const size = statSync(wal(d)).size;
    truncateSync(wal(d), Math.max(32, Math.floor(size / 3)));
  },
  '8 KiB garbage mid-file': (d) => {
    // the database file after a checkpoint into it (its pages hold the journal)
    const size = statSync(db(d)).size;
    const fd = openSync(db(d), 'r+');
    const garbage = Buffer.alloc(8192);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 131 + 7) & 0xff;
    writeSync(fd, garbage, 0, garbage.length, Math.max(4096, Math.floor(size / 2 / 4096) * 4096));
    closeSync(fd);
  },
};

const ROUND = ['9H', 'KD', '9C', '2S'];

export interface CaseOutcome {
  name: string;
  refused: boolean;
  exitCode: number | null | undefined;
  message: string;
  recovered: boolean;
  seqReused: number;
  silentStart: boolean;
  nextSeq: number;
  before: number;
}

/** runs one damage case end to end */
export async function runCase(name: string, damage: Damage, log: (l: string) => void, rounds = 3): Promise<CaseOutcome> {
  const tableId = `jd-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`.slice(0, 40);
  // the garbage case damages the database file itself: let the journal be checkpointed into it first
  const rig = await makeRig(tableId);
  const sub = await Subscriber.connect(rig.broker.url, `${tableId}-sub`);
  try {
    let g = await startGatewayProcess(rig, sub, tableId);
    if (g.exited !== undefined) throw new Error(`first start exited ${g.exited}: ${g.run.stderr()}`);
    const shoe = new Shoe(rig.pty);
    for (let i = 0; i < rounds; i++) {
      const n = sub.got.filter((m) => m.topic === `casino/${tableId}/result`).length;
      await shoe.cards(...ROUND);
      await sub.waitFor((m) => m.topic === `casino/${tableId}/result` && sub.got.filter((x) => x.topic === m.topic).length > n);
    }
    if (name.includes('garbage')) {
      // a clean stop checkpoints the WAL into the database file, so the garbage hits journal pages
      await kill(g.run, 'SIGTERM');
      const gg = await startGatewayProcess(rig, sub, tableId);
      if (gg.exited !== undefined) throw new Error(`restart exited ${gg.exited}: ${gg.run.stderr()}`);
      g = gg;
      await shoe.cards(...ROUND);
      await new Promise((r) => setTimeout(r, 300));
      await kill(g.run, 'SIGTERM');
    } else {
      await new Promise((r) => setTimeout(r, 300));
      await kill(g.run, 'SIGKILL');
    }
    const before = sub.maxSeq(tableId);
    damage(rig.dataDir);
    const second = await startGatewayProcess(rig, sub, tableId);
    let refused = false;
    let message = '';
    let recovered = false;
    let silentStart = false;
    let run = second.run;
    if (second.exited !== undefined) {
      refused = second.exited === 65;
      message = second.run.stderr().trim().split('\n').at(-1) ?? '';
      log(`  ${name}: refused (exit ${second.exited}): ${message.slice(0, 200)}`);
      const rec = runCli(['recover', '--accept-loss', '--config', rig.cfgFile]);
      const code = await rec.exit;
      if (code !== 0) throw new Error(`recover exited ${code}: ${rec.stderr()}`);
      const third = await startGatewayProcess(rig, sub, tableId);
      if (third.exited !== undefined) throw new Error(`start after recover exited ${third.exited}: ${third.run.stderr()}`);
      run = third.run;
      await sub.waitFor((m) => m.topic === `casino/${tableId}/alerts` && m.payload?.kind === 'journal-loss', 10000);
      recovered = true;
    } else {
      log(`  ${name}: started (no damage found)`);
    }
    // the table goes on: one more round
    await shoe.cards(...ROUND);
    await sub.waitFor((m) => m.topic === `casino/${tableId}/result` && m.payload?.seq > before, 15000);
    const after = sub.got.filter((m) => m.topic.startsWith(`casino/${tableId}/`) && typeof m.payload?.seq === 'number' && sub.got.indexOf(m) >= 0);
    const nextSeq = Math.min(
      ...after
        .filter((m) => m.payload.seq > 0)
        .map((m) => m.payload.seq)
        .filter((s) => s > before),
      Infinity,
    );
    const seqReused = sub.reusedSeqs(tableId);
    // a start that went on over a loss: not refused, yet a seq came back with other content
    if (!refused && seqReused > 0) silentStart = true;
    await kill(run, 'SIGTERM');
    return { name, refused, exitCode: second.exited, message, recovered, seqReused, silentStart, nextSeq, before };
  } finally {
    await sub.client.endAsync();
    await rig.dispose();
  }
}

const section: ChaosSection = {
  name: 'journal-damage',
  async run({ quick, log }): Promise<ChaosResult> {
    const names = Object.keys(DAMAGES);
    const figures: Record<string, number> = { cases: 0, refused: 0, recovered: 0, 'started-intact': 0, 'seq reused': 0, 'silent starts': 0 };
    const notes: string[] = [];
    for (const name of names) {
      log(`journal-damage: ${name}`);
      const o = await runCase(name, DAMAGES[name], log, quick ? 2 : 4);
      figures.cases++;
      if (o.refused) figures.refused++;
      if (o.recovered) figures.recovered++;
      if (!o.refused) figures['started-intact']++;
      figures['seq reused'] += o.seqReused;
      if (o.silentStart) figures['silent starts']++;
      notes.push(
        `${name}: ${o.refused ? `refused (${/\[([a-z-]+)\]/.exec(o.message)?.[1] ?? '?'}), recovered above seq ${o.before}` : 'started, nothing lost'}; ${o.seqReused} seq reused`,
      );
    }
    return { section: 'journal-damage', figures, zeroColumns: ['seq reused', 'silent starts'], notes };
  },
};

export default section;
