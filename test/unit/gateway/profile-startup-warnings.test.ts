/** Start-up says once per device what is risky in its profile (device-protocols.md §3.1): no integrity check, idle framing beside an end. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { startGateway } from '../../../src/app/gateway.js';
import { createLogger } from '../../../src/runtime/log.js';
import { loadSimulators } from '../../../simulators/load.js';
import { cleanupTempDirs, makeTempDir } from '../../../dev/rig/temp-dir.js';

afterAll(() => cleanupTempDirs());

describe('profile warnings at start-up', () => {
  it('logs a warning per profiled device whose profile has no integrity or idle framing beside an end; none for a checked one', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', json: true, write: (l) => lines.push(l) });
    const dataDir = await makeTempDir('teg-warn-');
    const idleBeside = join(dataDir, 'idle-beside.yaml');
    writeFileSync(
      idleBeside,
      'name: idle-beside\ntalker: SHOE\nframing: { start: "\\u0002", end: "\\u0003", idleMs: 20 }\nintegrity: { algorithm: lrc, encoding: hex, separator: "*" }\ncards: { preset: suit_rank }\nmessages:\n  - { name: card, pattern: "(?<seq>\\\\d{1,5}),C,(?<card>[SHDC]_(?:10|[2-9AJQK]))", type: CARD, seq: seq, emit: "{seq},C,{card}" }\n',
    );
    const cfg = validateConfig({
      mqtt: { url: 'embedded', protocolVersion: 4 },
      embeddedBroker: { port: 0 },
      http: { enabled: false },
      dataDir,
      tables: [
        {
          id: 'warn-01',
          game: 'baccarat',
          decks: 8,
          devices: [
            { id: 'shoe-1', kind: 'card-shoe', profile: idleBeside, transport: { type: 'simulator', seed: 'w', cardIntervalMs: 60_000 } },
            { id: 'scanner', kind: 'barcode-scanner', profile: 'serial-scanner', transport: { type: 'simulator', seed: 'w' } },
          ],
        },
        {
          id: 'warn-02',
          game: 'baccarat',
          decks: 8,
          devices: [{ id: 'shoe-2', kind: 'card-shoe', profile: 'stx-etx-bcc-shoe', transport: { type: 'simulator', seed: 'w', cardIntervalMs: 60_000 } }],
        },
      ],
    });
    const gw = await startGateway(cfg, { simulators: loadSimulators, logger });
    await gw.stop();
    const warns = lines
      .map((l) => JSON.parse(l) as { level: string | number; msg: string })
      .filter((l) => l.level === 'warn' || l.level === 40)
      .map((l) => l.msg)
      .filter((m) => m.includes(': profile '));
    expect(warns).toEqual([
      expect.stringMatching(/^device shoe-1: profile .*idle-beside\.yaml: framing\.idleMs: frames end by an end sequence, so the idle timeout is not used/),
      expect.stringMatching(/^device scanner: profile .*serial-scanner\.yaml: integrity: none: /),
    ]);
  }, 60_000);
});
