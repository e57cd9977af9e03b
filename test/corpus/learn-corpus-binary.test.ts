/**
 * The profiles `tablegw profile learn` finds for the binary corpus formats read more than the deal
 * they were learned from: a whole deck (the length-prefixed shoe's card table comes from a rule
 * fitted to 17 cards), SEQs past 255 or wrapped (learned from a capture whose SEQ never passed 24) and a keno
 * draw of every ball, with line faults, exactly as the hand-written profiles do; and the Modbus-like
 * shoe is learned from a line where a master's polls sit between its answers.
 */
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { compileProfile, type DecodedItem } from '../../drivers/profiles/profile-decoder.js';
import { type DeviceProfile, loadProfileFile, validateProfile } from '../../drivers/profiles/profile-schema.js';
import { parseCapture } from '../../src/app/tools/capture-file.js';
import { learnProfile } from '../../src/app/tools/profile-learn.js';
import { checksum } from '../../drivers/profiles/checksums.js';
import { buildCapture, buildDeal, CORPUS, type CorpusEntry, type DealStep, describeItem } from '../../dev/corpus/index.js';

const faults: DealStep[] = [{ fault: 'noise' }, { fault: 'truncated' }, { fault: 'bad-check' }];

/** loaded, the 52 cards with a fault before every ninth, 300 heartbeats (SEQ past 255), a misread and two more cards */
function deckAndMore(): DealStep[] {
  const d: DealStep[] = [{ k: 'loaded' }];
  let i = 0;
  for (const s of 'SHDC')
    for (const r of 'A23456789TJQK') {
      if (i++ % 9 === 4) d.push(faults[i % 3]);
      d.push({ k: 'card', card: r + s });
    }
  for (let k = 0; k < 300; k++) d.push({ k: 'hb' });
  d.push({ k: 'card', card: 'TD' }, faults[1], { k: 'misread' }, { k: 'card', card: 'JC' });
  return d;
}

/** four draws of 20 balls, 1..80 in all, with faults, and heartbeats past SEQ 255 */
function everyBall(): DealStep[] {
  const d: DealStep[] = [];
  for (let draw = 0; draw < 4; draw++) {
    d.push({ k: 'start' });
    for (let b = 1; b <= 20; b++) {
      if (b % 7 === 0) d.push(faults[(b + draw) % 3]);
      d.push({ k: 'ball', n: draw * 20 + b });
    }
    d.push({ k: 'end' });
    for (let k = 0; k < 60; k++) d.push({ k: 'hb' });
  }
  return d;
}

function learned(e: CorpusEntry): DeviceProfile {
  const built = buildCapture(e);
  const r = learnProfile({ capture: parseCapture(built.text, e.name).chunks, script: built.script, kind: e.kind as never, name: e.name });
  if (r.exit !== 0) throw new Error(`${e.name}: learn exit ${r.exit}: ${r.reason}`);
  return validateProfile(`${e.name} (learned)`, parseYaml(r.yaml));
}

function decode(p: DeviceProfile, chunks: readonly Buffer[]): string[] {
  const d = compileProfile(p);
  const out: DecodedItem[] = [];
  for (const c of chunks) out.push(...d.push(c));
  out.push(...d.endOfStream());
  return out.map((i) => describeItem(i, true));
}

describe.each(['length-le-shoe', 'modbus-rtu-shoe', 'sync-keno'].map((n) => [n, CORPUS.find((e) => e.name === n)!] as const))(
  'the profile learned for %s on a deal it never saw',
  (_name, e) => {
    it('decodes every card (or ball) and SEQs past 255 (or wrapped) exactly as the hand-written profile', () => {
      const deal = e.kind === 'ball-reader' ? everyBall() : deckAndMore();
      const chunks = parseCapture(buildCapture(e, deal).text, e.name).chunks.map((c) => c.bytes);
      const want = decode(loadProfileFile(e.profilePath), chunks);
      expect(want.filter((x) => /^(CARD|BALL) /.test(x))).toHaveLength(e.kind === 'ball-reader' ? 80 : 54);
      // the SEQ went past 255 (a 16-bit SEQ) or wrapped to 0 (the keno reader's one byte)
      const seqs = want.flatMap((x) => /#(\d+)$/.exec(x)?.[1] ?? []).map(Number);
      expect(seqs.some((n) => n > 255 || n === 0)).toBe(true);
      expect(decode(learned(e), chunks)).toEqual(want);
    });
  },
);

describe('the Modbus-RTU-like shoe on a line a master polls', () => {
  it("is learned from a capture with the master's poll before every answer, and reads the answers as the hand-written profile does", () => {
    const e = CORPUS.find((x) => x.name === 'modbus-rtu-shoe')!;
    // read input registers 0..2 of slave 247, as a master on the same RS-485 pair sends it
    const request = [0xf7, 0x04, 0x00, 0x00, 0x00, 0x03];
    const c = checksum('crc16-modbus', request, 0, request.length);
    const poll = Buffer.from([...request, c & 0xff, c >> 8]);
    const built = buildDeal(e);
    const chunks = built.writes.map((w, i) => ({ t: i * 40, bytes: Buffer.concat([poll, w]) }));
    const r = learnProfile({ capture: chunks, script: built.script, kind: 'card-shoe' });
    if (r.exit !== 0) throw new Error(`learn exit ${r.exit}: ${r.reason}`);
    expect(r.notes[0]).toMatch(/^framing: start 0xf7, length field at 2 \(1 byte, payload\)/);
    const learnedProfile = validateProfile('learned', parseYaml(r.yaml));
    const bytes = chunks.map((x) => x.bytes);
    const want = decode(loadProfileFile(e.profilePath), bytes);
    expect(want.filter((x) => !x.startsWith('reject ')).length).toBe(built.expected.filter((x) => !x.startsWith('reject ')).length);
    expect(decode(learnedProfile, bytes)).toEqual(want);
    expect(decode(learnedProfile, [Buffer.concat(bytes)])).toEqual(want);
  });
});
