/**
 * Typed device frames: what a codec yields from the wire (device-protocols.md).
 * Every frame carries the talker and the device's SEQ (HID frames use their own seq space).
 */
import type { Card } from './card.js';

export type Talker = 'SHOE' | 'RFID' | 'SHUF' | 'DICE' | 'BALL';
export const TALKERS: readonly Talker[] = ['SHOE', 'RFID', 'SHUF', 'DICE', 'BALL'];

export type ShoeState = 'LOADED' | 'OPEN' | 'CLOSED' | 'EMPTY';
export type ShufflerState = 'IDLE' | 'SHUFFLING' | 'READY' | 'JAM' | 'DOOR_OPEN' | 'ERROR';

/** Frame types every talker may send. */
export type CommonFrame =
  | { type: 'HB' }
  | { type: 'ERR'; code: string; text: string }
  | { type: 'VER'; model: string; firmware: string; capabilities?: string[] };

/** Card-shoe frames (SHOE and RFID share all but CARD/TAG). */
export type ShoeBodyFrame =
  /** `uid`: the RFID tag that carried the card (RFID shoes only) */
  { type: 'CARD'; card: Card; rescan: boolean; uid?: string } | { type: 'MISREAD' } | { type: 'CUT' } | { type: 'DROP' } | { type: 'STATE'; state: ShoeState };

export type RfidBodyFrame = { type: 'TAG'; uid: string } | Exclude<ShoeBodyFrame, { type: 'CARD' }>;

export type ShufflerBodyFrame = { type: 'SHUF_STATE'; state: ShufflerState } | { type: 'COUNT'; count: number };

export type DiceBodyFrame = { type: 'SHAKE' } | { type: 'ROLL'; dice: [number, number, number]; bounces: number } | { type: 'COCKED' } | { type: 'NOREAD' };

export type BallBodyFrame = { type: 'START' } | { type: 'BALL'; ball: number } | { type: 'END' };

export type DeviceFrameBody = CommonFrame | ShoeBodyFrame | RfidBodyFrame | ShufflerBodyFrame | DiceBodyFrame | BallBodyFrame;

/** A decoded, checksum-valid frame. `seq` is the device's sequence number (0..65535 serial). */
export type DeviceFrame = DeviceFrameBody & { talker: Talker; seq: number };

/** Why a frame was rejected: named so alerts and counters can say it. */
export type RejectReason =
  | 'noise' // bytes before a `$` (discarded by resynchronisation)
  | 'too-long' // line longer than 128 bytes including `$` and CRLF
  | 'bad-checksum'
  | 'malformed' // no `*CS`, missing fields, bad SEQ, invalid UTF-8 ...
  | 'unknown-talker'
  | 'unknown-type'
  | 'bad-field'; // a field out of range (e.g. a die of 7, an invalid card code)

export interface FrameReject {
  reason: RejectReason;
  /** The offending bytes as printable text (non-printables escaped), truncated for logs. */
  raw: string;
}
