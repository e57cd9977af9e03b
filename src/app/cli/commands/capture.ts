/**
 * `tablegw capture <serial-path | hid:VID:PID[:serial]>`: records what a device sends, with the
 * arrival time of every chunk, into a capture file for `tablegw profile check` (docs/DEVICES.md,
 * "Capture files"). Stops after --seconds, on Ctrl-C (exit 0 either way), or when the device goes
 * away (exit 1, the file keeps what arrived).
 */
import { parseArgs } from 'node:util';
import { CaptureFileError, readCaptureFile } from '../../tools/capture-file.js';
import { CaptureError, describeSource, parseCaptureSource, startRecording, type SerialSettings } from '../../tools/capture-recorder.js';
import { captureHexView } from '../../tools/capture-show.js';
import type { CliCommand } from './command.js';

const HELP = `Usage: tablegw capture <serial-path | hid:VID:PID[:serial]> [--seconds <n>] [--out <file>]
                       [--baud <rate>] [--data-bits 8] [--parity none] [--stop-bits 1]
       tablegw capture /dev/serial/by-id/usb-FTDI_... --seconds 60 --out shoe.capture.jsonl
       tablegw capture hid:0c2e:0b61 --out scanner.capture.jsonl
       tablegw capture show <capture-file> [--width 16] [--limit <chunks>]

Records a device's raw bytes with the arrival time of every chunk into a capture file (JSON
lines: a header, then {"t": <ms since start>, "hex": "..."} per chunk; docs/DEVICES.md). Prints a
live byte count. Stops after --seconds or on Ctrl-C (exit 0); exits 1 if the device cannot be
opened or goes away (what arrived is kept). Look at it, learn or check a profile with:
  tablegw capture show <file>     a hex view: one row group per chunk with its time, the gap
                                  since the chunk before, the stream offset, hex and ASCII
                                  (exit 0; 65 not a capture file; 66 missing)
  tablegw profile learn <file> --deal <script>
  tablegw profile check <profile> <file>
  --seconds <n>    stop after n seconds (default: run until Ctrl-C)
  --out <file>     the capture file, never overwritten (default capture-<date>-<time>.jsonl here)
  --baud <rate>    serial speed (default 9600)
  --data-bits <n>  5, 6, 7 or 8 (default 8)
  --parity <p>     none, even, odd, mark or space (default none)
  --stop-bits <n>  1, 1.5 or 2 (default 1)
A HID device is named by its vendor and product id in hex (tablegw devices lists them), plus
its serial number when several of one model are attached; HID needs node-hid's native library.`;

/** a bad option: the message and exit 2 */
class CaptureUsageError extends Error {}

function oneOf<T extends string | number>(name: string, v: string | undefined, allowed: readonly T[], dflt: T): T {
  if (v === undefined) return dflt;
  const hit = allowed.find((a) => String(a) === v);
  if (hit === undefined) throw new CaptureUsageError(`--${name} must be one of ${allowed.join(', ')} (got "${v}")`);
  return hit;
}

export function serialSettingsFrom(values: { baud?: string; 'data-bits'?: string; parity?: string; 'stop-bits'?: string }): SerialSettings {
  const baudRate = values.baud === undefined ? 9600 : Number(values.baud);
  if (!Number.isInteger(baudRate) || baudRate < 50 || baudRate > 4_000_000)
    throw new CaptureUsageError(`--baud must be a whole number of bits per second, e.g. 9600 (got "${values.baud}")`);
  return {
    baudRate,
    dataBits: oneOf('data-bits', values['data-bits'], [5, 6, 7, 8] as const, 8),
    parity: oneOf('parity', values.parity, ['none', 'even', 'odd', 'mark', 'space'] as const, 'none'),
    stopBits: oneOf('stop-bits', values['stop-bits'], [1, 1.5, 2] as const, 1),
  };
}

function defaultOut(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `capture-${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}.jsonl`;
}

function runShow(argv: string[]): number {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { width: { type: 'string' }, limit: { type: 'string' } } });
  const width = values.width === undefined ? 16 : Number(values.width);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (positionals.length !== 1 || !Number.isInteger(width) || width < 1 || width > 64 || (limit !== undefined && (!Number.isInteger(limit) || limit < 1))) {
    console.error(`tablegw capture show: give one capture file (--width 1..64, --limit a number of chunks)\n\n${HELP}`);
    return 2;
  }
  try {
    for (const line of captureHexView(readCaptureFile(positionals[0]), { width, ...(limit ? { limit } : {}) })) console.log(line);
    return 0;
  } catch (e) {
    if (!(e instanceof CaptureFileError)) throw e;
    console.error(`tablegw capture show: ${e.message}`);
    return e.code === 'capture-unreadable' ? 66 : 65;
  }
}

async function run(argv: string[]): Promise<number> {
  if (argv[0] === 'show') return runShow(argv.slice(1));
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      seconds: { type: 'string' },
      out: { type: 'string' },
      baud: { type: 'string' },
      'data-bits': { type: 'string' },
      parity: { type: 'string' },
      'stop-bits': { type: 'string' },
    },
  });
  let settings: SerialSettings;
  let seconds: number | undefined;
  let source: ReturnType<typeof parseCaptureSource>;
  try {
    if (positionals.length !== 1) throw new CaptureUsageError('give one device: a serial port path or hid:VID:PID[:serial]');
    source = parseCaptureSource(positionals[0]);
    settings = serialSettingsFrom(values);
    if (values.seconds !== undefined) {
      seconds = Number(values.seconds);
      if (!Number.isFinite(seconds) || seconds <= 0) throw new CaptureUsageError(`--seconds must be a number of seconds > 0 (got "${values.seconds}")`);
    }
  } catch (e) {
    if (!(e instanceof CaptureUsageError) && !(e instanceof CaptureError)) throw e;
    console.error(`tablegw capture: ${e.message}\n\n${HELP}`);
    return 2;
  }
  const out = values.out ?? defaultOut();
  const tty = process.stderr.isTTY === true;
  let lastShown = -1;
  const show = (bytes: number, chunks: number, force = false): void => {
    if (!force && bytes === lastShown) return;
    lastShown = bytes;
    const line = `${bytes} byte(s) in ${chunks} chunk(s)`;
    if (tty) process.stderr.write(`\r\x1b[K${line}`);
    else process.stderr.write(`${line}\n`);
  };
  let totals = { bytes: 0, chunks: 0 };
  let rec: Awaited<ReturnType<typeof startRecording>>;
  try {
    rec = await startRecording({
      source,
      serial: settings,
      out,
      onProgress: (bytes, chunks) => {
        totals = { bytes, chunks };
        if (tty) show(bytes, chunks);
      },
    });
  } catch (e) {
    if (!(e instanceof CaptureError)) throw e;
    console.error(`tablegw capture: ${e.message}`);
    return 1;
  }
  const where =
    source.kind === 'serial'
      ? `${describeSource(source)} @${settings.baudRate} ${settings.dataBits}${settings.parity[0].toUpperCase()}${settings.stopBits}`
      : describeSource(source);
  console.log(`recording ${where} -> ${out}${seconds ? ` for ${seconds} s` : ''}; Ctrl-C stops`);
  // without a terminal (a log, a test) the count is a line a second, and only when it changed
  const ticker = tty ? null : setInterval(() => show(totals.bytes, totals.chunks), 1000);
  let timer: NodeJS.Timeout | undefined;
  const stopReason = await new Promise<{ code: number; why: string }>((resolve) => {
    if (seconds) timer = setTimeout(() => resolve({ code: 0, why: `${seconds} s elapsed` }), seconds * 1000);
    process.once('SIGINT', () => resolve({ code: 0, why: 'SIGINT' }));
    process.once('SIGTERM', () => resolve({ code: 0, why: 'SIGTERM' }));
    void rec.ended.then((why) => resolve({ code: 1, why }));
  });
  clearTimeout(timer);
  if (ticker) clearInterval(ticker);
  const done = await rec.stop();
  if (tty) process.stderr.write('\n');
  console.log(`stopped (${stopReason.why}): ${done.bytes} byte(s) in ${done.chunks} chunk(s) written to ${out}`);
  return stopReason.code;
}

export const command: CliCommand = {
  summary: "record a device's raw bytes with timestamps into a capture file",
  help: HELP,
  run,
};

export const { summary, help } = command;
