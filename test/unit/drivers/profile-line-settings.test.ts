/** Serial line settings from the profile's `line`, overridden by the device's own transport keys (config.md v1.2). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTransport } from '../../../src/app/device-drivers.js';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { cleanupTempDirs, makeTempDirSync } from '../../../dev/rig/temp-dir.js';

afterAll(() => cleanupTempDirs());

describe('line settings', () => {
  it('come from the profile unless the device says otherwise; 9600 without either', async () => {
    const dir = makeTempDirSync('teg-line-');
    const profile = join(dir, 'fast-shoe.yaml');
    writeFileSync(
      profile,
      'name: fast-shoe\ntalker: SHOE\nline: { baudRate: 38400, parity: even, dataBits: 7 }\nframing: { end: "\\r" }\nintegrity: { algorithm: xor8, separator: "," }\nmessages:\n  - { name: card, pattern: "(?<card>..)", type: CARD }\n',
    );
    const dev = (transport: Record<string, unknown>, withProfile = true) =>
      validateConfig({
        mqtt: { url: 'mqtt://127.0.0.1:1' },
        tables: [
          {
            id: 't',
            game: 'baccarat',
            devices: [
              { id: 'shoe', kind: 'card-shoe', ...(withProfile ? { profile } : {}), transport: { type: 'serial', path: '/dev/ttyUSB9', ...transport } },
            ],
          },
        ],
      }).tables[0].devices[0];
    const fromProfile = createTransport(dev({}));
    const overridden = createTransport(dev({ baudRate: 9600 }));
    const plain = createTransport(dev({}, false));
    try {
      expect(fromProfile.description).toBe('serial /dev/ttyUSB9 @38400');
      expect(overridden.description).toBe('serial /dev/ttyUSB9 @9600');
      expect(plain.description).toBe('serial /dev/ttyUSB9 @9600');
      expect(dev({}).transport).toMatchObject({ lowLatency: true });
      expect(dev({ lowLatency: false }).transport).toMatchObject({ lowLatency: false });
    } finally {
      await Promise.all([fromProfile.stop(), overridden.stop(), plain.stop()]);
    }
  });
});
