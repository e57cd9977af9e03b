/**
 * `tablegw profile learn` on a two-deck capture (device-protocols.md §3.2; target: under 10 s on
 * the 2-core bench machine): for the shipped stx-etx-bcc-shoe and reference-shoe and the binary
 * formats of test/helpers/learn-formats.ts, a two-deck deal with a misread, noise and bad checks
 * written by the profile encoder, and text formats of the device corpus (dev/corpus/) written by
 * their own encoders, learned from scratch; prints the wall time of each and whether it learned;
 * then the binary corpus formats on two decks (or five keno draws), the HID card reader on two
 * decks of reports and the bit-field dice reader on 200 rolls, written by their independent
 * encoders with line faults. Run: npm run bench:learn
 */
import { type DeviceProfile, loadProfileFile } from '../../drivers/profiles/profile-schema.js';
import { dealCapture, shuffledDeck } from '../../simulators/devices/deal-capture.js';
import { parseCapture } from '../../src/app/tools/capture-file.js';
import { buildCapture, buildDeal, CORPUS, type CorpusEntry, type DealStep, fullDeckDeal } from '../corpus/index.js';
import { type LearnKind, learnProfile } from '../../src/app/tools/profile-learn.js';
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

/** two decks (a ball reader: five draws of 20) with a heartbeat, noise, cut-short frames and bad checks among them */
function twoDecks(e: CorpusEntry): DealStep[] {
  const faults: DealStep[] = [{ fault: 'noise' }, { fault: 'truncated' }, { fault: 'bad-check' }];
  const steps: DealStep[] = [{ k: 'hb' }, { fault: 'noise' }];
  if (e.kind === 'ball-reader') {
    for (let d = 0; d < 5; d++) {
      const balls = Array.from({ length: 80 }, (_, i) => i + 1);
      let x = 17 * (d + 1);
      for (let i = balls.length - 1; i > 0; i--) {
        x = (x * 1103515245 + 12345) % 2147483648;
        const j = x % (i + 1);
        [balls[i], balls[j]] = [balls[j], balls[i]];
      }
      steps.push({ k: 'start' });
      balls.slice(0, 20).forEach((n, i) => {
        if (i % 7 === 3) steps.push(faults[(i + d) % 3]);
        steps.push({ k: 'ball', n });
      });
      steps.push({ k: 'end' }, { k: 'hb' });
    }
    return steps;
  }
  steps.push({ k: 'loaded' });
  shuffledDeck(7, 2).forEach((card, i) => {
    if (i === 9) steps.push({ k: 'misread' });
    if (i % 8 === 5) steps.push(faults[i % 3]);
    if (i % 12 === 11) steps.push({ k: 'hb' });
    steps.push({ k: 'card', card });
  });
  steps.push({ k: 'hb' });
  return steps;
}

for (const e of CORPUS.filter((x) => ['length-le-shoe', 'sync-keno', 'modbus-rtu-shoe'].includes(x.name))) {
  const built = buildCapture(e, twoDecks(e));
  const chunks = parseCapture(built.text, e.name).chunks;
  const bytes = chunks.reduce((n, c) => n + c.bytes.length, 0);
  const t0 = performance.now();
  const r = learnProfile({ capture: chunks, script: built.script, kind: e.kind as never });
  const ms = performance.now() - t0;
  worst = Math.max(worst, ms);
  console.log(
    `profile learn  ${`corpus ${e.name}`.padEnd(24)} ${`${e.kind === 'ball-reader' ? 'five draws' : 'two decks'},`.padEnd(11)}${String(chunks.length).padStart(4)} chunks, ${String(bytes).padStart(5)} bytes: ${ms.toFixed(0).padStart(6)} ms  exit ${r.exit}${r.exit === 0 ? '' : ` (${r.exit === 1 ? r.reason : r.tellApart.join('; ')})`}`,
  );
}
// corpus formats written by their independent encoders: the HID card reader (one report per chunk,
// two decks) and the bit-field dice reader (200 rolls and no-reads), each with line faults
const hid = CORPUS.find((e) => e.name === 'hid-card-reader')!;
const dice = CORPUS.find((e) => e.name === 'bitfield-dice')!;
const hidSteps: DealStep[] = [{ k: 'loaded' }, { k: 'hb' }];
shuffledDeck(7, 2).forEach((card, i) => {
  if (i % 17 === 3) hidSteps.push({ fault: 'noise' });
  if (i % 19 === 5) hidSteps.push({ fault: 'bad-check' });
  if (i === 40) hidSteps.push({ k: 'misread' });
  if (i % 8 === 7) hidSteps.push({ k: 'hb' }, { k: 'hb' });
  hidSteps.push({ k: 'card', card });
});
const diceSteps: DealStep[] = [{ k: 'hb' }];
for (let i = 0; i < 200; i++) {
  if (i % 23 === 4) diceSteps.push({ fault: 'noise' });
  if (i % 29 === 6) diceSteps.push({ fault: 'bad-check' });
  if (i % 10 === 9) diceSteps.push({ k: 'hb' });
  diceSteps.push(i % 13 === 5 ? { k: 'noread' } : { k: 'roll', dice: [1 + (i % 6), 1 + ((i * 5 + 2) % 6), 1 + ((i * 7 + 3) % 6)], bounces: (i * 13) % 32 });
}
const corpusCaptures: Array<[string, CorpusEntry, DealStep[]]> = [
  ['hid-card-reader (corpus)', hid, hidSteps],
  ['bitfield-dice (corpus)', dice, diceSteps],
];
for (const [name, e, steps] of corpusCaptures) {
  const d = buildDeal(e, steps);
  const chunks = d.writes.map((bytes, k) => ({ t: k * 40, bytes }));
  const bytes = chunks.reduce((n, c) => n + c.bytes.length, 0);
  const t0 = performance.now();
  const r = learnProfile({ capture: chunks, script: d.script, kind: e.kind as LearnKind, transport: e.encoder.reportBytes !== undefined ? 'hid' : 'serial' });
  const ms = performance.now() - t0;
  worst = Math.max(worst, ms);
  console.log(
    `profile learn  ${name.padEnd(24)} ${e.kind === 'dice-sensor' ? '200 rolls' : 'two decks'}, ${String(chunks.length).padStart(4)} chunks, ${String(bytes).padStart(5)} bytes: ${ms.toFixed(0).padStart(6)} ms  exit ${r.exit}${r.exit === 0 ? '' : ` (${r.exit === 1 ? r.reason : r.tellApart.join('; ')})`}`,
  );
}
console.log(`profile learn  slowest ${worst.toFixed(0)} ms (target < ${LEARN_TARGET_MS} ms): ${worst < LEARN_TARGET_MS ? 'ok' : 'SLOW'}`);
