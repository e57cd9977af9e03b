/**
 * The release check (scripts/release-check.sh runs it after `npm run release`; CI runs that): the
 * .deb installed on this machine as an installer would, then removed and purged. Root only, and
 * only where no tablegw package is installed (it refuses to touch a real installation).
 *
 *  1. lintian: no errors (the overrides the package carries are explained in it);
 *  2. a journal written by the current sources (`tablegw start` through tsx, a real Mosquitto, a
 *     "shoe" on a pty behind /dev/tablegw-shoe-1, the name the udev rule gives a real one);
 *  3. `dpkg -i`: the postinst creates the user (in dialout), checks the config as that user;
 *     `tablegw --version` (version and commit), `tablegw check-config /etc/tablegw/config.yaml`;
 *     the postinst again with the shoe unplugged: the problem named, the service not started;
 *  4. the packaged gateway, as the service user, on that journal (an upgrade over the previous
 *     build's data dir): it starts, continues `seq`, refuses a second gateway on the dir (exit 75);
 *     and a journal of a newer schema is refused (exit 65, `journal-newer`) and left unchanged;
 *  5. `dpkg -r` keeps /etc/tablegw/config.yaml; `dpkg -P` removes it, keeps the data dir.
 * What it created (the user, the data dir, the /dev link) is removed at the end.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import mqtt from 'mqtt';
import { startMosquitto } from '../rig/mosquitto.js';
import { createPtyPair } from '../rig/pty-pair.js';
import { cleanupTempDirs, makeTempDir } from '../rig/temp-dir.js';
import { referenceLine } from '../../test/helpers/reference-shoe.js';

const ROOT = join(import.meta.dirname, '..', '..');
const deb = process.argv[2];
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const DEVICE_LINK = '/dev/tablegw-shoe-1';
const DATA = '/var/lib/tablegw';
const TABLE = 'bac-01';

let failures = 0;
function check(what: string, ok: boolean, detail = ''): void {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${!ok && detail ? `\n     ${detail.split('\n').join('\n     ')}` : ''}`);
  if (!ok) failures++;
}
function must(what: string, ok: boolean, detail = ''): void {
  check(what, ok, detail);
  if (!ok) throw new Error(`release check stopped: ${what}`);
}
function sh(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv } = {}): { code: number | null; out: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, ...opts.env } });
  return { code: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}
const installed = (): boolean => sh('dpkg-query', ['-W', `-f=\${Status}`, 'tablegw']).out.includes('install ok installed');

interface Run {
  child: ChildProcess;
  out: () => string;
  exit: Promise<number | null>;
}
function start(cmd: string, args: string[]): Run {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_FORMAT: 'json' } });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += String(d);
  });
  child.stderr!.on('data', (d) => {
    out += String(d);
  });
  const exit = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  return { child, out: () => out, exit };
}
async function stop(r: Run): Promise<number | null> {
  if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
  const t = setTimeout(() => r.child.kill('SIGKILL'), 10_000);
  const c = await r.exit;
  clearTimeout(t);
  return c;
}

interface Msg {
  topic: string;
  payload: { seq?: number; state?: string; kind?: string; card?: string };
}

async function main(): Promise<void> {
  must('run as root (dpkg -i)', process.getuid?.() === 0);
  must(`the package exists: ${deb}`, !!deb && existsSync(deb));
  must(
    'no tablegw package is installed here (the check never touches a real installation)',
    !installed() && !existsSync('/etc/tablegw') && !existsSync('/opt/tablegw'),
  );
  const userBefore = sh('getent', ['passwd', 'tablegw']).code === 0;
  const dataBefore = existsSync(DATA);
  must(`no ${DATA} and no ${DEVICE_LINK} yet`, !dataBefore && !existsSync(DEVICE_LINK));

  const cleanups: Array<() => unknown> = [];
  try {
    // ---- 1. lintian
    const lint = sh('lintian', ['--fail-on', 'error', deb]);
    const errors = lint.out.split('\n').filter((l) => l.startsWith('E: '));
    check(
      `lintian: no errors (${lint.out.split('\n').filter((l) => l.startsWith('W: ')).length} warnings)`,
      lint.code === 0 && errors.length === 0,
      lint.out.slice(-3000),
    );

    // ---- 2. the rig: Mosquitto, a shoe behind the udev name, a subscriber
    const broker = await startMosquitto();
    cleanups.push(() => broker.stop());
    const pty = await createPtyPair();
    cleanups.push(() => pty.dispose());
    const pts = realpathSync(pty.gatewayPath);
    // what the udev rule does for a real adapter: the stable name, group dialout, mode 0660
    chownSync(pts, 0, Number(sh('getent', ['group', 'dialout']).out.split(':')[2]));
    chmodSync(pts, 0o660);
    symlinkSync(pts, DEVICE_LINK);
    cleanups.push(() => rmSync(DEVICE_LINK, { force: true }));
    let shoeSeq = 0;
    const card = (c: string) => pty.write(referenceLine(['SHOE', String(shoeSeq++), 'CARD', c].join(',')));
    const got: Msg[] = [];
    const sub = await mqtt.connectAsync(broker.url, { clientId: 'release-check', protocolVersion: 4 });
    cleanups.push(() => sub.endAsync());
    sub.on('message', (topic, p) => {
      try {
        got.push({ topic, payload: JSON.parse(p.toString()) as Msg['payload'] });
      } catch {
        /* not JSON */
      }
    });
    await sub.subscribeAsync('casino/#', { qos: 1 });
    const waitFor = async (pred: (m: Msg) => boolean, from: number, ms = 20_000): Promise<Msg | undefined> => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        const m = got.slice(from).find(pred);
        if (m) return m;
        await new Promise((r) => setTimeout(r, 50));
      }
      return undefined;
    };
    const connected = (from: number) => waitFor((m) => m.topic === `casino/${TABLE}/devices/shoe-1` && m.payload.state === 'connected', from);
    const event = (c: string, from: number) => waitFor((m) => m.topic === `casino/${TABLE}/events` && m.payload.card === c, from);

    const work = await makeTempDir('teg-release-');
    const conf = (dataDir: string) =>
      readFileSync(join(ROOT, 'deploy', 'config.yaml'), 'utf8')
        .replace('url: mqtt://127.0.0.1:1883', `url: ${broker.url}`)
        .replace(`dataDir: ${DATA}`, `dataDir: ${dataDir}`) +
      // the status page on any free port (a machine of CI may have 8080 taken)
      'http:\n  port: 0\n';
    const prevData = join(work, 'previous-data');
    writeFileSync(join(work, 'previous.yaml'), conf(prevData));

    // ---- 3. a journal written by the current sources
    let from = got.length;
    const src = start(process.execPath, ['--import', 'tsx', join(ROOT, 'src/app/cli/main.ts'), 'start', '--config', join(work, 'previous.yaml')]);
    must('the sources start on the rig', !!(await connected(from)), src.out().slice(-2000));
    await card('9H');
    await card('KD');
    check('the sources publish the cards', !!(await event('KD', from)), src.out().slice(-2000));
    check('the sources stop with exit 0', (await stop(src)) === 0, src.out().slice(-2000));
    const seqBefore = Math.max(0, ...got.filter((m) => m.topic.startsWith(`casino/${TABLE}/`) && typeof m.payload.seq === 'number').map((m) => m.payload.seq!));

    // ---- 4. install
    const inst = sh('dpkg', ['-i', deb]);
    cleanups.push(() => {
      if (installed()) sh('dpkg', ['-P', 'tablegw']);
    });
    cleanups.push(() => {
      if (!dataBefore) rmSync(DATA, { recursive: true, force: true });
    });
    cleanups.push(() => {
      if (!userBefore) {
        sh('deluser', ['--system', '--quiet', 'tablegw']);
        sh('delgroup', ['--system', '--quiet', 'tablegw']);
      }
    });
    must('dpkg -i installs the package', inst.code === 0 && installed(), inst.out);
    check('the postinst checked the configuration as the service user', /config\.yaml: valid/.test(inst.out), inst.out);
    const groups = sh('id', ['-nG', 'tablegw']).out.split(/\s+/);
    check('the system user tablegw exists, in dialout', groups.includes('dialout'), groups.join(' '));
    const data = statSync(DATA);
    check(`${DATA} belongs to tablegw, mode 0750`, data.uid === Number(sh('id', ['-u', 'tablegw']).out.trim()) && (data.mode & 0o777) === 0o750);
    const cf = statSync('/etc/tablegw/config.yaml');
    check(
      '/etc/tablegw/config.yaml is a conffile, mode 0640, group tablegw',
      sh('dpkg-query', ['-W', `-f=\${Conffiles}`, 'tablegw']).out.includes('/etc/tablegw/config.yaml') &&
        (cf.mode & 0o777) === 0o640 &&
        cf.gid === Number(sh('getent', ['group', 'tablegw']).out.split(':')[2]),
    );
    for (const f of [
      '/lib/systemd/system/tablegw.service',
      '/lib/udev/rules.d/99-tablegw.rules',
      '/opt/tablegw/node/bin/node',
      '/opt/tablegw/dist/src/app/cli/main.js',
    ])
      check(`installed: ${f}`, existsSync(f));
    check(
      'the unit runs the bundled Node.js and does not restart on 65 or 75',
      /ExecStart=\/opt\/tablegw\/node\/bin\/node /.test(readFileSync('/lib/systemd/system/tablegw.service', 'utf8')) &&
        /RestartPreventExitStatus=65 75/.test(readFileSync('/lib/systemd/system/tablegw.service', 'utf8')),
    );

    const v = sh('/usr/bin/tablegw', ['--version']);
    check(
      `tablegw --version: ${v.out.trim()}`,
      v.code === 0 && new RegExp(`^${VERSION.replace(/\./g, '\\.')} \\(commit [0-9a-f]{12}\\)$`).test(v.out.trim()),
      v.out,
    );
    const cc = sh('runuser', ['-u', 'tablegw', '--', '/usr/bin/tablegw', 'check-config', '/etc/tablegw/config.yaml']);
    check('tablegw check-config /etc/tablegw/config.yaml (as tablegw)', cc.code === 0 && cc.out.includes('valid'), cc.out);

    // a broken configuration (the shoe unplugged: its udev name gone) is not started: the postinst
    // says what is wrong and what to do, and the package stays configured
    rmSync(DEVICE_LINK);
    const again = sh('sh', ['/var/lib/dpkg/info/tablegw.postinst', 'configure', VERSION]);
    symlinkSync(pts, DEVICE_LINK);
    check(
      'a config that fails the check is not started: the postinst names the problem and the fix, exit 0',
      again.code === 0 && again.out.includes(`"${DEVICE_LINK}" does not exist`) && again.out.includes('the service is NOT started'),
      again.out,
    );

    // ---- 5. the packaged gateway on the previous build's journal
    cpSync(prevData, DATA, { recursive: true });
    sh('chown', ['-R', 'tablegw:tablegw', DATA]);
    const pkgConf = join(work, 'installed.yaml');
    writeFileSync(pkgConf, conf(DATA));
    chmodSync(work, 0o755);
    chmodSync(pkgConf, 0o644);
    from = got.length;
    // setpriv, not runuser: it execs the gateway itself (with tablegw's groups), so SIGTERM reaches it as from systemd
    const gw = start('setpriv', [
      '--reuid=tablegw',
      '--regid=tablegw',
      '--init-groups',
      '--',
      '/opt/tablegw/node/bin/node',
      '/opt/tablegw/dist/src/app/cli/main.js',
      'start',
      '--config',
      pkgConf,
    ]);
    cleanups.push(() => stop(gw));
    must('the packaged gateway starts (as tablegw) on the journal of the sources', !!(await connected(from)), gw.out().slice(-3000));
    const second = sh('/usr/bin/tablegw', ['start', '--config', pkgConf]);
    check(
      'a second gateway on the data dir exits 75 naming the first',
      second.code === 75 && /data dir \/var\/lib\/tablegw is in use by pid \d+/.test(second.out),
      second.out.slice(-1500),
    );
    await card('2C');
    const next = await event('2C', from);
    check(`it continues seq (${seqBefore} before; the new card at ${next?.payload.seq})`, !!next && (next.payload.seq ?? 0) > seqBefore, gw.out().slice(-2000));
    check('it stops with exit 0', (await stop(gw)) === 0, gw.out().slice(-2000));

    const newer = join(work, 'newer-data');
    cpSync(DATA, newer, { recursive: true });
    const db = new Database(join(newer, 'gateway.db'));
    db.pragma('user_version = 999');
    db.close();
    const before = readFileSync(join(newer, 'gateway.db'));
    writeFileSync(join(work, 'newer.yaml'), conf(newer));
    const refused = sh('/usr/bin/tablegw', ['start', '--config', join(work, 'newer.yaml')]);
    check(
      'a journal of a newer schema is refused: exit 65, journal-newer, unchanged',
      refused.code === 65 &&
        /written by a newer tablegw \(journal schema 999;.*\[journal-newer\]/.test(refused.out) &&
        readFileSync(join(newer, 'gateway.db')).equals(before),
      refused.out.slice(-1500),
    );

    // ---- 6. remove, purge
    const rm = sh('dpkg', ['-r', 'tablegw']);
    check(
      'dpkg -r removes the program and keeps the configuration',
      rm.code === 0 && !existsSync('/opt/tablegw') && !existsSync('/usr/bin/tablegw') && existsSync('/etc/tablegw/config.yaml'),
      rm.out,
    );
    const purge = sh('dpkg', ['-P', 'tablegw']);
    check(
      'dpkg -P removes the configuration and keeps the data dir',
      purge.code === 0 && !existsSync('/etc/tablegw') && existsSync(join(DATA, 'gateway.db')) && sh('dpkg-query', ['-W', 'tablegw']).code !== 0,
      purge.out,
    );
  } finally {
    for (const c of cleanups.reverse()) {
      try {
        await c();
      } catch (e) {
        console.error(`cleanup: ${(e as Error).message}`);
      }
    }
    await cleanupTempDirs();
  }
  check(
    'nothing left: no package, no /opt/tablegw, no service user created by the check',
    !installed() && !existsSync('/opt/tablegw') && (userBefore || sh('getent', ['passwd', 'tablegw']).code !== 0),
  );
  console.log(failures ? `release check: ${failures} failure(s)` : 'release check: all passed');
  process.exit(failures ? 1 : 0);
}

main().catch((e: unknown) => {
  console.error((e as Error).message);
  process.exit(1);
});
