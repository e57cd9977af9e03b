/**
 * No hidden value in any output before its reveal point (games.md), under line faults: an
 * unexpected rescan, an out-of-order read, a corrupted frame; and repeatable alerts coalesced per
 * kind per device per second with a `count`, by the input's `at` (replay-deterministic).
 */
import { describe, expect, it } from 'vitest';
import { DeviceDriver, type DriverEvent } from '../../../drivers/device-driver.js';
import { LineCodec } from '../../../drivers/codecs/line-codec.js';
import { encodeLine } from '../../../drivers/codecs/nmea-line.js';
import { redactSample } from '../../../drivers/codecs/redact.js';
import { MemoryTransport } from '../../../drivers/transports/memory-transport.js';
import { step } from '../../../src/core/table/table-machine.js';
import type { TableInput, TableOutput } from '../../../src/core/table/types.js';
import { TableHarness } from '../../helpers/table-harness.js';

/** every log line and published payload as text */
function texts(outs: TableOutput[]): string[] {
  return outs.flatMap((o) => (o.type === 'publish' ? [JSON.stringify(o.payload)] : o.type === 'log' ? [o.msg + JSON.stringify(o.data ?? {})] : []));
}

function leaks(outs: TableOutput[], hidden: string[]): string[] {
  return texts(outs).filter((t) => hidden.some((c) => t.includes(c)));
}

describe('hidden values stay hidden under line faults (Pok Deng, every card face down)', () => {
  it('a second rescan of a face-down card carries no value', () => {
    const t = new TableHarness({ game: 'pok-deng', betting: 'none' });
    t.card('9H');
    t.frame({ type: 'MISREAD' });
    t.clear();
    t.card('KD', true); // the rescan: dealt face down
    t.card('KD', true); // the dealer rescans it again: unexpected
    const a = t.alerts('unexpected-rescan');
    expect(a).toHaveLength(1);
    expect(a[0].card).toBeNull();
    expect(leaks(t.outputs, ['KD', '9H'])).toEqual([]);
  });

  it('an out-of-order read while a rescan is pending carries no value', () => {
    const t = new TableHarness({ game: 'pok-deng', betting: 'none' });
    t.card('9H');
    t.frame({ type: 'MISREAD' });
    t.clear();
    t.card('QC'); // out of order: presented again later, face down
    const a = t.alerts('out-of-order-card');
    expect(a).toHaveLength(1);
    expect(a[0].card).toBeNull();
    expect(leaks(t.outputs, ['QC', '9H'])).toEqual([]);
  });

  it('a face-up game still names the card in the alert', () => {
    const t = new TableHarness({ game: 'dragon-tiger', betting: 'none' });
    t.card('9H', true);
    const a = t.alerts('unexpected-rescan');
    expect(a[0].card).toBe('9H');
  });

  it('a corrupted face-down card frame: the bad-frame sample carries no card code', async () => {
    const transport = new MemoryTransport();
    const driver = new DeviceDriver({ deviceId: 'shoe-1', transport, decoder: new LineCodec('SHOE'), staleAfterMs: 0 });
    const events: DriverEvent[] = [];
    driver.events$.subscribe((e) => events.push(e));
    driver.start();
    const good = encodeLine('SHOE', 5, 'CARD', ['KD']);
    transport.deliver(good.replace(/\*[0-9A-F]{2}/, '*00'));
    const alert = events.find((e) => e.kind === 'alert' && e.alert === 'bad-frame');
    expect(alert).toBeDefined();
    const text = JSON.stringify(alert);
    expect(text).not.toContain('KD');
    expect(text).toContain('$SHOE,5,CARD,??');
    await driver.stop();
  });

  it('redactSample keeps structure, masks values', () => {
    expect(redactSample('$SHOE,17,CARD,AS*2D\\r\\n')).toBe('$SHOE,17,CARD,??*??\\r\\n');
    expect(redactSample('$RFID,22,TAG,04A1B2C3D4*5F')).toBe('$RFID,22,TAG,??????????*??');
    expect(redactSample('\\x00\\xFF$SHOE,3,CARDTD*11')).toBe('\\x00\\xFF$SHOE,3,??????*??');
  });
});

describe('repeatable alerts are coalesced per kind per device per second', () => {
  it('500 unexpected rescans in one second: one alert at once, one with the count when the second ends', () => {
    const t = new TableHarness({ game: 'baccarat', betting: 'none' });
    t.clear();
    for (let i = 0; i < 500; i++) {
      t.deviceFrame('shoe-1', 'SHOE', { type: 'CARD', card: 'AS', rescan: true });
      t.now -= 98;
    }
    expect(t.alerts('unexpected-rescan')).toHaveLength(1);
    expect(t.alerts('unexpected-rescan')[0].count).toBe(1);
    const timers = t.timers().filter((x) => x.name.startsWith('coalesce:'));
    expect(timers).toHaveLength(1);
    t.input({ type: 'timer', at: timers[0].at, name: timers[0].name });
    const a = t.alerts('unexpected-rescan');
    expect(a).toHaveLength(2);
    expect(a[1].count).toBe(499);
    // the next window's first alert is published at once again
    t.now = timers[0].at + 1000;
    t.card('AS', true);
    expect(t.alerts('unexpected-rescan')).toHaveLength(3);
  });

  it('a flood over 60 s becomes about 60 alerts whose counts add up', () => {
    const t = new TableHarness({ game: 'baccarat', betting: 'none' });
    const start = t.now;
    let sent = 0;
    const pendingTimers = new Map<string, number>();
    const fire = (upTo: number) => {
      for (const [name, at] of [...pendingTimers])
        if (at <= upTo) {
          pendingTimers.delete(name);
          t.input({ type: 'timer', at, name });
        }
    };
    while (t.now < start + 60_000) {
      t.now += 3; // ~270/s
      fire(t.now);
      const outs = t.input({
        type: 'frame',
        at: t.now,
        deviceId: 'shoe-1',
        frame: { talker: 'SHOE', seq: sent & 0xffff, type: 'CARD', card: 'AS', rescan: true },
      });
      sent++;
      for (const o of outs) if (o.type === 'set-timer') pendingTimers.set(o.name, o.at);
    }
    fire(Infinity);
    const a = t.alerts('unexpected-rescan');
    expect(a.length).toBeGreaterThanOrEqual(59);
    expect(a.length).toBeLessThanOrEqual(62);
    expect(a.reduce((n, x) => n + (x.count as number), 0)).toBe(sent);
  });

  it('per device and per kind: two shoes each get their own alert', () => {
    const t = new TableHarness({
      game: 'baccarat',
      betting: 'none',
      devices: [
        { id: 'shoe-1', kind: 'card-shoe' },
        { id: 'shoe-2', kind: 'card-shoe' },
      ],
    });
    t.deviceFrame('shoe-1', 'SHOE', { type: 'CARD', card: 'AS', rescan: true });
    t.deviceFrame('shoe-2', 'SHOE', { type: 'CARD', card: 'AS', rescan: true });
    t.deviceFrame('shoe-1', 'SHOE', { type: 'CARD', card: 'AS', rescan: true });
    expect(t.alerts('unexpected-rescan').map((a) => a.deviceId)).toEqual(['shoe-1', 'shoe-2']);
  });

  it('coalescing replays byte for byte', () => {
    const t = new TableHarness({ game: 'baccarat', betting: 'none' });
    const start = t.state;
    const inputs: TableInput[] = [];
    for (let i = 0; i < 30; i++)
      inputs.push({
        type: 'frame' as const,
        at: t.now + i * 70,
        deviceId: 'shoe-1',
        frame: { talker: 'SHOE' as const, seq: i, type: 'CARD' as const, card: 'AS', rescan: true },
      });
    inputs.push({ type: 'timer' as const, at: t.now + 1000, name: 'coalesce:unexpected-rescan|shoe-1' });
    const run = () => {
      let s = start;
      const out: string[] = [];
      for (const i of inputs) {
        const r = step(t.settings, s, i);
        s = r.state;
        out.push(...texts(r.outputs));
      }
      return out;
    };
    expect(run()).toEqual(run());
  });

  it('a VER flood publishes the device once', () => {
    const t = new TableHarness();
    t.clear();
    for (let i = 0; i < 20; i++) t.frame({ type: 'VER', model: 'VSHOE-1', firmware: '1.0.0', capabilities: ['REPEAT'] });
    expect(t.published('devices/shoe-1')).toHaveLength(2); // connected, then its VER
    t.frame({ type: 'VER', model: 'VSHOE-1', firmware: '1.0.1' });
    expect(t.published('devices/shoe-1')).toHaveLength(3);
  });
});
