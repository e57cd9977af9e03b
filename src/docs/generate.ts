/**
 * `npm run docs:api`: writes docs/asyncapi.json and docs/config.schema.json from the zod schemas.
 * The message examples come from a fresh simulator run (the demo's tables, fast mode);
 * `--keep-examples` reuses the examples already in docs/asyncapi.json (no simulator run).
 */
import { PROJECT_ROOT } from '../paths.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildAsyncApi, buildConfigSchema, examplesOf, pickExamples, toJsonText } from './api-docs.js';
import { captureSimulatorMessages } from './capture.js';

const ROOT = PROJECT_ROOT;
export const ASYNCAPI_FILE = join(ROOT, 'docs', 'asyncapi.json');
export const CONFIG_SCHEMA_FILE = join(ROOT, 'docs', 'config.schema.json');

async function main(): Promise<void> {
  const keep = process.argv.includes('--keep-examples');
  let examples;
  if (keep && existsSync(ASYNCAPI_FILE)) {
    examples = examplesOf(JSON.parse(readFileSync(ASYNCAPI_FILE, 'utf8')));
  } else {
    const captured = await captureSimulatorMessages({ allTables: true });
    examples = pickExamples(captured);
    console.log(`captured ${captured.length} messages from the simulated demo tables; ${Object.keys(examples).length} message types have examples`);
  }
  writeFileSync(ASYNCAPI_FILE, toJsonText(buildAsyncApi(examples)));
  writeFileSync(CONFIG_SCHEMA_FILE, toJsonText(buildConfigSchema()));
  console.log(`wrote ${ASYNCAPI_FILE} and ${CONFIG_SCHEMA_FILE}`);
}

main().then(() => process.exit(0), (e: unknown) => {
  console.error(`docs:api: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
