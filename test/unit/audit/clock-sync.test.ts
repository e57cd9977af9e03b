/**
 * The system clock's synchronisation (adapters/systemd/clock-sync.ts): read from injected readers,
 * unknown where nothing answers, and `clock-unsynchronised` after 24 h of (fake, monotonic) time
 * without synchronisation, once per episode.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ClockSyncWatch,
  clockSyncGauge,
  parseChronycTracking,
  readClockSync,
  timesyncdReader,
  UNSYNCHRONISED_ALERT_AFTER_MS,
  type ClockSyncReader,
  type ClockSyncState,
} from '../../../src/adapters/systemd/clock-sync.js';

const H = 3_600_000;
const fixed =
  (s: ClockSyncState | null): ClockSyncReader =>
  async () =>
    s;

describe('the clock synchronisation reader', () => {
  it('takes the first reader that answers; unknown (-1) when none does; a throwing reader is skipped', async () => {
    const failing: ClockSyncReader = async () => {
      throw new Error('no dbus');
    };
    expect(await readClockSync([fixed(null), failing, fixed({ synchronized: false, source: 'chronyc' }), fixed({ synchronized: true, source: 'x' })])).toEqual({
      synchronized: false,
      source: 'chronyc',
    });
    const none = await readClockSync([fixed(null), failing]);
    expect(none).toEqual({ synchronized: null, source: 'none' });
    expect(clockSyncGauge(none)).toBe(-1);
    expect(clockSyncGauge({ synchronized: true, source: 't' })).toBe(1);
    expect(clockSyncGauge({ synchronized: false, source: 't' })).toBe(0);
  });

  it("reads timesyncd's flag file: present synchronised, absent with timesyncd running not, no timesyncd unknown", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'timesync-'));
    const run = join(dir, 'timesync');
    const flag = join(run, 'synchronized');
    expect(await timesyncdReader(flag, run)()).toBeNull();
    mkdirSync(run);
    expect(await timesyncdReader(flag, run)()).toEqual({ synchronized: false, source: 'timesyncd' });
    writeFileSync(flag, '');
    expect(await timesyncdReader(flag, run)()).toEqual({ synchronized: true, source: 'timesyncd' });
  });

  it('parses chronyc tracking', () => {
    expect(parseChronycTracking('Reference ID    : C0A80001 (gw)\nStratum         : 3\nLeap status     : Normal\n')).toBe(true);
    expect(parseChronycTracking('Reference ID    : 00000000 ()\nLeap status     : Not synchronised\n')).toBe(false);
    expect(parseChronycTracking('506 Cannot talk to daemon\n')).toBeNull();
  });
});

describe('clock-unsynchronised', () => {
  function watch(initial: ClockSyncState) {
    let now = 1_000;
    let state: ClockSyncState = initial;
    const alerts: Array<{ source: string; sinceMs: number }> = [];
    const w = new ClockSyncWatch({ readers: [async () => state], now: () => now, onUnsynchronised: (u) => alerts.push(u) });
    return {
      w,
      alerts,
      advance: (ms: number) => {
        now += ms;
      },
      set: (s: ClockSyncState) => {
        state = s;
      },
    };
  }

  it('is raised once after 24 h unsynchronised since the last synchronisation, and again only after a new synchronisation', async () => {
    const t = watch({ synchronized: true, source: 'timedatectl' });
    await t.w.check();
    t.set({ synchronized: false, source: 'timedatectl' });
    for (let h = 1; h < 24; h++) {
      t.advance(H);
      await t.w.check();
    }
    expect(t.alerts).toEqual([]);
    t.advance(H);
    await t.w.check();
    expect(t.alerts).toEqual([{ source: 'timedatectl', sinceMs: 24 * H, lastSynchronizedMs: 1_000 }]);
    t.advance(10 * H);
    await t.w.check();
    expect(t.alerts.length).toBe(1);
    t.set({ synchronized: true, source: 'timedatectl' });
    await t.w.check();
    t.set({ synchronized: false, source: 'timedatectl' });
    t.advance(UNSYNCHRONISED_ALERT_AFTER_MS - 1);
    await t.w.check();
    expect(t.alerts.length).toBe(1);
    t.advance(1);
    await t.w.check();
    expect(t.alerts.length).toBe(2);
  });

  it('counts from the start when never synchronised; unknown never raises it', async () => {
    const t = watch({ synchronized: false, source: 'chronyc' });
    await t.w.check();
    t.advance(24 * H);
    await t.w.check();
    expect(t.alerts.map((a) => a.sinceMs)).toEqual([24 * H]);
    const u = watch({ synchronized: null, source: 'none' });
    u.advance(100 * H);
    await u.w.check();
    expect(u.alerts).toEqual([]);
    expect(clockSyncGauge(u.w.state)).toBe(-1);
  });
});
