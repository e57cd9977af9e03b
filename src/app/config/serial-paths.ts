/**
 * `tablegw check-config`: every serial device the configuration names must exist and be openable
 * by the user the gateway runs as, and when it is not, the problem says the fix: the udev rule that
 * gives an adapter its stable name, the `dialout` group that lets the service user open it
 * (docs/INSTALL.md, "Stable device names"). The check looks at the device file only; it does not
 * open the port (opening a serial port can toggle the device's control lines).
 *
 * Run as the service user (the package's postinst: `runuser -u tablegw -- tablegw check-config`),
 * the access check is that user's. Run as root, it checks for the package's service user
 * `tablegw` when there is one (root itself can open anything).
 */
import { accessSync, constants, existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import type { GatewayConfig } from '../../core/vocabulary/config-schema.js';

/** the user the package runs the service as (deploy/tablegw.service) */
export const SERVICE_USER = 'tablegw';

export interface UserIds {
  name: string;
  uid: number;
  gids: number[];
}

/** a user's uid and groups from /etc/passwd and /etc/group (null when there is no such user) */
export function lookUpUser(name: string, files = { passwd: '/etc/passwd', group: '/etc/group' }): UserIds | null {
  let passwd: string;
  let group: string;
  try {
    passwd = readFileSync(files.passwd, 'utf8');
    group = readFileSync(files.group, 'utf8');
  } catch {
    return null;
  }
  const row = passwd
    .split('\n')
    .map((l) => l.split(':'))
    .find((f) => f[0] === name);
  if (!row || row.length < 4) return null;
  const gids = new Set([Number(row[3])]);
  for (const g of group.split('\n').map((l) => l.split(':'))) {
    if (g.length >= 4 && g[3].split(',').includes(name)) gids.add(Number(g[2]));
  }
  return { name, uid: Number(row[2]), gids: [...gids] };
}

function groupName(gid: number): string {
  try {
    const row = readFileSync('/etc/group', 'utf8')
      .split('\n')
      .map((l) => l.split(':'))
      .find((g) => Number(g[2]) === gid);
    return row?.[0] ?? String(gid);
  } catch {
    return String(gid);
  }
}

/** whether `user` may read and write a file of this owner, group and mode (the kernel's rule, ACLs aside) */
export function mayReadWrite(user: UserIds, st: { uid: number; gid: number; mode: number }): boolean {
  const rw = (bits: number) => (st.mode & bits) === bits;
  if (user.uid === 0) return true;
  if (st.uid === user.uid) return rw(0o600);
  if (user.gids.includes(st.gid)) return rw(0o060);
  return rw(0o006);
}

const UDEV_HINT =
  'a /dev/tablegw-* name comes from the udev rule /etc/udev/rules.d/99-tablegw.rules (its idVendor, idProduct and serial must match the adapter: ' +
  '`udevadm info --attribute-walk --name=/dev/ttyUSB0`; then `udevadm control --reload && udevadm trigger`); `ls -l /dev/tablegw-* /dev/serial/by-id/` lists what is there';

/** the problems of every serial device of the config: missing, not a device, not openable by the service user */
export function serialDeviceProblems(cfg: GatewayConfig, as: UserIds | null = currentServiceUser()): string[] {
  const problems: string[] = [];
  cfg.tables.forEach((t, i) => {
    t.devices.forEach((d, j) => {
      if (d.transport.type !== 'serial') return;
      const key = `tables[${i}].devices[${j}].transport.path`;
      const path = d.transport.path;
      if (!existsSync(path)) {
        let dangling = false;
        try {
          dangling = lstatSync(path).isSymbolicLink();
        } catch {
          /* no link either */
        }
        problems.push(
          `${key}: "${path}" ${dangling ? 'is a link to a device that is not there' : 'does not exist'} (device ${d.id} of table ${t.id}): is the adapter plugged in? ${UDEV_HINT}`,
        );
        return;
      }
      const st = statSync(path);
      if (!st.isCharacterDevice()) {
        problems.push(`${key}: "${path}" is not a serial device (not a character device) (device ${d.id} of table ${t.id})`);
        return;
      }
      if (!as) return;
      const ok = as.uid === process.getuid?.() ? canOpen(path) : mayReadWrite(as, st);
      if (!ok) {
        problems.push(
          `${key}: "${path}" cannot be opened by the user ${as.name} (permission denied: the device is ${groupName(st.gid)}, mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}) (device ${d.id} of table ${t.id}): ` +
            `the user must be in the "dialout" group (\`sudo adduser ${as.name} dialout\`, then restart the service) and the udev rule (/etc/udev/rules.d/99-tablegw.rules) ` +
            'must give the device GROUP="dialout", MODE="0660"',
        );
      }
    });
  });
  return problems;
}

function canOpen(path: string): boolean {
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * whose access to check: this process's user, or, for root, the package's service user if it
 * exists (null: root without one, nothing to check)
 */
function currentServiceUser(): UserIds | null {
  const uid = process.getuid?.();
  if (uid === undefined) return null;
  if (uid !== 0) {
    const name = userInfo().username;
    return { name, uid, gids: process.getgroups?.() ?? [] };
  }
  return lookUpUser(SERVICE_USER);
}
