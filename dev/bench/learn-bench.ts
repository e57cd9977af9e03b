/**
 * `tablegw profile learn` on a two-deck capture (device-protocols.md §3.2; target: under 10 s on
 * the 2-core bench machine): for the shipped stx-etx-bcc-shoe and reference-shoe and the binary
 * formats of test/helpers/learn-formats.ts, a two-deck deal with a misread, noise and bad checks
 * written by the profile encoder, and text formats of the device corpus (dev/corpus/) written by
 * their own encoders, learned from scratch; prints the wall time of each and whether
 * it learned. Run: npm run bench:learn
 */
import { type DeviceProfile, loadProfileFile } from '../../drivers/profiles/profile-schema.js';
import { dealCapture } from '../../simulators/devices/deal-capture.js';
import { learnProfile } from '../../src/app/tools/profile-learn.js';
import { parseCapture } from '../../src/app/tools/capture-file.js';
import { buildCapture, CORPUS, fullDeckDeal } from '../corpus/index.js';
import { dleCrcShoe, learnDeal, lengthTableShoe } from '../../test/helpers/learn-formats.js';

export const LEARN_TARGET_MS = 10_000;

const formats: Array<[string, DeviceProfile]> = [
  ['stx-etx-bcc-shoe', loadProfileFile('drivers/profiles/shipped/stx-etx-bcc-shoe.yaml')],
  ['reference-shoe', loadProfileFile('drivers/profiles/shipped/reference-shoe.yaml')],
  ['dle-crc16 binary', dleCrcShoe],
  ['length-prefixed + table', lengthTableShoe],
];

let worst = 0;
for (const [name, profile] of formats) {
  const cap = dealCapture(profile, learnDeal(7, 2), { noise: 6, badChecks: 4, seed: 5 });
  const bytes = cap.chunks.reduce((n, c) => n + c.bytes.length, 0);
  const t0 = performance.now();
  const r = learnProfile({ capture: cap.chunks, script: cap.script });
  const ms = performance.now() - t0;
  worst = Math.max(worst, ms);
  console.log(
    `profile learn  ${name.padEnd(24)} two decks, ${String(cap.chunks.length).padStart(4)} chunks, ${String(bytes).padStart(5)} bytes: ${ms.toFixed(0).padStart(6)} ms  exit ${r.exit}${r.exit === 0 ? '' : ` (${r.exit === 1 ? r.reason : r.tellApart.join('; ')})`}`,
  );
}
// corpus formats (dev/corpus/), written by their independent encoders: two whole decks with line faults
for (const name of ['ascii-crlf-shoe', 'decimal-sum-shoe', 'table-char-shoe']) {
  const e = CORPUS.find((x) => x.name === name)!;
  const built = buildCapture(e, [...fullDeckDeal(), ...fullDeckDeal().filter((s) => !('k' in s) || s.k !== 'loaded')]);
  const chunks = parseCapture(built.text, name).chunks;
  const bytes = chunks.reduce((n, c) => n + c.bytes.length, 0);
  const t0 = performance.now();
  const r = learnProfile({ capture: chunks, script: built.script, kind: 'card-shoe' });
  const ms = performance.now() - t0;
  worst = Math.max(worst, ms);
  console.log(
    `profile learn  ${`corpus ${name}`.padEnd(24)} two decks, ${String(chunks.length).padStart(4)} chunks, ${String(bytes).padStart(5)} bytes: ${ms.toFixed(0).padStart(6)} ms  exit ${r.exit}${r.exit === 0 ? '' : ` (${r.exit === 1 ? r.reason : r.tellApart.join('; ')})`}`,
  );
}
console.log(`profile learn  slowest ${worst.toFixed(0)} ms (target < ${LEARN_TARGET_MS} ms): ${worst < LEARN_TARGET_MS ? 'ok' : 'SLOW'}`);
