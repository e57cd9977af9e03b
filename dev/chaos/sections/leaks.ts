/**
 * Leak capture (issue 12, games.md "no hidden value in any output before its reveal"): a real
 * gateway deals Pok Deng rounds (every card face down until the result) with line faults —
 * corrupted card frames, unexpected rescans of face-down cards, out-of-order reads while a rescan
 * is pending — and every channel is captured: MQTT, the status page's SSE feed, `/api/state`
 * and the recall `/api/tables/<id>/recall` (polled; a recalled round counts at its result's
 * `seq`), the gateway's log (debug). A leak is a hidden card's code in any of them before its
 * round's result (by `seq` for envelopes, by order for log lines). Zero column: leaks.
 */
import http from 'node:http';
import { freePort } from '../../rig/free-port.js';
import type { ChaosResult, ChaosSection } from '../section.js';
import { kill, makeRig, referenceLine, Shoe, startGatewayProcess, Subscriber } from '../gateway-rig.js';

const TABLE = 'leak-pd';
const RANKS = 'A23456789TJQK';
const SUITS = 'SHDC';
/** every card once, in a fixed shuffled order (so a code belongs to one round only) */
function deck(): string[] {
  const all: string[] = [];
  for (const s of SUITS) for (const r of RANKS) all.push(r + s);
  let x = 12345;
  for (let i = all.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    const j = x % (i + 1);
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all;
}

interface Env {
  seq: number;
  text: string;
}

function collectEnvelopes(v: unknown, out: Env[]): void {
  if (!v || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    for (const x of v) collectEnvelopes(x, out);
    return;
  }
  const o = v as Record<string, unknown>;
  if (typeof o.seq === 'number' && typeof o.type === 'string' && typeof o.table === 'string') {
    out.push({ seq: o.seq, text: JSON.stringify(o) });
    return;
  }
  for (const x of Object.values(o)) collectEnvelopes(x, out);
}

const hasCard = (text: string, c: string) => new RegExp(`(^|[^A-Za-z0-9])${c}([^A-Za-z0-9]|$)`).test(text);

const section: ChaosSection = {
  name: 'leaks',
  async run({ quick, log }): Promise<ChaosResult> {
    const port = await freePort();
    const rig = await makeRig(
      TABLE,
      { game: 'pok-deng', gameOptions: { players: 2 } },
      { http: { enabled: true, host: '127.0.0.1', port }, log: { level: 'debug' } },
    );
    const sub = await Subscriber.connect(rig.broker.url, 'leak-sub');
    const sse: Env[] = [];
    const api: Env[] = [];
    const recall: Env[] = [];
    let sseReq: http.ClientRequest | null = null;
    let polling = true;
    let g: Awaited<ReturnType<typeof startGatewayProcess>> | null = null;
    try {
      g = await startGatewayProcess(rig, sub, TABLE);
      if (g.exited !== undefined) throw new Error(`gateway exited ${g.exited}: ${g.run.stderr()}`);
      // the status page feed
      sseReq = http.get({ host: '127.0.0.1', port, path: '/events' }, (res) => {
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          buf += d;
          for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const data = block
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            if (data)
              try {
                collectEnvelopes(JSON.parse(data), sse);
              } catch {
                /* not JSON */
              }
          }
        });
      });
      sseReq.on('error', () => {});
      const poll = (async () => {
        while (polling) {
          await new Promise<void>((resolve) => {
            http
              .get({ host: '127.0.0.1', port, path: '/api/state' }, (res) => {
                let body = '';
                res.setEncoding('utf8');
                res.on('data', (d: string) => {
                  body += d;
                });
                res.on('end', () => {
                  try {
                    collectEnvelopes(JSON.parse(body), api);
                  } catch {
                    /* partial */
                  }
                  resolve();
                });
              })
              .on('error', () => resolve());
          });
          // the recall of past rounds: only rounds with a result, each counted at its result's seq
          await new Promise<void>((resolve) => {
            http
              .get({ host: '127.0.0.1', port, path: `/api/tables/${TABLE}/recall` }, (res) => {
                let body = '';
                res.setEncoding('utf8');
                res.on('data', (d: string) => {
                  body += d;
                });
                res.on('end', () => {
                  try {
                    for (const r of (JSON.parse(body) as { recall: Array<{ seq: number }> }).recall) recall.push({ seq: r.seq, text: JSON.stringify(r) });
                  } catch {
                    /* partial */
                  }
                  resolve();
                });
              })
              .on('error', () => resolve());
          });
          await new Promise((r) => setTimeout(r, 100));
        }
      })();

      const shoe = new Shoe(rig.pty);
      const cards = deck();
      const rounds: Array<{ hidden: string[]; resultSeq: number; roundId: string }> = [];
      const nRounds = quick ? 3 : 6;
      let faults = 0;
      for (let r = 0; r < nRounds; r++) {
        const mine = cards.splice(0, 8); // 1 burn + 6 cards + 1 spare for the out-of-order read
        const [ooo, ...dealt] = [mine[7], ...mine.slice(0, 7)];
        const results = sub.got.filter((m) => m.topic === `casino/${TABLE}/result`).length;
        for (let i = 0; i < dealt.length; i++) {
          const c = dealt[i];
          if (i === 2) {
            // a corrupted frame of a face-down card (same SEQ as the good one that follows)
            await shoe.raw(referenceLine(`SHOE,${shoe.seq},CARD,${c}`).replace(/\*[0-9A-F]{2}/, '*00'));
            faults++;
          }
          if (i === 4) {
            // a misread; a different card is shown while the rescan is pending (out of order); then the rescan
            await shoe.send('MISREAD');
            await shoe.send('CARD', ooo);
            await shoe.send('CARD', c, 'R');
            faults += 2;
            continue;
          }
          await shoe.send('CARD', c);
          if (i === 3) {
            // the dealer rescans a face-down card that was already dealt: unexpected
            for (let k = 0; k < 5; k++) await shoe.send('CARD', c, 'R');
            faults += 5;
          }
        }
        const res = await sub.waitFor((m) => m.topic === `casino/${TABLE}/result` && sub.got.filter((x) => x.topic === m.topic).indexOf(m) >= results, 15000);
        // the reveal point: the round's `reveal` event (in the result's step), else the result
        const reveal = sub.got.find((m) => m.topic === `casino/${TABLE}/events` && m.payload?.kind === 'reveal' && m.payload?.roundId === res.payload.roundId);
        rounds.push({ hidden: [...dealt, ooo], resultSeq: Math.min(res.payload.seq, reveal?.payload.seq ?? Infinity), roundId: res.payload.roundId });
        // the out-of-order card is never dealt in this round: it stays hidden until the end (never used again)
        log(`  round ${res.payload.roundId}: ${res.payload.status}, result seq ${res.payload.seq}`);
      }
      await new Promise((r) => setTimeout(r, 1200)); // coalesced alerts and the last polls
      polling = false;
      await poll;
      const mqttEnv: Env[] = sub.got
        .filter((m) => m.topic.startsWith(`casino/${TABLE}/`) && typeof m.payload?.seq === 'number')
        .map((m) => ({ seq: m.payload.seq, text: m.raw }));
      const logLines = g.run.stdout().split('\n').filter(Boolean);
      const leaksIn = (envs: Env[]) => {
        let n = 0;
        const seen = new Set<string>();
        for (const e of envs) {
          for (const rd of rounds) {
            for (const c of rd.hidden) {
              const isOoo = c === rd.hidden.at(-1);
              const before = isOoo ? true : e.seq < rd.resultSeq;
              // the out-of-order card is never dealt in this run: any mention of it is a leak
              if (before && hasCard(e.text, c) && !seen.has(`${e.seq}|${c}`)) {
                if (process.env.LEAKS_DEBUG) log(`  leak ${c}: ${e.text.slice(0, 300)}`);
                seen.add(`${e.seq}|${c}`);
                n++;
              }
            }
          }
        }
        return n;
      };
      let logLeaks = 0;
      for (const rd of rounds) {
        const summary = logLines.findIndex((l) => l.includes(`${rd.roundId}: `));
        const upTo = summary < 0 ? logLines.length : summary;
        for (let i = 0; i < logLines.length; i++) {
          for (const c of rd.hidden) {
            const isOoo = c === rd.hidden.at(-1);
            if ((isOoo || i < upTo) && hasCard(logLines[i], c)) logLeaks++;
          }
        }
      }
      const unexpected = sub.got.filter((m) => m.topic === `casino/${TABLE}/alerts` && m.payload?.kind === 'unexpected-rescan');
      const figures = {
        rounds: rounds.length,
        'hidden cards': rounds.reduce((n, r) => n + r.hidden.length, 0),
        faults,
        'mqtt msgs': mqttEnv.length,
        'sse msgs': sse.length,
        'api envelopes': api.length,
        'recall rounds': recall.length,
        'log lines': logLines.length,
        'unexpected-rescan alerts': unexpected.length,
        'unexpected-rescan counted': unexpected.reduce((n, m) => n + (Number(m.payload.count) || 1), 0),
        'leaks mqtt': leaksIn(mqttEnv),
        'leaks sse': leaksIn(sse),
        'leaks api': leaksIn(api),
        'leaks recall': leaksIn(recall),
        'leaks log': logLeaks,
        leaks: 0,
      };
      figures.leaks = figures['leaks mqtt'] + figures['leaks sse'] + figures['leaks api'] + figures['leaks recall'] + figures['leaks log'];
      return { section: 'leaks', figures, zeroColumns: ['leaks'] };
    } finally {
      polling = false;
      sseReq?.destroy();
      if (g) await kill(g.run, 'SIGTERM');
      await sub.client.endAsync();
      await rig.dispose();
    }
  },
};

export default section;
