/**
 * No hidden value leaves early, over real I/O: the `leaks` chaos section (a real gateway process,
 * pty, Mosquitto) deals Pok Deng rounds with corrupted frames, unexpected rescans and out-of-order
 * reads, captures MQTT, the status page's SSE feed, /api/state, the recall and the log, and finds no face-down
 * card's code in any of them before its reveal point.
 */
import { describe, expect, it } from 'vitest';
import leaks from '../../dev/chaos/sections/leaks.js';
import { realIoOrSkip } from '../helpers/real-io.js';

const io = realIoOrSkip(['socat', 'mosquitto']);

describe.skipIf(!io.available)('hidden values on every channel', () => {
  it('no leak on MQTT, SSE, /api/state, the recall or the log; repeated rescans coalesced', async () => {
    const r = await leaks.run({ quick: true, log: () => {} });
    expect(r.figures.rounds).toBe(3);
    expect(r.figures['sse msgs']).toBeGreaterThan(0);
    expect(r.figures['api envelopes']).toBeGreaterThan(0);
    expect(r.figures['recall rounds']).toBeGreaterThan(0);
    expect(r.figures['log lines']).toBeGreaterThan(0);
    expect({
      mqtt: r.figures['leaks mqtt'],
      sse: r.figures['leaks sse'],
      api: r.figures['leaks api'],
      recall: r.figures['leaks recall'],
      log: r.figures['leaks log'],
    }).toEqual({ mqtt: 0, sse: 0, api: 0, recall: 0, log: 0 });
    // 15 unexpected rescans in bursts of 5 within a second: fewer alerts than rescans, every one counted
    expect(r.figures['unexpected-rescan counted']).toBe(15);
    expect(r.figures['unexpected-rescan alerts']).toBeLessThan(15);
  }, 60_000);
});
