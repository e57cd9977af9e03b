/**
 * The ReDoS attack of issue 33, as the chaos section (dev/chaos/sections/redos.ts) and the
 * integration test (test/integration/redos-frames.test.ts) run it: a real gateway process
 * (`tablegw start`), a real Mosquitto, two tables. Table `redos-a` reads its shoe over a real pty
 * through a device profile with the catastrophic message pattern `(a+)+$`; the line then carries
 * a stream of 45-byte frames `aaa...a!` (each one froze a backtracking gateway for good) and
 * 10 KB lines. Table `calm-b` deals from a simulated shoe at its normal pace meanwhile.
 * Every table publishes `health` every 500 ms: a table whose messages stop for FROZEN_MS during
 * the attack is frozen. The figures: frozen tables (must be 0), the calm table's card pace
 * before and during the attack, and the rejects the attacked table counted.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMosquitto } from '../rig/mosquitto.js';
import { createPtyPair } from '../rig/pty-pair.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { kill, runCli, Subscriber } from './gateway-rig.js';

export const ATTACKED = 'redos-a';
export const CALM = 'calm-b';
/** a table silent this long (ms) while the health interval is 500 ms is frozen */
export const FROZEN_MS = 2500;

/** the attacked shoe's profile: a card message and the catastrophic one */
const EVIL_PROFILE = `# a profile as an installer might write it: the second message is catastrophic on a backtracking engine
name: evil-shoe
talker: SHOE
framing: { end: "\\n" }
messages:
  - { name: card, pattern: "SHOE,(?<seq>\\\\d{1,5}),CARD,(?<card>[A2-9TJQK][SHDC])", type: CARD, seq: seq }
  - { name: evil, pattern: "(a+)+$", type: HB }
`;

/** 44 \`a\`s and a \`!\`: 45 bytes (2^44 paths for a backtracking engine), then the delimiter */
export const REDOS_FRAME = `${'a'.repeat(44)}!\n`;
/** a 10 KB line of the same kind: over maxLength (128), a too-long reject before any pattern */
export const LONG_FRAME = `${'a'.repeat(10_240)}!\n`;

export interface RedosFigures {
  'frozen tables': number;
  'redos frames sent': number;
  '10 KB frames sent': number;
  /** the calm table's card events per second before the attack and during it (x100, integers) */
  'calm cards/s before (x100)': number;
  'calm cards/s during (x100)': number;
  /** the longest silence of each table during the attack (ms) */
  'attacked table longest silence ms': number;
  'calm table longest silence ms': number;
  /** rejects of the attacked shoe counted in its bad-frame alerts */
  'rejects counted': number;
  /** hostile frames sent that no bad-frame alert counted (each must be decoded and rejected) */
  'frames not rejected': number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** the longest gap (ms) between a table's messages received in [from, to], the ends included */
function longestSilence(times: number[], from: number, to: number): number {
  let last = from;
  let longest = 0;
  for (const t of times) {
    if (t < from || t > to) continue;
    longest = Math.max(longest, t - last);
    last = t;
  }
  return Math.max(longest, to - last);
}

export async function runRedosAttack(o: {
  attackMs: number;
  baselineMs: number;
  log: (line: string) => void;
}): Promise<{ figures: RedosFigures; notes: string[] }> {
  const dir = await makeTempDir('teg-redos-');
  const broker = await startMosquitto();
  const pty = await createPtyPair();
  const profileFile = join(dir, 'evil-shoe.yaml');
  writeFileSync(profileFile, EVIL_PROFILE);
  const cfgFile = join(dir, 'gateway.json');
  writeFileSync(
    cfgFile,
    JSON.stringify({
      mqtt: { url: broker.url },
      dataDir: join(dir, 'data'),
      http: { enabled: false },
      health: { intervalMs: 500 },
      tables: [
        {
          id: ATTACKED,
          game: 'baccarat',
          betting: 'none',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', profile: profileFile, staleAfterMs: 600_000, transport: { type: 'serial', path: pty.gatewayPath } }],
        },
        {
          id: CALM,
          game: 'baccarat',
          betting: 'none',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator', seed: 3, cardIntervalMs: 100, roundIntervalMs: 300 } }],
        },
      ],
    }),
  );
  const sub = await Subscriber.connect(broker.url, `redos-${process.pid}-${Date.now()}`);
  /** receive time of every message, by table */
  const times = new Map<string, number[]>([
    [ATTACKED, []],
    [CALM, []],
  ]);
  const cardTimes: number[] = [];
  sub.client.on('message', (topic, payload) => {
    const now = Date.now();
    times.get(topic.split('/')[1])?.push(now);
    if (topic !== `casino/${CALM}/events`) return;
    try {
      if ((JSON.parse(payload.toString('utf8')) as { kind?: unknown }).kind === 'card') cardTimes.push(now);
    } catch {
      // not JSON: not a card event
    }
  });
  const run = runCli(['start', '--config', cfgFile]);
  const notes: string[] = [];
  try {
    await sub.waitFor((m) => m.topic === `casino/${ATTACKED}/devices/shoe-1` && m.payload?.state === 'connected', 30_000);
    await sub.waitFor((m) => m.topic === `casino/${CALM}/events` && m.payload?.kind === 'card', 30_000);
    // the calm table's normal pace
    const b0 = Date.now();
    await sleep(o.baselineMs);
    const b1 = Date.now();
    // the attack: 45-byte frames and 10 KB lines on the attacked table's line, for attackMs
    let redos = 0;
    let long = 0;
    const a0 = Date.now();
    // a write waits for the line to drain: a gateway that stops reading (frozen) holds it, so
    // each write is bounded by the attack's end (a frozen gateway must not hang the attacker)
    const written = async (bytes: string): Promise<boolean> => {
      const left = o.attackMs - (Date.now() - a0);
      return left > 0 && (await Promise.race([pty.write(bytes).then(() => true), sleep(left).then(() => false)]));
    };
    while (Date.now() - a0 < o.attackMs) {
      if (!(await written(REDOS_FRAME.repeat(20)))) break;
      redos += 20;
      if (!(await written(LONG_FRAME))) break;
      long++;
      await sleep(20);
    }
    if (Date.now() - a0 < o.attackMs) await sleep(o.attackMs - (Date.now() - a0));
    const a1 = Date.now();
    // what the attacked table said about its line (bad-frame alerts, at most one a second)
    await sleep(2500);
    const rejects = sub.got
      .filter((m) => m.topic === `casino/${ATTACKED}/alerts` && m.payload?.kind === 'bad-frame')
      .reduce((n, m) => n + Number(m.payload?.count ?? 0), 0);
    const rate = (from: number, to: number) => Math.round((cardTimes.filter((t) => t >= from && t <= to).length / ((to - from) / 1000)) * 100);
    const silence = (t: string) => longestSilence(times.get(t)!, a0, a1);
    const frozen = [ATTACKED, CALM].filter((t) => silence(t) > FROZEN_MS).length;
    const figures: RedosFigures = {
      'frozen tables': frozen,
      'redos frames sent': redos,
      '10 KB frames sent': long,
      'calm cards/s before (x100)': rate(b0, b1),
      'calm cards/s during (x100)': rate(a0, a1),
      'attacked table longest silence ms': silence(ATTACKED),
      'calm table longest silence ms': silence(CALM),
      'rejects counted': rejects,
      'frames not rejected': Math.max(0, redos + long - rejects),
    };
    o.log(
      `${redos} frames of 45 bytes and ${long} of 10 KB in ${((a1 - a0) / 1000).toFixed(1)} s; calm table ${(figures['calm cards/s before (x100)'] / 100).toFixed(1)} cards/s before, ${(figures['calm cards/s during (x100)'] / 100).toFixed(1)} during; longest silences ${figures['attacked table longest silence ms']} / ${figures['calm table longest silence ms']} ms; ${rejects} rejects counted`,
    );
    if (run.child.exitCode !== null) notes.push(`the gateway exited (${run.child.exitCode}): ${run.stderr().slice(-400)}`);
    return { figures, notes };
  } finally {
    // SIGKILL: a frozen gateway never handles SIGINT
    await kill(run, 'SIGKILL');
    await sub.client.endAsync(true);
    await Promise.race([pty.dispose(), sleep(5000)]);
    await broker.stop();
    await removeTempDir(dir);
  }
}
