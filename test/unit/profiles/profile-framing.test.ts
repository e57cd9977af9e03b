/**
 * Framing of device profiles beyond delimiters: the inter-byte idle timeout (`framing.idleMs`,
 * ended by the driver's timer through `flushIdle()`), fixed-length frames and `maxLength`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceFrame, FrameReject } from '../../../src/core/vocabulary/frames.js';
import { DeviceDriver, type DriverEvent } from '../../../drivers/device-driver.js';
import { compileProfile } from '../../../drivers/profiles/profile-decoder.js';
import { profileWarnings, validateProfile } from '../../../drivers/profiles/profile-schema.js';
import { MemoryTransport } from '../../../drivers/transports/memory-transport.js';

const reasons = (items: (DeviceFrame | FrameReject)[]) =>
  items.map((i) => ('reason' in i ? i.reason : i.type === 'CARD' ? i.card : i.type === 'BALL' ? i.ball : i.type));

/** A scanner that sends suit-rank codes with no terminator: a code ends when the line goes quiet. */
const idleScanner = validateProfile('idle-scanner.yaml', {
  name: 'idle-scanner',
  talker: 'SHOE',
  framing: { idleMs: 40, maxLength: 8 },
  cards: { preset: 'suit-rank' },
  messages: [{ name: 'card', pattern: '(?<card>[SHDC](?:10|[2-9AJQK]))', type: 'CARD' }],
});

describe('idle timeout in the decoder (clock-free)', () => {
  it('a frame ends only at flushIdle(); nothing is pending afterwards', () => {
    const d = compileProfile(idleScanner);
    expect(d.idleMs).toBe(40);
    expect(d.push(Buffer.from('H1'))).toEqual([]);
    expect(d.push(Buffer.from('0'))).toEqual([]);
    expect(reasons(d.flushIdle())).toEqual(['TH']);
    expect(d.flushIdle()).toEqual([]);
    d.push(Buffer.from('X9'));
    expect(reasons(d.flushIdle())).toEqual(['unknown-type']);
  });

  it('maxLength still applies: a runaway frame is one too-long, its rest is dropped until the silence', () => {
    const d = compileProfile(idleScanner);
    expect(reasons(d.push(Buffer.from('HHHHHHHHHHHH')))).toEqual(['too-long']);
    expect(d.flushIdle()).toEqual([]);
    d.push(Buffer.from('SA'));
    expect(reasons(d.flushIdle())).toEqual(['AS']);
  });

  it('with an end delimiter too, only the delimiter ends a frame: silence is not used, and the profile is warned about', () => {
    const p = validateProfile('x.yaml', { ...idleScanner, framing: { end: '\r', idleMs: 40 } });
    const d = compileProfile(p);
    expect(d.idleMs).toBeUndefined();
    expect(reasons(d.push(Buffer.from('SK\rD')))).toEqual(['KS']);
    expect(reasons(d.flushIdle())).toEqual([]);
    expect(reasons(d.push(Buffer.from('2\r')))).toEqual(['2D']);
    expect(profileWarnings(p)).toEqual([
      expect.stringMatching(/^integrity: none: /),
      expect.stringMatching(/^framing\.idleMs: frames end by an end sequence, so the idle timeout is not used/),
    ]);
  });

  it('a noise run before a start byte is flushed by silence as one reject where silence ends frames', () => {
    const p = validateProfile('x.yaml', {
      name: 'k',
      talker: 'BALL',
      framing: { start: '*', idleMs: 20 },
      messages: [{ name: 'ball', pattern: 'B;(?<ball>\\d{1,2})', type: 'BALL' }],
    });
    const d = compileProfile(p);
    expect(d.push(Buffer.from('zz'))).toEqual([]);
    expect(d.push(Buffer.from('z'))).toEqual([]);
    expect(d.flushIdle()).toEqual([{ reason: 'noise', raw: 'zzz' }]);
  });

  it('with an end sequence, a noise run is reported when the next frame starts, whatever the pauses', () => {
    const p = validateProfile('x.yaml', {
      name: 'k',
      talker: 'BALL',
      framing: { start: '*', end: '\r', idleMs: 20 },
      messages: [{ name: 'ball', pattern: 'B;(?<ball>\\d{1,2})', type: 'BALL' }],
    });
    const d = compileProfile(p);
    expect(d.push(Buffer.from('zz'))).toEqual([]);
    expect(d.flushIdle()).toEqual([]);
    expect(reasons(d.push(Buffer.from('z*B;7\r')))).toEqual(['noise', 7]);
  });

  it('the schema wants end, length or idleMs', () => {
    expect(() => validateProfile('p.yaml', { ...idleScanner, framing: { maxLength: 8 } })).toThrow(
      'p.yaml: framing: needs "end", "length", "lengthField" or (last resort) "idleMs"',
    );
  });
});

describe('idle timeout in the driver (fake timers, memory transport)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function start(idleFlushMs: number | undefined) {
    const transport = new MemoryTransport();
    const decoder = compileProfile(idleScanner);
    const driver = new DeviceDriver({ deviceId: 'scanner-1', transport, decoder, staleAfterMs: 0, seqModulus: 0, idleFlushMs });
    const events: DriverEvent[] = [];
    driver.events$.subscribe((e) => events.push(e));
    driver.start();
    const cards = () => events.flatMap((e) => (e.kind === 'frame' && e.frame.type === 'CARD' ? [e.frame.card] : []));
    return { transport, driver, events, cards };
  }

  it('ends a frame idleFlushMs after the last byte, restarting the wait on every byte', async () => {
    const { transport, driver, cards } = start(40);
    transport.deliver('H');
    await vi.advanceTimersByTimeAsync(30);
    transport.deliver('1');
    await vi.advanceTimersByTimeAsync(30);
    transport.deliver('0');
    await vi.advanceTimersByTimeAsync(39);
    expect(cards()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(cards()).toEqual(['TH']);
    transport.deliver('SA');
    await vi.advanceTimersByTimeAsync(40);
    expect(cards()).toEqual(['TH', 'AS']);
    await driver.stop();
  });

  it('a rejected idle frame is counted as a bad frame', async () => {
    const { transport, driver, events } = start(40);
    transport.deliver('ZZ');
    await vi.advanceTimersByTimeAsync(40);
    expect(driver.rejectedTotal).toBe(1);
    expect(events.some((e) => e.kind === 'alert' && e.alert === 'bad-frame')).toBe(true);
    await driver.stop();
  });

  it('without idleFlushMs nothing ends the frame', async () => {
    const { transport, driver, cards } = start(undefined);
    transport.deliver('H10');
    await vi.advanceTimersByTimeAsync(5000);
    expect(cards()).toEqual([]);
    await driver.stop();
  });
});

describe('fixed-length frames and maxLength', () => {
  it('fixed length without a start byte: every `length` bytes are a frame, across chunks', () => {
    const p = validateProfile('x.yaml', {
      name: 'f',
      talker: 'BALL',
      framing: { length: 3 },
      messages: [
        { name: 'ball', pattern: 'B(?<ball>\\d\\d)', type: 'BALL' },
        { name: 'start', pattern: 'S00', type: 'START' },
      ],
    });
    const d = compileProfile(p);
    const out = [...d.push(Buffer.from('S00B1')), ...d.push(Buffer.from('7B8')), ...d.push(Buffer.from('1X'))];
    expect(reasons(out)).toEqual(['START', 17, 'bad-field']);
    expect(reasons(d.push(Buffer.from('YZ')))).toEqual(['unknown-type']);
  });

  it('fixed length with a start byte: noise before it is one reject, the start byte counts in the length', () => {
    const p = validateProfile('x.yaml', {
      name: 'f',
      talker: 'BALL',
      framing: { start: '#', length: 4 },
      messages: [{ name: 'ball', pattern: 'B(?<ball>\\d\\d)', type: 'BALL' }],
    });
    const d = compileProfile(p);
    expect(reasons(d.push(Buffer.from('ab#B05#B8')))).toEqual(['noise', 5]);
    expect(reasons(d.push(Buffer.from('0')))).toEqual([80]);
  });

  it('a length above maxLength is a profile error', () => {
    expect(() =>
      validateProfile('p.yaml', {
        name: 'f',
        talker: 'BALL',
        framing: { length: 40, maxLength: 16 },
        messages: [{ name: 'b', pattern: 'B(?<ball>\\d+)', type: 'BALL' }],
      }),
    ).toThrow('p.yaml: framing.length: is above maxLength (16)');
  });

  it('maxLength counts start and end: a frame of exactly maxLength is decoded, one byte more is too-long', () => {
    const p = validateProfile('x.yaml', {
      name: 'k',
      talker: 'BALL',
      framing: { start: '*', end: '\r\n', maxLength: 8 },
      messages: [{ name: 'ball', pattern: 'B;0*(?<ball>\\d{1,2})', type: 'BALL' }],
    });
    const d = compileProfile(p);
    expect(reasons(d.push(Buffer.from('*B;0017\r\n')))).toEqual(['too-long']); // 9 bytes
    expect(reasons(d.push(Buffer.from('*B;017\r\n')))).toEqual([17]); // 8 bytes
    // the rest of an over-long frame is dropped silently up to its end; the next frame is fine
    expect(reasons(d.push(Buffer.from('*B;00000000000017\r\n*B;5\r\n')))).toEqual(['too-long', 5]);
    // a start byte inside the over-long rest starts a new frame
    expect(reasons(d.push(Buffer.from('*B;0000000*B;6\r\n')))).toEqual(['too-long', 6]);
  });
});

describe('the end of the input (endOfStream: the end of a capture)', () => {
  const stx = validateProfile('stx.yaml', {
    name: 'stx',
    talker: 'SHOE',
    framing: { start: '\u0002', end: '\u0003' },
    cards: { preset: 'suit_rank' },
    messages: [{ name: 'card', pattern: '(?<card>[SHDC]_(?:10|[2-9AJQK]))', type: 'CARD' }],
  });

  it('reports a pending noise run, which push() holds until the next start byte', () => {
    const d = compileProfile(stx);
    expect(d.push(Buffer.from('no start byte here'))).toEqual([]);
    expect(reasons(d.endOfStream())).toEqual(['noise']);
    expect(d.endOfStream()).toEqual([]);
  });

  it('leaves a frame the input cut off unreported, and ends an idle-framed one as silence would', () => {
    const d = compileProfile(stx);
    expect(reasons(d.push(Buffer.from('\u0002S_K\u0003\u0002H_1', 'latin1')))).toEqual(['KS']);
    expect(d.endOfStream()).toEqual([]);
    const idle = compileProfile(idleScanner);
    expect(idle.push(Buffer.from('H10'))).toEqual([]);
    expect(reasons(idle.endOfStream())).toEqual(['TH']);
  });
});
