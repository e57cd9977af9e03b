/**
 * `tablegw recover --accept-loss --config <gateway.yaml>`: starts the tables again after the
 * gateway refused a damaged journal (journal-integrity.ts). The damaged files are kept aside for
 * the audit; a fresh journal starts every table from its high-water mark, so no `seq` (nor shoe
 * or round number) is ever reused, and the loss is recorded in the new journal as a `journal-loss`
 * alert (critical) that is published when the gateway starts.
 */
import { existsSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfigFile } from '../../config/load-config.js';
import { GatewayStore, type StoredMessage } from '../../../adapters/store/gateway-store.js';
import { checkJournal, DB_FILE, JournalDamagedError, hwmForRecovery } from '../../../adapters/store/journal-integrity.js';
import { countersOf, initialTableState, step } from '../../../core/table/table-machine.js';
import { tableSettings } from '../../../core/table/table-settings.js';
import { lockDataDir } from '../../../adapters/store/data-dir-lock.js';
import type { CliCommand } from './command.js';

const help = `Usage: tablegw recover --accept-loss [--config <gateway.yaml>]

After "tablegw start" refused a damaged journal (exit code 65: missing, empty, corrupted or
truncated database, or a lost WAL), start again from the high-water mark kept beside it
(<dataDir>/seq-hwm.bin, seq-hwm-fast.bin):
  - the damaged gateway.db (and its -wal / -shm) are moved aside as gateway.db.damaged-<time>;
  - every table's seq, shoe and round numbers continue above the mark's reservations
    (up to 4096 seqs above the last commit): nothing is reused, even after a power loss;
  - the loss is recorded in the new journal and published as a critical journal-loss alert
    at the next start.
What was lost cannot be re-published: engines see a gap in seq. Without --accept-loss nothing
is changed. Exits 0 when done or when the journal is fine, 1 on error.`;

export const command: CliCommand = {
  summary: 'start again above the high-water mark after a damaged journal (records the loss)',
  help,
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { 'accept-loss': { type: 'boolean' }, config: { type: 'string' } } });
    const cfg = loadConfigFile(values.config ?? 'config/default.yaml');
    const dir = resolve(cfg.dataDir);
    // never beside a running gateway (data-dir-lock.ts): exit 75 naming its pid
    const lock = lockDataDir(dir);
    try {
      return recover(dir, cfg, values['accept-loss'] === true);
    } finally {
      lock.release();
    }
  },
};

function recover(dir: string, cfg: ReturnType<typeof loadConfigFile>, acceptLoss: boolean): number {
  let problem: JournalDamagedError | null = null;
  try {
    checkJournal(dir);
  } catch (e) {
    if (!(e instanceof JournalDamagedError)) throw e;
    problem = e;
  }
  if (!problem) {
    console.log(`recover: the journal in ${dir} is fine: nothing to do`);
    return 0;
  }
  console.error(`recover: ${problem.path}: ${problem.what} [${problem.code}]`);
  if (!acceptLoss) {
    console.error('recover: nothing changed; run again with --accept-loss to start above the high-water mark');
    return 1;
  }
  if (problem.code === 'hwm-corrupt') {
    // without the mark there is no safe number to continue from: a person decides
    console.error(`recover: the high-water mark itself is unreadable; nothing changed. If the journal is intact, move ${problem.path} aside and start again`);
    return 1;
  }
  // above the reservations too: a number past the last commit's may have left before a power loss
  const hwm = hwmForRecovery(dir);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const aside = `${DB_FILE}.damaged-${stamp}`;
  for (const suffix of ['', '-wal', '-shm']) {
    const p = join(dir, DB_FILE + suffix);
    if (existsSync(p)) renameSync(p, join(dir, aside + suffix));
  }
  const store = new GatewayStore(dir, { synchronous: 'full', retentionDays: cfg.journal.retentionDays, writer: 'inline' });
  try {
    for (const t of cfg.tables) {
      // a fresh journal: a new stream epoch (the damaged one's cannot be trusted), seq above the mark
      const settings = { ...tableSettings(t), epoch: store.ensureEpoch(t.id).epoch };
      const counters = { ...(hwm[t.id] ?? {}) };
      const start = initialTableState(settings, counters);
      store.registerTable(t.id, t, () => start);
      const at = Date.now();
      const input = {
        type: 'gateway-alert' as const,
        at,
        kind: 'journal-loss' as const,
        detail: `the journal was damaged (${problem.code}: ${problem.what.slice(0, 300)}); started again above seq ${start.seq}: what was not yet delivered is lost`,
        data: { problem: problem.code, hwmSeq: start.seq, keptAs: aside },
      };
      const r = step(settings, start, input);
      const messages: StoredMessage[] = [];
      for (const o of r.outputs)
        if (o.type === 'publish') messages.push({ seq: o.payload.seq, topic: o.topic, retain: o.retain, payload: JSON.stringify(o.payload) });
      store.enqueue({ tableId: t.id, input, messages, counters: countersOf(r.state) }, () => {});
      console.log(`recover: table ${t.id}: starts again above seq ${start.seq}`);
    }
    store.flush();
  } finally {
    store.close();
  }
  console.log(`recover: damaged journal kept as ${join(dir, aside)}; "tablegw start" can run again`);
  return 0;
}
