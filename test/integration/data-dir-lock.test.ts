/**
 * One gateway per data dir, with real processes (`tablegw start`), a real pty and Mosquitto: a
 * second gateway on the data dir of a running one exits at once with exit 75 naming the first's
 * pid, touches nothing (the first goes on publishing, no seq reused), `recover` is refused the
 * same way, and after the first is SIGKILLed the lock is gone: a new gateway starts on the dir.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { kill, makeRig, runCli, Shoe, startGatewayProcess, Subscriber, type Rig } from '../../dev/chaos/gateway-rig.js';
import { DATA_DIR_IN_USE_EXIT_CODE } from '../../src/adapters/store/data-dir-lock.js';
import { realIoOrSkip } from '../helpers/real-io.js';

const io = realIoOrSkip(['socat', 'mosquitto']);

describe.skipIf(!io.available)('one gateway per data dir (real gateway processes)', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanups.reverse()) await c();
    cleanups.length = 0;
  });

  it('a second gateway is refused at once with exit 75 and the pid; the first goes on; SIGKILL leaves no lock', async () => {
    const rig: Rig = await makeRig('lock-01');
    cleanups.push(() => rig.dispose());
    const sub = await Subscriber.connect(rig.broker.url, 'lock-01-sub');
    cleanups.push(() => sub.client.endAsync());
    const g1 = await startGatewayProcess(rig, sub, 'lock-01');
    cleanups.push(() => kill(g1.run, 'SIGKILL'));
    expect(g1.exited).toBeUndefined();
    const shoe = new Shoe(rig.pty);
    await shoe.cards('9H');
    await sub.waitFor((m) => m.topic === 'casino/lock-01/events' && m.payload.card === '9H');

    const before = sub.got.length;
    const second = runCli(['start', '--config', rig.cfgFile]);
    cleanups.push(() => kill(second, 'SIGKILL'));
    const code = await Promise.race([second.exit, new Promise<'running'>((r) => setTimeout(() => r('running'), 15_000))]);
    expect(code).toBe(DATA_DIR_IN_USE_EXIT_CODE);
    expect(second.stderr()).toContain(`data dir ${rig.dataDir} is in use by pid ${g1.run.child.pid}`);
    // it did not connect for the table: no status or device state of a second gateway came out
    await new Promise((r) => setTimeout(r, 300));
    expect(sub.got.slice(before).filter((m) => /\/(status|devices\/)/.test(m.topic))).toEqual([]);

    const recover = runCli(['recover', '--accept-loss', '--config', rig.cfgFile]);
    expect(await recover.exit).toBe(DATA_DIR_IN_USE_EXIT_CODE);
    expect(recover.stderr()).toContain(`is in use by pid ${g1.run.child.pid}`);

    // the first gateway goes on
    await shoe.cards('KD');
    await sub.waitFor((m) => m.topic === 'casino/lock-01/events' && m.payload.card === 'KD');
    await new Promise((r) => setTimeout(r, 300));
    await kill(g1.run, 'SIGKILL');

    // the kernel dropped the lock with the process: a new gateway starts on the same dir
    const g3 = await startGatewayProcess(rig, sub, 'lock-01');
    cleanups.push(() => kill(g3.run, 'SIGTERM'));
    expect(g3.exited).toBeUndefined();
    const from = sub.got.length;
    await shoe.cards('2C');
    await sub.waitFor((m) => m.topic === 'casino/lock-01/events' && m.payload.card === '2C', 15_000, from);
    expect(sub.reusedSeqs('lock-01')).toBe(0);
  }, 90_000);
});
