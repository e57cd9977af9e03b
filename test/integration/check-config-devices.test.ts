/**
 * `tablegw check-config` on a real serial device (a socat pty): a port the user cannot open is a
 * problem naming the user, the `dialout` group and the udev rule; the same port opened up is
 * valid; a udev name (a link) whose adapter is unplugged says so. As root the check runs as
 * `nobody` (root may open anything), otherwise as the test's user with the port's mode 0000.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPtyPair } from '../../dev/rig/pty-pair.js';
import { cleanupTempDirs, makeTempDir } from '../../dev/rig/temp-dir.js';
import { realIoOrSkip } from '../helpers/real-io.js';

afterAll(cleanupTempDirs);
const io = realIoOrSkip(['socat', 'setpriv']);
const ROOT = resolve(import.meta.dirname, '..', '..');
const asRoot = process.getuid?.() === 0;

/**
 * As root the check runs as `nobody`, which must reach the checkout's sources and node_modules: a
 * checkout in a private folder (mktemp -d, mode 0700) gets search permission for others on ROOT
 * and the folders above it for the test's duration, and its modes back after it.
 */
const restoreModes: Array<() => void> = [];
if (asRoot) {
  for (let d = ROOT; ; d = dirname(d)) {
    const mode = statSync(d).mode & 0o7777;
    if ((mode & 0o001) === 0) {
      chmodSync(d, mode | 0o001);
      restoreModes.push(() => chmodSync(d, mode));
    }
    if (dirname(d) === d) break;
  }
}
afterAll(() => {
  for (const restore of restoreModes) restore();
});

function checkConfig(file: string): { code: number | null; out: string } {
  const cli = [process.execPath, '--import', 'tsx', join(ROOT, 'src/app/cli/main.ts'), 'check-config', file];
  const [cmd, ...args] = asRoot ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', '--', ...cli] : cli;
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe.skipIf(!io.available)('check-config on a real serial port', () => {
  it('names the user, dialout and the udev rule when the port cannot be opened; valid once it can', async () => {
    const pty = await createPtyPair();
    try {
      const pts = realpathSync(pty.gatewayPath);
      const dir = await makeTempDir('teg-cc-dev-');
      chmodSync(dir, 0o755);
      const data = join(dir, 'data');
      mkdirSync(data, { mode: 0o777 });
      chmodSync(data, 0o777);
      const unplugged = join(dir, 'tablegw-shoe-9');
      symlinkSync(join(dir, 'no-such-pts'), unplugged);
      const write = (name: string, path: string) => {
        const file = join(dir, name);
        writeFileSync(
          file,
          JSON.stringify({
            mqtt: { url: 'mqtt://127.0.0.1:1883' },
            dataDir: data,
            tables: [{ id: 'bac-01', game: 'baccarat', devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'serial', path } }] }],
          }),
        );
        chmodSync(file, 0o644);
        return file;
      };
      const file = write('port.json', pts);

      chmodSync(pts, asRoot ? 0o600 : 0o000);
      const denied = checkConfig(file);
      expect(denied.code).toBe(1);
      expect(denied.out).toContain(`tables[0].devices[0].transport.path: "${pts}" cannot be opened by the user ${asRoot ? 'nobody' : ''}`);
      expect(denied.out).toContain('"dialout" group');
      expect(denied.out).toContain('/etc/udev/rules.d/99-tablegw.rules');
      expect(denied.out).toContain('GROUP="dialout", MODE="0660"');

      chmodSync(pts, 0o666);
      const ok = checkConfig(file);
      expect(ok.out).toContain(`${file}: valid`);
      expect(ok.code).toBe(0);

      const gone = checkConfig(write('unplugged.json', unplugged));
      expect(gone.code).toBe(1);
      expect(gone.out).toContain(`"${unplugged}" is a link to a device that is not there`);
      expect(gone.out).toContain('is the adapter plugged in?');
    } finally {
      await pty.dispose();
    }
  }, 60_000);
});
