/**
 * A device driver = a transport (bytes in and out) + a codec (bytes -> typed frames) + the line
 * discipline every serial device shares: SEQ checks, `bad-frame` alerts at most once a second with
 * a count, and the stale timer. It turns everything into `DriverEvent`s for the table.
 */
import { type Observable, Subject, type Subscription } from 'rxjs';
import type { DeviceFrame, FrameReject } from '../src/core/vocabulary/frames.js';
import { redactSample } from './codecs/redact.js';
import { SeqTracker } from './codecs/seq-tracker.js';
import type { SerialLatency, Transport } from './transports/transport.js';
import { NO_PROBE, type Probe } from '../src/core/vocabulary/probe.js';

export type DriverEvent =
  | { kind: 'frame'; frame: DeviceFrame }
  | { kind: 'status'; state: 'connected' | 'disconnected' | 'stale'; detail?: string }
  | { kind: 'alert'; alert: 'bad-frame' | 'frame-gap' | 'unknown-tag'; detail: string; data?: Record<string, unknown> }
  | { kind: 'restart' };

/** Anything that turns raw bytes into frames and rejects (line codecs, HID decoders). */
export interface FrameDecoder {
  push(chunk: Buffer): Array<DeviceFrame | FrameReject>;
  reset?(): void;
  /** the line went silent: end the pending frame (profile decoders with `framing.idleMs`) */
  flushIdle?(): Array<DeviceFrame | FrameReject>;
}

export interface DeviceDriverOptions {
  deviceId: string;
  transport: Transport;
  decoder: FrameDecoder;
  staleAfterMs: number;
  /** SEQ modulus: 65536 for serial lines, 256 for the HID dice sensor; 0 = no SEQ checks */
  seqModulus?: number;
  /** encodes a gateway command for this device (`RESCAN`, `LOCK`, ...); none = commands are not supported */
  encodeCommand?: (command: string) => Buffer | string | null;
  /** optional frame transform (e.g. RFID tag -> card); return null to drop, or an event to emit instead */
  mapFrame?: (frame: DeviceFrame) => DeviceFrame | DriverEvent | null;
  badFrameWindowMs?: number;
  /**
   * Inter-byte idle timeout: after this many ms without a byte, `decoder.flushIdle()` ends the
   * pending frame (a profile's `framing.idleMs`; the decoder itself has no clock). 0 / absent: off.
   */
  idleFlushMs?: number;
  /** marks each chunk decoded (a measuring tool's; none by default) */
  probe?: Probe;
}

/** a stale timer this late (ms) ran after an event-loop stall: the device's input may be unread */
const STALL_LATE_MS = 100;
/** how long the stale decision waits after a stall for that input to be read */
const STALL_GRACE_MS = 1000;

/** the most frames of one gap the driver waits for (devices keep at least their last 64) */
const MAX_MISSING = 1024;

export class DeviceDriver {
  readonly events$: Observable<DriverEvent>;
  private readonly subject = new Subject<DriverEvent>();
  private readonly probe: Probe;
  private readonly seq: SeqTracker | null;
  private subs: Subscription[] = [];
  private staleTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private badCount = 0;
  private badWindow: NodeJS.Timeout | null = null;
  private badReasons: Record<string, number> = {};
  private lastBadRaw = '';
  private connected = false;
  private stale = false;
  /** the last frame passed to the table was `ERR`: the next heartbeat is passed too (it ends the fault) */
  private faulted = false;
  private lastDownDetail: string | undefined;
  /** called with the SEQ of every valid frame accepted (the runtime keeps it durable) */
  onSeq: ((seq: number) => void) | null = null;
  /** device SEQs lost in a gap and not yet re-sent (a `REPEAT` may bring them) */
  private missing = new Set<number>();
  /** a `REPEAT` was sent: frames behind the last SEQ are re-sent ones, not gaps */
  private repeating = false;
  /** frames dropped as duplicate retransmissions (no alert) */
  duplicates = 0;
  /** frames rejected since start */
  rejectedTotal = 0;
  framesTotal = 0;
  private rejectsByReason: Record<string, number> = {};
  private lastRejectSeen: { reason: string; sample: string } | null = null;

  /** The serial port's low-latency mode and latency timer (serial transports only). */
  get latency(): SerialLatency | undefined {
    return this.opts.transport.latency;
  }

  constructor(private readonly opts: DeviceDriverOptions) {
    this.seq = opts.seqModulus === 0 ? null : new SeqTracker(opts.seqModulus ?? 65536);
    this.probe = opts.probe ?? NO_PROBE;
    this.events$ = this.subject.asObservable();
  }

  get deviceId(): string {
    return this.opts.deviceId;
  }

  start(): void {
    const t = this.opts.transport;
    this.subs.push(
      t.status$.subscribe((s) => {
        if (s.state === 'connected') {
          this.connected = true;
          // the SEQ baseline survives a reopen: frames sent while the line was down are a gap too
          this.opts.decoder.reset?.();
          this.subject.next({ kind: 'status', state: 'connected', detail: s.detail });
          this.armStale();
        } else {
          const was = this.connected;
          this.connected = false;
          this.clearStale();
          // report a loss of connection, and each new reason a port cannot be opened (not every retry)
          if (was || (s.detail && s.detail !== this.lastDownDetail && s.detail !== 'not started')) {
            this.subject.next({ kind: 'status', state: 'disconnected', detail: s.detail });
          }
          this.lastDownDetail = s.detail;
        }
      }),
    );
    this.subs.push(t.data$.subscribe((chunk) => this.onBytes(chunk)));
    t.start();
  }

  /** frames rejected since start, by reason (cumulative; the `bad-frame` alert counts per window) */
  get rejectedByReason(): Readonly<Record<string, number>> {
    return { ...this.rejectsByReason };
  }

  /** the last reject: its reason and its sample, redacted like the alert's (no card value) */
  get lastReject(): { reason: string; sample: string } | null {
    return this.lastRejectSeen;
  }

  /** the last SEQ accepted, undefined before any (or with no SEQ checks) */
  get lastSeq(): number | undefined {
    return this.seq?.last;
  }

  /** the baseline from before a gateway restart (the table's durable state) */
  seedSeq(seq: number): void {
    this.seq?.seed(seq);
  }

  /** sends a gateway command (e.g. `RESCAN`) if the device supports commands */
  send(command: string): boolean {
    const bytes = this.opts.encodeCommand?.(command);
    if (!bytes) return false;
    if (command.startsWith('REPEAT,')) this.repeating = true;
    this.opts.transport.write(bytes);
    return true;
  }

  async stop(): Promise<void> {
    this.clearStale();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.badWindow) clearTimeout(this.badWindow);
    this.badWindow = null;
    for (const s of this.subs) s.unsubscribe();
    this.subs = [];
    await this.opts.transport.stop();
    this.subject.complete();
  }

  private onBytes(chunk: Buffer): void {
    let items: Array<DeviceFrame | FrameReject>;
    try {
      items = this.opts.decoder.push(chunk);
    } catch (e) {
      // A decoder must never throw; if one does, the bytes are rejected, not the gateway.
      items = [{ reason: 'malformed', raw: `decoder error: ${(e as Error).message}` }];
    }
    if (this.probe.on) this.probe.frameDecoded();
    this.onItems(items);
    this.armIdle();
  }

  private onItems(items: Array<DeviceFrame | FrameReject>): void {
    for (const it of items) {
      if ('reason' in it) this.onReject(it);
      else this.onFrame(it);
    }
  }

  /** (re)starts the silence timer after bytes arrived; it fires once per silence */
  private armIdle(): void {
    const ms = this.opts.idleFlushMs;
    if (!ms || ms <= 0 || !this.opts.decoder.flushIdle) return;
    if (this.idleTimer) {
      this.idleTimer.refresh();
      return;
    }
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      let items: Array<DeviceFrame | FrameReject>;
      try {
        items = this.opts.decoder.flushIdle?.() ?? [];
      } catch (e) {
        items = [{ reason: 'malformed', raw: `decoder error: ${(e as Error).message}` }];
      }
      this.onItems(items);
    }, ms);
    this.idleTimer.unref?.();
  }

  private onFrame(frame: DeviceFrame): void {
    this.framesTotal++;
    this.armStale();
    let repeated = false;
    if (this.seq) {
      const m = this.seq.modulus;
      const last = this.seq.last;
      if (this.missing.has(frame.seq)) {
        // a frame lost in a gap, re-sent after `REPEAT`: passed on once (even a heartbeat: it fills the gap)
        this.missing.delete(frame.seq);
        repeated = true;
      } else if (this.repeating && last !== undefined && frame.seq !== 0 && frame.seq !== last && (last - frame.seq + m) % m <= Math.min(MAX_MISSING, m >> 1)) {
        // re-sent after `REPEAT` but already taken
        this.duplicates++;
        return;
      } else {
        const r = this.seq.check(frame.seq);
        if (r.kind === 'duplicate') {
          this.duplicates++;
          return;
        }
        if (r.kind === 'gap') {
          const fromSeq = ((last ?? 0) + 1) % m;
          if (r.missing <= MAX_MISSING) for (let i = 0; i < r.missing; i++) this.missing.add((fromSeq + i) % m);
          this.subject.next({
            kind: 'alert',
            alert: 'frame-gap',
            detail: `${r.missing} frame(s) lost on the line before SEQ ${frame.seq}`,
            data: { missing: r.missing, deviceSeq: frame.seq, fromSeq, modulus: m },
          });
        } else if (r.kind === 'restart') {
          this.missing.clear();
          this.repeating = false;
          this.subject.next({ kind: 'restart' });
        }
        this.onSeq?.(frame.seq);
      }
    }
    const wasStale = this.stale;
    this.stale = false;
    const wasFaulted = this.faulted;
    this.faulted = frame.type === 'ERR';
    // Heartbeats only matter to the table when they end a stale period or a fault (`ERR`).
    if (frame.type === 'HB' && !wasStale && !wasFaulted && !repeated) return;
    const mapped = this.opts.mapFrame ? this.opts.mapFrame(frame) : frame;
    if (!mapped) return;
    if ('kind' in mapped) this.subject.next(mapped);
    else this.subject.next({ kind: 'frame', frame: mapped });
  }

  private onReject(r: FrameReject): void {
    this.rejectedTotal++;
    this.badCount++;
    this.badReasons[r.reason] = (this.badReasons[r.reason] ?? 0) + 1;
    // the sample may be a corrupted face-down card frame: its values never leave (redact.ts)
    this.lastBadRaw = redactSample(r.raw);
    this.rejectsByReason[r.reason] = (this.rejectsByReason[r.reason] ?? 0) + 1;
    this.lastRejectSeen = { reason: r.reason, sample: this.lastBadRaw };
    if (!this.badWindow) this.flushBadFrames();
  }

  /** publishes the pending count, then holds further alerts for one window */
  private flushBadFrames(): void {
    if (this.badCount === 0) {
      this.badWindow = null;
      return;
    }
    const count = this.badCount;
    const reasons = this.badReasons;
    this.badCount = 0;
    this.badReasons = {};
    this.subject.next({
      kind: 'alert',
      alert: 'bad-frame',
      detail: `${count} frame(s) rejected (${Object.entries(reasons)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')})`,
      data: { count, reasons, sample: this.lastBadRaw },
    });
    this.badWindow = setTimeout(() => this.flushBadFrames(), this.opts.badFrameWindowMs ?? 1000);
    this.badWindow.unref?.();
  }

  private armStale(): void {
    if (!this.connected || this.opts.staleAfterMs <= 0) return;
    this.clearStale();
    const due = performance.now() + this.opts.staleAfterMs;
    this.staleTimer = setTimeout(() => this.staleDue(due), this.opts.staleAfterMs);
    this.staleTimer.unref?.();
  }

  /**
   * The stale timer ran out. When it ran late, the event loop was held up (a long synchronous
   * task, a stopped process): what the device sent meanwhile is still unread in the OS, and
   * timers run before reads when the loop resumes. The decision then waits a grace (at most
   * STALL_GRACE_MS) so that input is read first; a valid frame read in it re-arms the timer
   * (`onFrame` -> `armStale`), and only silence through it is stale.
   */
  private staleDue(due: number): void {
    this.staleTimer = null;
    const late = performance.now() - due;
    if (late > STALL_LATE_MS) {
      this.staleTimer = setTimeout(() => this.staleDue(Number.POSITIVE_INFINITY), Math.min(STALL_GRACE_MS, this.opts.staleAfterMs));
      this.staleTimer.unref?.();
      return;
    }
    this.stale = true;
    this.subject.next({ kind: 'status', state: 'stale', detail: `no valid frame for ${this.opts.staleAfterMs} ms` });
  }

  private clearStale(): void {
    if (this.staleTimer) clearTimeout(this.staleTimer);
    this.staleTimer = null;
  }
}
