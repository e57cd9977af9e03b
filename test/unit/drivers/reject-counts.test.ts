/**
 * The driver's cumulative reject counts by reason and its last reject (the status page and
 * /metrics show them): they outlive the once-a-second `bad-frame` alert window, and the last
 * reject's sample is redacted like the alert's — a corrupted card frame shows no card value.
 */
import { describe, expect, it } from 'vitest';
import { DeviceDriver, type DriverEvent } from '../../../drivers/device-driver.js';
import { compileProfile } from '../../../drivers/profiles/profile-decoder.js';
import { loadProfileFile } from '../../../drivers/profiles/profile-schema.js';
import { MemoryTransport } from '../../../drivers/transports/memory-transport.js';
import { profileFile } from '../../../src/app/config/device-profiles.js';

describe('DeviceDriver reject counts', () => {
  it('counts rejects by reason since start, across alert windows, and keeps the last one redacted', async () => {
    const transport = new MemoryTransport();
    const decoder = compileProfile(loadProfileFile(profileFile('stx-etx-shoe')));
    const driver = new DeviceDriver({ deviceId: 'shoe-1', transport, decoder: { push: (b) => decoder.push(b) }, staleAfterMs: 0, badFrameWindowMs: 5 });
    const alerts: DriverEvent[] = [];
    driver.events$.subscribe((e) => {
      if (e.kind === 'alert') alerts.push(e);
    });
    driver.start();
    expect(driver.rejectedByReason).toEqual({});
    expect(driver.lastReject).toBeNull();
    transport.deliver('junk\x021,C,S_K*00\x03');
    await new Promise((r) => setTimeout(r, 30)); // a new alert window
    transport.deliver('\x022,C,H_Q*00\x03\x023,ZZ*');
    transport.deliver('\x022,C,D_7*00\x03');
    await new Promise((r) => setTimeout(r, 30));
    expect(driver.rejectedByReason).toEqual({ noise: 1, 'bad-checksum': 3, malformed: 1 });
    expect(driver.rejectedTotal).toBe(5);
    expect(driver.framesTotal).toBe(0);
    // the last reject was a card frame with a bad checksum: its structure shows, its card does not
    expect(driver.lastReject?.reason).toBe('bad-checksum');
    expect(driver.lastReject?.sample).toBe('\\x02?,?,???*??\\x03');
    // the malformed "3,ZZ*" frame was cut by the next start byte
    expect(Object.values(driver.rejectedByReason).reduce((a, b) => a + b, 0)).toBe(driver.rejectedTotal);
    // the getter hands out a copy
    (driver.rejectedByReason as Record<string, number>).noise = 99;
    expect(driver.rejectedByReason.noise).toBe(1);
    expect(alerts.length).toBeGreaterThanOrEqual(2);
    await driver.stop();
  });
});
