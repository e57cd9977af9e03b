/**
 * check-config's serial device checks (src/app/config/serial-paths.ts) that need no real port:
 * a missing path, a dangling link (a udev name whose adapter is gone), a file that is no device,
 * and the permission rule for the service user. A real pty's modes: test/integration/check-config-devices.test.ts.
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { lookUpUser, mayReadWrite, serialDeviceProblems } from '../../../src/app/config/serial-paths.js';
import { makeTempDirSync } from '../../../dev/rig/temp-dir.js';

const cfg = (...paths: string[]) =>
  validateConfig({
    mqtt: { url: 'embedded' },
    tables: [
      { id: 'bac-01', game: 'baccarat', devices: paths.map((path, i) => ({ id: `shoe-${i + 1}`, kind: 'card-shoe', transport: { type: 'serial', path } })) },
    ],
  });
const someone = { name: 'tablegw', uid: 4242, gids: [4242, 20] };

describe('serial device checks', () => {
  it('a missing path, a dangling link and a plain file are problems naming the key and the fix', () => {
    const dir = makeTempDirSync('teg-serial-');
    const link = join(dir, 'tablegw-shoe-2');
    symlinkSync(join(dir, 'gone'), link);
    const file = join(dir, 'not-a-device');
    writeFileSync(file, '');
    const p = serialDeviceProblems(cfg('/dev/tablegw-no-such-shoe', link, file, '/dev/null'), someone);
    expect(p).toHaveLength(3);
    expect(p[0]).toMatch(
      /^tables\[0\]\.devices\[0\]\.transport\.path: "\/dev\/tablegw-no-such-shoe" does not exist \(device shoe-1 of table bac-01\): is the adapter plugged in\?/,
    );
    expect(p[0]).toContain('udev rule /etc/udev/rules.d/99-tablegw.rules');
    expect(p[1]).toMatch(/^tables\[0\]\.devices\[1\]\.transport\.path: ".*tablegw-shoe-2" is a link to a device that is not there/);
    expect(p[2]).toMatch(/^tables\[0\]\.devices\[2\]\.transport\.path: ".*not-a-device" is not a serial device/);
  });

  it('the permission rule: owner, group (dialout), others', () => {
    const dialout = { uid: 0, gid: 20, mode: 0o20660 };
    expect(mayReadWrite(someone, dialout)).toBe(true);
    expect(mayReadWrite({ ...someone, gids: [4242] }, dialout)).toBe(false);
    expect(mayReadWrite({ ...someone, gids: [4242] }, { uid: 0, gid: 20, mode: 0o20666 })).toBe(true);
    expect(mayReadWrite({ ...someone, gids: [4242] }, { uid: 4242, gid: 20, mode: 0o20600 })).toBe(true);
    expect(mayReadWrite(someone, { uid: 0, gid: 20, mode: 0o20640 })).toBe(false);
    expect(mayReadWrite({ name: 'root', uid: 0, gids: [0] }, { uid: 0, gid: 0, mode: 0o20600 })).toBe(true);
  });

  it("reads a user's groups from passwd and group files", () => {
    const dir = makeTempDirSync('teg-users-');
    writeFileSync(join(dir, 'passwd'), 'root:x:0:0::/root:/bin/sh\ntablegw:x:104:107:gw:/var/lib/tablegw:/usr/sbin/nologin\n');
    writeFileSync(join(dir, 'group'), 'root:x:0:\ndialout:x:20:alice,tablegw\nplugdev:x:46:tablegw\ntablegw:x:107:\nvideo:x:44:alice\n');
    const u = lookUpUser('tablegw', { passwd: join(dir, 'passwd'), group: join(dir, 'group') });
    expect(u).toEqual({ name: 'tablegw', uid: 104, gids: [107, 20, 46] });
    expect(lookUpUser('nobody-here', { passwd: join(dir, 'passwd'), group: join(dir, 'group') })).toBeNull();
  });
});
