/**
 * How much slower a short piece of the gateway's own code runs when the CPU has been away from it,
 * on this machine at this moment: one baccarat `step()` on the next frame of a real shoe plus the
 * JSON of its published envelopes, timed one at a time
 *
 * - back to back (`warm`): the code and its data stay in the core's caches;
 * - once every 1 ms and once every 25 ms (`every1ms`, `every25ms`), the thread asleep in between,
 *   as the gateway is between the cards of the 20 cards/s series.
 *
 * Run in its own process by dev/bench/latency.ts right after the 20 cards/s series, so that it sees
 * the host as that series did. On the project's shared VM the 25 ms figure was 4-5x the warm one
 * even when the thread spun in between instead of sleeping (a scratch variant): what is lost in
 * 25 ms is the caches' and predictors' content, which the host's other work replaces, not time
 * spent waking up. It says how much of the gateway's main-thread time at 20 cards/s (the stages
 * from `codec` to `queueToFlush`, against the same stages at 1,000 cards/s) is this effect.
 * Prints one JSON object on stdout.
 */
import { baccaratScript, baccaratSettings, stepLoop } from './lib/baccarat-script.js';
import { round3 } from './lib/stats.js';

const quick = process.argv.includes('--quick');
const settings = baccaratSettings();
const loop = stepLoop(settings, baccaratScript(settings, 4), 'json');
let sink = 0;

/** one card's worth of the main thread's pure work, timed: the machine's step and the JSON of what it publishes */
function one(): number {
  const t0 = performance.now();
  sink += loop.run(1);
  return performance.now() - t0;
}

function p50Us(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return round3(s[Math.floor(s.length / 2)] * 1000);
}

async function spaced(n: number, gapMs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    await new Promise((r) => setTimeout(r, gapMs));
    out.push(one());
  }
  return out;
}

// JIT: every kind of frame of a shoe through step() many times
for (let i = 0; i < 20_000; i++) one();
const warm: number[] = [];
for (let i = 0; i < 2000; i++) warm.push(one());
const every1ms = await spaced(quick ? 200 : 1000, 1);
const every25ms = await spaced(quick ? 60 : 200, 25);
const warmUs = p50Us(warm);
const result = {
  what: 'one baccarat step() + the JSON of its envelopes, p50 in microseconds',
  warmUs,
  every1msUs: p50Us(every1ms),
  every25msUs: p50Us(every25ms),
  factor25ms: warmUs > 0 ? Math.round((p50Us(every25ms) / warmUs) * 100) / 100 : null,
  samples: { warm: warm.length, every1ms: every1ms.length, every25ms: every25ms.length },
};
if (sink === 0.5) console.error('');
console.log(JSON.stringify(result));
