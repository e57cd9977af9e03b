/** `tablegw replay <dataDir | gateway.db> [--table <id>]`: re-runs the journal, byte for byte. */
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { GatewayStore } from '../../../adapters/store/gateway-store.js';
import { replayTable } from '../../replay/replay-journal.js';
import { loadConfigFile } from '../../config/load-config.js';
import { createEnvelopeSigner } from '../../../adapters/security/signer.js';
import type { CliCommand } from './command.js';

const help = `Usage: tablegw replay <dataDir | path/to/gateway.db> [--table <id>] [--json] [--config <gateway.yaml>]

Re-runs the audit journal (every device frame, engine request and timer the tables received)
through the same state machines and checks that every published message is reproduced byte for
byte. Exits 0 when all match, 1 at the first difference (printed with both texts).
  --table <id>   only this table (default: every table in the journal)
  --json         print the reports as JSON
  --config <f>   the gateway's configuration: with \`signing\` there, results are re-signed with its key
                 and must match the published signatures byte for byte (docs/SECURITY.md)`;

export const command: CliCommand = {
  summary: 're-run the journal and check every published message byte for byte',
  help,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { table: { type: 'string' }, json: { type: 'boolean' }, config: { type: 'string' } },
    });
    const signing = values.config ? loadConfigFile(values.config).signing : undefined;
    const serialize = signing ? createEnvelopeSigner(signing).serialize : undefined;
    if (positionals.length !== 1) {
      console.error(help);
      return 2;
    }
    const target = positionals[0];
    if (!existsSync(target)) {
      console.error(`replay: ${target} does not exist`);
      return 2;
    }
    const dir = statSync(target).isDirectory() ? target : dirname(target);
    const store = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 36500 });
    try {
      const ids = values.table ? [values.table] : store.tableIds();
      if (ids.length === 0) {
        console.error(`replay: no table in the journal at ${store.path}`);
        return 1;
      }
      let failed = false;
      const reports = [];
      for (const id of ids) {
        const r = replayTable(store, id, { serialize });
        reports.push(r);
        if (!values.json) {
          console.log(
            `${id}: ${r.inputs} inputs from #${r.fromInputId + 1}, ${r.messages} messages (${r.results} results) reproduced${r.notStored ? `, ${r.notStored} no longer stored` : ''}${r.mismatch ? '' : ' byte for byte'}`,
          );
          if (r.mismatch) {
            console.log(`  FIRST DIFFERENCE at seq ${r.mismatch.seq} (${r.mismatch.topic}, input #${r.mismatch.inputId}):`);
            console.log(`  published: ${r.mismatch.published}`);
            console.log(`  replayed:  ${r.mismatch.replayed}`);
          }
        }
        if (r.mismatch) failed = true;
      }
      if (values.json) console.log(JSON.stringify(reports, null, 2));
      return failed ? 1 : 0;
    } finally {
      store.close();
    }
  },
};
