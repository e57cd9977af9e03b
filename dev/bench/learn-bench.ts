/**
 * `tablegw profile learn` on a two-deck capture (device-protocols.md §3.2; target: under 10 s on
 * the 2-core bench machine): for the shipped stx-etx-bcc-shoe and reference-shoe and the binary
 * formats of test/helpers/learn-formats.ts, a two-deck deal with a misread, noise and bad checks
 * written by the profile encoder, and text formats of the device corpus (dev/corpus/) written by
 * their own encoders, learned from scratch; prints the wall time of each and whether it learned;
 * then the binary corpus formats on two decks (or five keno draws) written by their independent
 * encoders with line faults. Run: npm run bench:learn
 */
import { type DeviceProfile, loadProfileFile } from '../../drivers/profiles/profile-schema.js';
import { dealCapture, shuffledDeck } from '../../simulators/devices/deal-capture.js';
import { parseCapture } from '../../src/app/tools/capture-file.js';
import { buildCapture, CORPUS, type CorpusEntry, type DealStep, fullDeckDeal } from '../corpus/index.js';
import { learnProfile } from '../../src/app/tools/profile-learn.js';
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
    `profile learn  ${`corpus ${e.name}`.padEnd(24)} ${e.kind === 'ball-reader' ? 'five draws' : 'two decks '}, ${String(chunks.length).padStart(4)} chunks, ${String(bytes).padStart(5)} bytes: ${ms.toFixed(0).padStart(6)} ms  exit ${r.exit}${r.exit === 0 ? '' : ` (${r.exit === 1 ? r.reason : r.tellApart.join('; ')})`}`,
  );
}
console.log(`profile learn  slowest ${worst.toFixed(0)} ms (target < ${LEARN_TARGET_MS} ms): ${worst < LEARN_TARGET_MS ? 'ok' : 'SLOW'}`);
