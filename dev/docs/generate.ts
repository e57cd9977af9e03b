/**
 * `npm run docs:api`: writes docs/asyncapi.json, docs/config.schema.json, docs/CONFIG.md and
 * docs/profile.schema.json (device profiles) from the zod schemas. Deterministic: the message
 * examples come from docs/api-examples.json (on a fixed clock), so running it twice, or in CI,
 * leaves no diff (.ci/run checks that).
 * `npm run docs:api -- --capture` records new examples from a fresh simulator run of the demo's
 * tables (fast mode, fixed seeds), puts them on the fixed clock and rewrites api-examples.json.
 */
import { PROJECT_ROOT } from '../../src/runtime/paths.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildAsyncApi, buildConfigReference, buildConfigSchema, pickExamples, toJsonText, type Examples } from './api-docs.js';
import { captureSimulatorMessages } from './capture.js';
import { buildProfileSchema } from './profile-json-schema.js';

const ROOT = PROJECT_ROOT;
export const ASYNCAPI_FILE = join(ROOT, 'docs', 'asyncapi.json');
export const CONFIG_SCHEMA_FILE = join(ROOT, 'docs', 'config.schema.json');
export const CONFIG_REFERENCE_FILE = join(ROOT, 'docs', 'CONFIG.md');
export const PROFILE_SCHEMA_FILE = join(ROOT, 'docs', 'profile.schema.json');
export const EXAMPLES_FILE = join(ROOT, 'docs', 'api-examples.json');

async function main(): Promise<void> {
  const capture = process.argv.includes('--capture') || !existsSync(EXAMPLES_FILE);
  let examples: Examples;
  if (capture) {
    const captured = await captureSimulatorMessages({ allTables: true });
    examples = pickExamples(captured);
    writeFileSync(EXAMPLES_FILE, toJsonText(examples));
    console.log(
      `captured ${captured.length} messages from the simulated demo tables; ${Object.keys(examples).length} message types have examples (${EXAMPLES_FILE})`,
    );
  } else {
    examples = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Examples;
  }
  writeFileSync(ASYNCAPI_FILE, toJsonText(buildAsyncApi(examples)));
  writeFileSync(CONFIG_SCHEMA_FILE, toJsonText(buildConfigSchema()));
  writeFileSync(CONFIG_REFERENCE_FILE, buildConfigReference());
  writeFileSync(PROFILE_SCHEMA_FILE, toJsonText(buildProfileSchema()));
  console.log(`wrote ${ASYNCAPI_FILE}, ${CONFIG_SCHEMA_FILE}, ${CONFIG_REFERENCE_FILE} and ${PROFILE_SCHEMA_FILE}`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`docs:api: ${(e as Error).stack ?? String(e)}`);
    process.exit(1);
  },
);
