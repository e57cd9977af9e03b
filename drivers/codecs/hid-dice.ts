/**
 * HID dice sensor (vendor-defined), device-protocols.md §2b.
 * 8-byte input report `[0x01, seq, d1, d2, d3, bounces, status, checksum]`,
 * checksum = (sum of bytes 0..6) mod 256; status 0 = ok (ROLL), 1 = COCKED, 2 = NOREAD.
 * `seq` is 8-bit: track it with `new SeqTracker(HID_DICE_SEQ_MODULUS)`.
 */
import type { DeviceFrame, FrameReject } from '../../src/core/vocabulary/frames.js';
import { describeBytes, reject } from './reject.js';

export const HID_DICE_REPORT_ID = 0x01;
export const HID_DICE_REPORT_BYTES = 8;
export const HID_DICE_SEQ_MODULUS = 256;
export const HID_DICE_STATUS = { OK: 0, COCKED: 1, NOREAD: 2 } as const;

/** (sum of bytes 0..6) mod 256. */
export function hidDiceChecksum(report: Uint8Array): number {
  let s = 0;
  for (let i = 0; i < 7; i++) s += report[i] ?? 0;
  return s & 0xff;
}

/**
 * Rejects: `malformed` (not 8 bytes, report id not 0x01), `bad-checksum`, `bad-field` (unknown
 * status; for status ok: a die outside 1..6 or bounces outside 0..99). For COCKED / NOREAD the dice
 * and bounce bytes are not looked at.
 */
export function decodeHidDiceReport(report: Uint8Array): DeviceFrame | FrameReject {
  if (report.length !== HID_DICE_REPORT_BYTES || report[0] !== HID_DICE_REPORT_ID) return reject('malformed', describeBytes(report));
  if (hidDiceChecksum(report) !== report[7]) return reject('bad-checksum', describeBytes(report));
  const seq = report[1];
  switch (report[6]) {
    case HID_DICE_STATUS.OK: {
      const d1 = report[2];
      const d2 = report[3];
      const d3 = report[4];
      const bounces = report[5];
      if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6 || d3 < 1 || d3 > 6 || bounces > 99) return reject('bad-field', describeBytes(report));
      return { talker: 'DICE', seq, type: 'ROLL', dice: [d1, d2, d3], bounces };
    }
    case HID_DICE_STATUS.COCKED:
      return { talker: 'DICE', seq, type: 'COCKED' };
    case HID_DICE_STATUS.NOREAD:
      return { talker: 'DICE', seq, type: 'NOREAD' };
    default:
      return reject('bad-field', describeBytes(report));
  }
}

export interface HidDiceReportSpec {
  seq: number;
  dice?: readonly [number, number, number];
  bounces?: number;
  /** 0 ok, 1 cocked, 2 no read (any byte, so tests can send unknown ones). */
  status?: number;
  /** Defaults to 0x01. */
  reportId?: number;
  /** Defaults to the correct checksum; set it to forge a bad one. */
  checksum?: number;
}

/**
 * Builds a report (simulators, tests). Every value must be a byte (0..255) but is otherwise not
 * checked, so out-of-range dice can be sent on purpose. `seq` is taken mod 256.
 */
export function encodeHidDiceReport(spec: HidDiceReportSpec): Buffer {
  const dice = spec.dice ?? [0, 0, 0];
  const bytes = [spec.reportId ?? HID_DICE_REPORT_ID, spec.seq & 0xff, dice[0], dice[1], dice[2], spec.bounces ?? 0, spec.status ?? HID_DICE_STATUS.OK];
  for (const b of bytes) {
    if (!Number.isInteger(b) || b < 0 || b > 255) throw new RangeError(`HID dice report byte out of range: ${b}`);
  }
  const report = Buffer.alloc(HID_DICE_REPORT_BYTES);
  for (let i = 0; i < 7; i++) report[i] = bytes[i];
  report[7] = spec.checksum ?? hidDiceChecksum(report);
  return report;
}
