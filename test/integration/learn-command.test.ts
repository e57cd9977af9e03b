import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadProfileFile } from '../../drivers/profiles/profile-schema.js';
import { dleCrc16Shoe } from '../../dev/corpus/encoders.js';
import { dealCapture, shuffledDeck } from '../../simulators/devices/deal-capture.js';
import { profileWire } from '../../simulators/devices/wire.js';
import { parseCapture } from '../../src/app/tools/capture-file.js';
import { parseScript } from '../../src/app/tools/learn/script.js';
import { decodeCapture } from '../../src/app/tools/profile-check.js';
import { createPtyPair, type PtyPair } from '../../dev/rig/pty-pair.js';
import { cleanupTempDirs, makeTempDir } from '../../dev/rig/temp-dir.js';
import { killStartedCommands, ROOT, type RunningCommand, startTablegw, tablegw } from '../helpers/tablegw-cli.js';
import { realIoOrSkip } from '../helpers/real-io.js';

afterAll(cleanupTempDirs);

const io = realIoOrSkip('socat');
const SHOE = loadProfileFile(join(ROOT, 'drivers/profiles/shipped/stx-etx-bcc-shoe.yaml'));

type Run = RunningCommand;

const ptys: PtyPair[] = [];
const timers: NodeJS.Timeout[] = [];
afterEach(async () => {
  for (const t of timers.splice(0)) clearInterval(t);
  // a failed test must not leave a learn holding the pty (it opens the port exclusively)
  killStartedCommands();
  for (const p of ptys.splice(0)) await p.dispose();
});

const learn = (args: string[]): Run => startTablegw(['learn', ...args]);

/** waits for `ok`; fails at once if the command has exited (the output says why) */
async function waitUntil(what: string, ok: () => boolean, r: Run, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (r.child.exitCode !== null) throw new Error(`exited ${r.child.exitCode} before ${what}; output:\n${r.out()}`);
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; output:\n${r.out()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const count = (text: string, needle: string): number => text.split(needle).length - 1;

/** a shoe on the device end of the pty, speaking the profile's format: a heartbeat every 400 ms, frames on demand */
function shoe(pty: PtyPair) {
  const wire = profileWire(SHOE);
  let seq = 1;
  const send = async (type: string, fields: string[] = []): Promise<void> => {
    const b = wire.encode('SHOE', seq, type, fields);
    if (!b) throw new Error(`cannot encode ${type}`);
    seq++;
    await pty.write(Buffer.isBuffer(b) ? b : Buffer.from(b, 'latin1'));
  };
  timers.push(setInterval(() => void send('HB').catch(() => {}), 400));
  return { send, noise: () => pty.write(Buffer.from(wire.noise())) };
}

describe.skipIf(!io.available)('tablegw learn over a real pty', () => {
  it('guides a technician through a deal, asks for a misread, and writes a profile that decodes a fresh deal right', async () => {
    const pty = await createPtyPair();
    ptys.push(pty);
    const dev = shoe(pty);
    const dir = await makeTempDir('teg-learn-live-');
    const out = join(dir, 'my-shoe.yaml');
    const r = learn([pty.gatewayPath, '--kind', 'card-shoe', '--out', out, '--idle-seconds', '1.5']);
    const heardRows = (): number => count(r.out(), '\n  heard ') - 1; // minus the column titles
    await waitUntil('the idle step', () => r.out().includes('Leave the shoe idle for 1.5 s'), r);
    await waitUntil('the load step', () => r.out().includes('Load the shoe'), r);
    expect(r.out()).toMatch(/Heard \d+ frame\(s\) while idle/);
    // the heartbeat as a hex row: STX, the SEQ digits, ",H", ETX, the BCC
    expect(r.out()).toMatch(/ {2}heard +1 +[\d.]+ +0{8} {2}02 (?:3\d )+2c 48 03 [0-9a-f]{2} +\.\d+,H\../);
    const before = heardRows();
    await dev.send('STATE', ['LOADED']);
    await waitUntil('the load heard', () => heardRows() > before, r);
    r.type('');
    await waitUntil('the deal step', () => r.out().includes('Deal the cards one by one'), r);
    const deck = shuffledDeck(41);
    for (const [k, card] of deck.entries()) {
      if (k === 17) await dev.noise();
      const rows = heardRows();
      await dev.send('CARD', [card]);
      await waitUntil(`card ${k + 1} heard`, () => heardRows() > rows, r);
      // the technician types as printed on the card: 10H for a ten, lower case now and then
      r.type(k % 5 === 0 ? card.replace(/^T/, '10').toLowerCase() : card.replace(/^T/, '10'));
    }
    // the technician sees the cut card come out; this shoe does not report it
    r.type('CUT');
    await waitUntil('the last entry', () => r.out().includes('(cards so far: 52;'), r);
    r.type('done');
    await waitUntil('the misread step', () => r.out().includes('Cause a misread'), r, 60_000);
    expect(r.out()).toContain('The learner says: include a misread');
    await dev.send('MISREAD');
    r.type('misread');
    await waitUntil('the rescan prompt', () => r.out().includes('Now rescan the card'), r);
    await dev.send('CARD', ['7D', 'R']);
    await new Promise((res) => setTimeout(res, 100));
    r.type('7D');
    const code = await r.exited;
    expect(code, r.out()).toBe(0);
    expect(r.out()).toContain(`profile written to ${out}`);

    // the files: the profile, the capture, the script of what was dealt (the CUT the shoe never sent left out)
    const capture = parseCapture(readFileSync(join(dir, 'my-shoe.capture.jsonl'), 'utf8'));
    expect(capture.header.port).toBe(pty.gatewayPath);
    const script = parseScript(readFileSync(join(dir, 'my-shoe.deal.txt'), 'utf8'));
    expect(script.ok && script.events.map((e) => (e.type === 'CARD' ? (e.rescan ? `RESCAN:${e.card}` : e.card) : e.type))).toEqual([
      'STATE',
      ...deck,
      'MISREAD',
      'RESCAN:7D',
    ]);
    const learned = loadProfileFile(out);
    expect(learned.name).toBe('my-shoe');

    // a fresh deal with line faults decodes to exactly its cards through the learned profile
    const fresh = shuffledDeck(42);
    const steps = ['LOADED', ...fresh.slice(0, 20), 'MISREAD', `RESCAN:${fresh[20]}`, ...fresh.slice(21)];
    const deal = dealCapture(SHOE, steps, { seed: 5 });
    const decoded = decodeCapture(learned, deal.chunks);
    const got = decoded.items.flatMap((it) =>
      'frame' in it && it.frame.type !== 'HB'
        ? [it.frame.type === 'CARD' ? (it.frame.rescan ? `RESCAN:${it.frame.card}` : it.frame.card) : it.frame.type === 'STATE' ? 'LOADED' : it.frame.type]
        : [],
    );
    expect(got).toEqual(steps);
    expect(decoded.summary.rejects).toBeGreaterThan(0);

    // and the saved capture and script learn the same profile offline
    const offline = await tablegw(['profile', 'learn', join(dir, 'my-shoe.capture.jsonl'), '--deal', join(dir, 'my-shoe.deal.txt'), '--name', 'my-shoe']);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).toBe(readFileSync(out, 'utf8'));
  }, 120_000);

  it('a binary corpus shoe (DLE-stuffed, CRC-16 after DLE ETX, cards 1..52, no rescan message): the card after the misread is learned as a plain card', async () => {
    const pty = await createPtyPair();
    ptys.push(pty);
    // the corpus encoder, written independently of the profile engine; the SEQ wraps at 255
    let seq = 1;
    const send = async (e: Parameters<typeof dleCrc16Shoe.frame>[0], damaged = false): Promise<void> => {
      const f = dleCrc16Shoe.frame(e, seq)!;
      if (!damaged) seq = dleCrc16Shoe.next(seq);
      await pty.write(damaged ? dleCrc16Shoe.badCheck(f) : f);
    };
    timers.push(setInterval(() => void send({ k: 'hb' }).catch(() => {}), 400));
    const dir = await makeTempDir('teg-learn-live-');
    const out = join(dir, 'dle-shoe.yaml');
    const r = learn([pty.gatewayPath, '--out', out, '--idle-seconds', '1.2']);
    const heardRows = (): number => count(r.out(), '\n  heard ') - 1;
    await waitUntil('the load step', () => r.out().includes('Load the shoe'), r);
    // the heartbeat as a hex row: DLE STX 03 <seq> DLE ETX <crc lo> <crc hi>
    expect(r.out()).toMatch(/ {2}heard +1 +[\d.]+ +0{8} {2}10 02 03 [0-9a-f]{2} 10 03 [0-9a-f]{2} [0-9a-f]{2} /);
    let before = heardRows();
    await send({ k: 'loaded' });
    await waitUntil('the load heard', () => heardRows() > before, r);
    r.type('');
    await waitUntil('the deal step', () => r.out().includes('Deal the cards one by one'), r);
    const deck = shuffledDeck(43);
    for (const [k, card] of deck.entries()) {
      if (k === 9) await pty.write(dleCrc16Shoe.noise());
      if (k === 30) await send({ k: 'card', card }, true);
      before = heardRows();
      await send({ k: 'card', card });
      await waitUntil(`card ${k + 1} heard`, () => heardRows() > before, r);
      r.type(card);
    }
    await waitUntil('the last entry', () => r.out().includes('(cards so far: 52;'), r);
    r.type('done');
    await waitUntil('the misread step', () => r.out().includes('Cause a misread'), r, 60_000);
    // this shoe has no rescan: the card is dealt again and read as a card
    await send({ k: 'misread' });
    r.type('MISREAD');
    await waitUntil('the rescan prompt', () => r.out().includes('Now rescan the card'), r);
    before = heardRows();
    await send({ k: 'card', card: 'JD' });
    await waitUntil('the card heard', () => heardRows() > before, r);
    r.type('jd');
    const code = await r.exited;
    expect(code, r.out()).toBe(0);
    const script = parseScript(readFileSync(join(dir, 'dle-shoe.deal.txt'), 'utf8'));
    expect(script.ok && script.events.map((e) => (e.type === 'CARD' ? (e.rescan ? `RESCAN:${e.card}` : e.card) : e.type))).toEqual([
      'STATE',
      ...deck,
      'MISREAD',
      'JD',
    ]);
    // a fresh deal in the corpus encoder's bytes, with noise and a damaged frame, decodes to exactly its cards
    const learned = loadProfileFile(out);
    const fresh = shuffledDeck(44);
    let s2 = 200;
    const bytes: Buffer[] = [];
    for (const [k, card] of fresh.entries()) {
      if (k === 5) bytes.push(dleCrc16Shoe.noise());
      if (k === 12) bytes.push(dleCrc16Shoe.badCheck(dleCrc16Shoe.frame({ k: 'card', card: '2C' }, s2)!));
      if (k % 10 === 0) {
        bytes.push(dleCrc16Shoe.frame({ k: 'hb' }, s2)!);
        s2 = dleCrc16Shoe.next(s2);
      }
      bytes.push(dleCrc16Shoe.frame({ k: 'card', card }, s2)!);
      s2 = dleCrc16Shoe.next(s2);
    }
    const decoded = decodeCapture(learned, [{ t: 0, bytes: Buffer.concat(bytes) }]);
    const cards = decoded.items.flatMap((it) => ('frame' in it && it.frame.type === 'CARD' ? [it.frame.card] : []));
    expect(cards).toEqual(fresh);
    expect(decoded.summary.rejects).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it('a device that says nothing: exit 1 saying nothing was heard, no profile', async () => {
    const pty = await createPtyPair();
    ptys.push(pty);
    const dir = await makeTempDir('teg-learn-live-');
    const out = join(dir, 'silent.yaml');
    const r = learn([pty.gatewayPath, '--out', out, '--idle-seconds', '0.3']);
    await waitUntil('the load step', () => r.out().includes('Load the shoe'), r);
    expect(r.out()).toContain('Nothing heard while idle');
    r.type('');
    await waitUntil('the deal step', () => r.out().includes('Deal the cards'), r);
    r.type('AS KD');
    r.type('done');
    expect(await r.exited).toBe(1);
    expect(r.out()).toContain(`nothing was heard from ${pty.gatewayPath}`);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('the device unplugged mid-deal: exit 1 saying so, no profile; the capture and the script keep what came', async () => {
    const pty = await createPtyPair();
    ptys.push(pty);
    const dev = shoe(pty);
    const dir = await makeTempDir('teg-learn-live-');
    const out = join(dir, 'pulled.yaml');
    const r = learn([pty.gatewayPath, '--out', out, '--idle-seconds', '0.5']);
    await waitUntil('the load step', () => r.out().includes('Load the shoe'), r);
    r.type('skip');
    await waitUntil('the deal step', () => r.out().includes('Deal the cards'), r);
    await dev.send('CARD', ['QS']);
    r.type('QS');
    await waitUntil('the card', () => r.out().includes('cards so far: 1'), r);
    for (const t of timers.splice(0)) clearInterval(t);
    await pty.close(); // the cable is pulled: socat and the pty go away
    expect(await r.exited).toBe(1);
    expect(r.out()).toContain(`the device went away: ${pty.gatewayPath} closed (device unplugged?); no profile written`);
    expect(existsSync(out)).toBe(false);
    const script = parseScript(readFileSync(join(dir, 'pulled.deal.txt'), 'utf8'));
    expect(script.ok && script.events).toEqual([{ type: 'CARD', card: 'QS', rescan: false }]);
  }, 60_000);

  it('Ctrl-C leaves no profile; the capture and the script keep what was recorded', async () => {
    const pty = await createPtyPair();
    ptys.push(pty);
    const dev = shoe(pty);
    const dir = await makeTempDir('teg-learn-live-');
    const out = join(dir, 'cut-short.yaml');
    const r = learn([pty.gatewayPath, '--out', out, '--idle-seconds', '0.5']);
    await waitUntil('the load step', () => r.out().includes('Load the shoe'), r);
    r.type('skip');
    await waitUntil('the deal step', () => r.out().includes('Deal the cards'), r);
    for (const card of ['AS', 'KD', 'TH']) {
      await dev.send('CARD', [card]);
      r.type(card);
    }
    await waitUntil('the third card', () => r.out().includes('cards so far: 3'), r);
    // the three frames have reached the capture (the OS may hand the typed lines over first)
    const captured = (): string =>
      existsSync(join(dir, 'cut-short.capture.jsonl'))
        ? Buffer.concat(parseCapture(readFileSync(join(dir, 'cut-short.capture.jsonl'), 'utf8')).chunks.map((c) => c.bytes)).toString('latin1')
        : '';
    await waitUntil('the three frames captured', () => ['AS', 'KD', '10H'].every((c) => captured().includes(`,C,${c}\x03`)), r);
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(130);
    expect(r.out()).toContain('interrupted (SIGINT): no profile written');
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.${r.child.pid}.tmp`)).toBe(false);
    const script = parseScript(readFileSync(join(dir, 'cut-short.deal.txt'), 'utf8'));
    expect(script.ok && script.events.map((e) => (e.type === 'CARD' ? e.card : e.type))).toEqual(['AS', 'KD', 'TH']);
    // the capture still reads as a whole file after the interrupt
    expect(parseCapture(readFileSync(join(dir, 'cut-short.capture.jsonl'), 'utf8')).header.port).toBe(pty.gatewayPath);
  }, 60_000);
});

describe('tablegw learn: bad arguments', () => {
  it('an absent port is exit 1 naming it; a bad --kind is exit 2; an existing file is never overwritten (exit 2)', async () => {
    const dir = await makeTempDir('teg-learn-live-');
    const absent = join(dir, 'no-such-tty');
    const a = await tablegw(['learn', absent, '--out', join(dir, 'a.yaml')]);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain(`cannot open ${absent}`);
    expect(existsSync(join(dir, 'a.yaml'))).toBe(false);
    const k = await tablegw(['learn', absent, '--kind', 'roulette']);
    expect(k.code).toBe(2);
    expect(k.stderr).toContain('--kind must be one of card-shoe, dice-sensor, ball-reader, shuffler (got "roulette")');
    // dice is the technician's word for the config's dice-sensor: the port is what fails
    const d = await tablegw(['learn', absent, '--kind', 'dice', '--out', join(dir, 'd.yaml')]);
    expect(d.code).toBe(1);
    expect(d.stderr).toContain(`cannot open ${absent}`);
    const h = await tablegw(['learn', 'hid:0c2e:0b61']);
    expect(h.code).toBe(2);
    expect(h.stderr).toContain('record a HID device with tablegw capture hid:VID:PID and learn it with tablegw profile learn');
    const exists = join(dir, 'taken.capture.jsonl');
    await import('node:fs').then((fs) => fs.writeFileSync(exists, 'keep me'));
    const e = await tablegw(['learn', absent, '--out', join(dir, 'taken.yaml')]);
    expect(e.code).toBe(2);
    expect(e.stderr).toContain(`${exists} already exists`);
    expect(readFileSync(exists, 'utf8')).toBe('keep me');
  }, 60_000);
});
