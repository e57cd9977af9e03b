/**
 * Serial fuzz: a shoe's line (a real pty) carries valid card frames mixed with random bytes,
 * corrupted frames (one byte changed: the checksum no longer matches), truncated frames, over-long
 * lines and binary noise. An independent counter (this file's own encoder, not the gateway's
 * codec) knows every card frame it wrote intact; the gateway may drop cards (a damaged line makes
 * rounds void or held), but it must never publish a card that was not sent: 0 invented cards.
 * A damaged line uses up a SEQ, so the next valid frame shows a gap and the round is held
 * (games.md "Lost frames"); the pit's part is played here: every held round is resumed, so the
 * cards read meanwhile are placed and counted like the others.
 */
import { generateKeyPairSync } from 'node:crypto';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { signRequest } from '../../../src/adapters/security/request-signing.js';
import { startGateway } from '../../../src/app/gateway.js';
import { loadSimulators } from '../../../simulators/load.js';
import { startMosquitto } from '../../rig/mosquitto.js';
import { recordMqtt } from '../../rig/mqtt-recorder.js';
import { createPtyPair } from '../../rig/pty-pair.js';
import { makeTempDir, removeTempDir } from '../../rig/temp-dir.js';
import { createLogger } from '../../../src/runtime/log.js';
import { prng } from '../prng.js';
import type { ChaosSection } from '../section.js';

const T = 'sf-01';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const RANKS = 'A23456789TJQK';
const SUITS = 'SHDC';

/** `$BODY*CS\r\n` with the XOR checksum, written here independently of drivers/codecs */
function frame(body: string): Buffer {
  let cs = 0;
  for (const ch of Buffer.from(body, 'latin1')) cs ^= ch;
  return Buffer.from(`$${body}*${cs.toString(16).toUpperCase().padStart(2, '0')}\r\n`, 'latin1');
}

const section: ChaosSection = {
  name: 'serial-fuzz',
  async run({ quick, log }) {
    const frames = quick ? 1500 : 15_000;
    const rand = prng(7);
    const dataDir = await makeTempDir('teg-chaos-sf-');
    const broker = await startMosquitto();
    const pty = await createPtyPair();
    const rec = await recordMqtt(broker.url, [`casino/${T}/events`, `casino/${T}/status`, `casino/${T}/round`]);
    const logLines: string[] = [];
    const pit = generateKeyPairSync('ed25519');
    const cfg = validateConfig({
      mqtt: { url: broker.url },
      dataDir,
      http: { enabled: false },
      health: { intervalMs: 0 },
      tables: [
        {
          id: T,
          game: 'baccarat',
          betting: 'none',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', staleAfterMs: 600_000, transport: { type: 'serial', path: pty.gatewayPath } }],
          // the pit's key: a held round is resumed by a signed request (docs/SECURITY.md "Privileged requests")
          requests: {
            privileged: {
              keys: [{ name: 'chaos-pit', publicKey: pit.publicKey.export({ type: 'spki', format: 'pem' }).toString(), commands: ['resume-round'] }],
            },
          },
        },
      ],
    });
    const gw = await startGateway(cfg, { simulators: loadSimulators, logger: createLogger({ json: true, write: (l) => logLines.push(l) }) });
    try {
      await rec.waitFor((m) => m.topic === `casino/${T}/status` && m.payload?.state === 'online', 10_000);
      await sleep(500);
      const sentCards = new Map<string, number>();
      let seq = 0;
      let bytes = 0;
      let intact = 0;
      let corrupted = 0;
      let noise = 0;
      let chunk: Buffer[] = [];
      const flush = async () => {
        const b = Buffer.concat(chunk);
        chunk = [];
        bytes += b.length;
        await pty.write(b);
        await sleep(5);
        resumeHeld();
      };
      let shoes = 0;
      let resumed = 0;
      let lastResumeFor = '';
      /** the pit: a round held after a frame gap is resumed (a resume-round signed by its key) */
      const resumeHeld = () => {
        const round = rec.messages.filter((m) => m.topic === `casino/${T}/round`).at(-1);
        const id = `${round?.payload?.roundId}:${round?.payload?.seq}`;
        if (round?.payload?.phase !== 'held' || id === lastResumeFor) return;
        lastResumeFor = id;
        resumed++;
        const body = { transaction: `resume-${resumed}`, by: 'chaos-pit' };
        rec.client.publish(
          `casino/${T}/request/resume-round`,
          JSON.stringify(signRequest({ table: T, command: 'resume-round', body, privateKey: pit.privateKey, keyId: 'chaos-pit' })),
          { qos: 1 },
        );
      };
      for (let i = 0; i < frames; i++) {
        if (i % 300 === 0) {
          // a fresh shoe now and then, so the fuzz never runs into a full shoe's card counts
          chunk.push(frame(`SHOE,${seq},STATE,LOADED`));
          seq = (seq + 1) % 65536;
          shoes++;
        }
        const card = RANKS[Math.floor(rand() * 13)] + SUITS[Math.floor(rand() * 4)];
        const body = `SHOE,${seq},CARD,${card}`;
        seq = (seq + 1) % 65536;
        const r = rand();
        if (r < 0.55) {
          chunk.push(frame(body));
          sentCards.set(card, (sentCards.get(card) ?? 0) + 1);
          intact++;
        } else if (r < 0.75) {
          // one byte changed after the `$`: the XOR checksum catches every single-byte change
          const f = frame(body);
          const at = 1 + Math.floor(rand() * (f.length - 3));
          let v = Math.floor(rand() * 256);
          if (v === f[at]) v ^= 0x01;
          f[at] = v;
          chunk.push(f);
          corrupted++;
        } else if (r < 0.85) {
          chunk.push(frame(body).subarray(0, 3 + Math.floor(rand() * 8))); // truncated
          corrupted++;
        } else if (r < 0.9) {
          chunk.push(Buffer.from(`$SHOE,${seq},CARD,${'9'.repeat(300)}\r\n`)); // over-long line
          corrupted++;
        } else {
          const n = 1 + Math.floor(rand() * 64);
          const b = Buffer.alloc(n);
          for (let k = 0; k < n; k++) b[k] = Math.floor(rand() * 256);
          chunk.push(b);
          noise++;
        }
        if (chunk.length >= 20) await flush();
      }
      chunk.push(Buffer.from('\r\n'));
      await flush();
      // wait until the card events stop coming
      let last = -1;
      for (let i = 0; i < 40; i++) {
        await sleep(250);
        resumeHeld();
        const n = rec.messages.length;
        if (n === last) break;
        last = n;
      }
      const published = new Map<string, number>();
      let cardsPublished = 0;
      for (const m of rec.messages) {
        if (m.topic !== `casino/${T}/events` || m.payload?.kind !== 'card') continue;
        if (m.payload.card === null) continue; // face down (new-shoe burns): no value to invent
        cardsPublished++;
        const c = String(m.payload.card);
        published.set(c, (published.get(c) ?? 0) + 1);
      }
      let invented = 0;
      for (const [c, n] of published) invented += Math.max(0, n - (sentCards.get(c) ?? 0));
      const offline = rec.messages.filter((m) => m.topic === `casino/${T}/status` && m.payload?.state === 'offline').length;
      const machineFailures = logLines.filter((l) => l.includes('table machine failed')).length;
      log(`${bytes} bytes, ${intact} intact card frames, ${corrupted} damaged, ${noise} noise bursts; ${cardsPublished} cards published`);
      return {
        section: 'serial-fuzz',
        figures: {
          'bytes-written': bytes,
          'intact-card-frames': intact,
          'damaged-frames': corrupted,
          'noise-bursts': noise,
          shoes,
          'cards-published': cardsPublished,
          'held-rounds-resumed': resumed,
          'invented-cards': invented,
          'machine-failures': machineFailures,
          'gateway-offline': offline,
          'still-running': gw.tables.length === 1 ? 0 : 1,
        },
        zeroColumns: ['invented-cards', 'machine-failures', 'gateway-offline', 'still-running'],
      };
    } finally {
      await gw.stop();
      await rec.close();
      await pty.dispose();
      await broker.stop();
      await removeTempDir(dataDir);
    }
  },
};

export default section;
