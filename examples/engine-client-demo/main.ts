/**
 * Runs the example engine (demo-engine.ts) against a running gateway, e.g. the demo set up for it:
 *
 *   npm start -- --config config/examples/engine-demo.yaml          # needs Mosquitto on 1883
 *   node --import tsx examples/engine-client-demo/main.ts [--url mqtt://127.0.0.1:1883]
 *        [--key gateway-signing.pub] [--rounds <n>] [--betting-ms <ms>]
 *
 * One line per request answered and per result (a result of a table it drives, or of one it only
 * follows), and every stream event (gap, duplicate, signature failure, ...). Ctrl-C stops opening
 * rounds, waits for the rounds in progress and exits.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { EngineClient } from '@table-edge/engine-client';
import { DemoEngine } from './demo-engine.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'mqtt://127.0.0.1:1883' },
    prefix: { type: 'string', default: 'casino' },
    key: { type: 'string' },
    rounds: { type: 'string' },
    'betting-ms': { type: 'string', default: '3000' },
    'client-id': { type: 'string', default: 'example-engine' },
  },
});

const client = await EngineClient.connect({
  url: values.url!,
  prefix: values.prefix,
  clientId: values['client-id'],
  publicKeys: values.key ? [readFileSync(values.key, 'utf8')] : undefined,
});
client.events$.subscribe((e) => {
  if (e.kind !== 'duplicate') console.log(`event ${JSON.stringify(e)}`);
});
const info = await client.gateway();
console.log(`gateway ${info.gatewayId} online`);
const tables = client.tables();
const driven = DemoEngine.drivable(tables);
for (const t of tables) console.log(`table ${t.id} (${t.game}): ${driven.includes(t.id) ? 'driven by this engine' : 'followed'}`);

const engine = new DemoEngine({
  client,
  rounds: values.rounds ? Number(values.rounds) : undefined,
  bettingMs: Number(values['betting-ms']),
  onRequest: (r) =>
    console.log(
      `${r.table} ${r.command} -> ${r.answer.status}${r.answer.code ? ` ${r.answer.code}` : ''}${r.answer.replayed ? ' (replayed)' : ''} [${r.transaction}]`,
    ),
  onResult: (table, r) =>
    console.log(`${table} result ${r.roundId} ${r.status}${r.status === 'void' ? ` (${r.reason})` : ''}${r.outcome ? ` ${JSON.stringify(r.outcome)}` : ''}`),
});
engine.start(tables);

let stopping = false;
process.on('SIGINT', () => {
  if (stopping) process.exit(1);
  stopping = true;
  console.log('stopping: the rounds in progress finish first (Ctrl-C again to quit now)');
  void engine
    .stop()
    .catch((e: unknown) => console.error(e))
    .finally(() => void client.close().then(() => process.exit(0)));
});
if (values.rounds) {
  await engine.stop();
  await client.close();
}
