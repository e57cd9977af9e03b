/**
 * `tablegw learn <serial-port> [--kind card-shoe|dice|ball-reader]`: teaches the gateway a device
 * live (docs/DEVICES.md, "Teach the gateway a new device"). It records the port into a capture file
 * (capture-recorder.ts, as `tablegw capture`), tells the technician step by step what to do
 * (the step machine of src/app/tools/learn-guide.ts), shows every frame heard as a hex row, writes
 * the script of what was dealt as it is typed, then runs the learner (`learnProfile`) and writes the
 * profile only when it verified it. The capture and the script stay beside the profile, for
 * `tablegw profile learn` offline. This module is the I/O edge: the port, stdin, the files, signals.
 */
import { appendFileSync, existsSync, renameSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { readCaptureFile } from '../../tools/capture-file.js';
import { CaptureError, startRecording, type Recording, type SerialSettings } from '../../tools/capture-recorder.js';
import { hexViewColumns } from '../../tools/capture-show.js';
import { GUIDE_DEFAULTS, guideStep, initialGuide, learnVariants, type GuideInput, type GuideOptions, type GuideOutput } from '../../tools/learn-guide.js';
import { LEARN_KINDS, type LearnKind, learnProfile } from '../../tools/profile-learn.js';
import { serialSettingsFrom } from './capture.js';
import type { CliCommand } from './command.js';

const HELP = `Usage: tablegw learn <serial-port> [--kind ${LEARN_KINDS.join('|')}] [--out <profile.yaml>] [--name <name>]
                     [--idle-seconds 5] [--baud <rate>] [--data-bits 8] [--parity none] [--stop-bits 1]
       tablegw learn /dev/serial/by-id/usb-FTDI_FT232R-if00-port0 --kind card-shoe --out my-shoe.yaml

Teaches the gateway a device whose format it does not know, live: it records the port and tells
you step by step what to do — leave the device idle a few seconds, load the shoe, deal and type
each card (AS, 10H or TH, KD), roll and type the dice (1 4 6), draw and type the balls (17), or
run a shuffler and type its states and counts (READY, 52) —
showing every frame the device sends as a hex row. "done" ends the deal and runs the learner of
"tablegw profile learn"; when it needs more (more cards, a misread) it asks for exactly that. The
profile is written only once the learner has verified it on the capture as it arrived and
re-chunked. Beside it stay the capture (<out>.capture.jsonl) and the script of what was dealt
(<out>.deal.txt), so "tablegw profile learn <capture> --deal <script>" can rerun it offline.
  --kind <kind>      card-shoe (default), dice-sensor (or dice), ball-reader or shuffler
  --out <file>       the profile (default learned-<kind>.yaml here); none of the three files may exist
  --name <name>      the profile's name (default: the --out file's name)
  --idle-seconds <s> how long the device is left idle at the start (default 5)
  --baud <rate>      serial speed (default 9600); --data-bits, --parity, --stop-bits as tablegw capture
Exit 0 learned (profile written); 1 no profile fits (the closest candidates), the port cannot be
opened, nothing was heard, or the device went away; 3 several profiles fit and what would tell them
apart could not be dealt; 2 bad arguments; 130 interrupted (Ctrl-C): no profile is written, the
capture and the script keep what was recorded. See docs/DEVICES.md, "Teach the gateway a new device".`;

class LearnUsageError extends Error {}

interface Args {
  port: string;
  kind: LearnKind;
  out: string;
  name: string;
  capture: string;
  script: string;
  idleMs: number;
  serial: SerialSettings;
}

function parse(argv: string[]): Args {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      kind: { type: 'string' },
      out: { type: 'string' },
      name: { type: 'string' },
      'idle-seconds': { type: 'string' },
      baud: { type: 'string' },
      'data-bits': { type: 'string' },
      parity: { type: 'string' },
      'stop-bits': { type: 'string' },
    },
  });
  if (positionals.length !== 1 || !positionals[0].trim()) throw new LearnUsageError('give one serial port, e.g. /dev/ttyUSB0');
  const port = positionals[0];
  if (port.startsWith('hid:'))
    throw new LearnUsageError('learn guides serial devices; record a HID device with tablegw capture hid:VID:PID and learn it with tablegw profile learn');
  // `dice` is what a technician calls the reader: the config's kind is dice-sensor
  const kind = (values.kind === 'dice' ? 'dice-sensor' : (values.kind ?? 'card-shoe')) as LearnKind;
  if (!LEARN_KINDS.includes(kind)) throw new LearnUsageError(`--kind must be one of ${LEARN_KINDS.join(', ')} (got "${values.kind}")`);
  const idle = values['idle-seconds'] === undefined ? GUIDE_DEFAULTS.idleMs / 1000 : Number(values['idle-seconds']);
  if (!Number.isFinite(idle) || idle < 0 || idle > 600)
    throw new LearnUsageError(`--idle-seconds must be a number of seconds 0..600 (got "${values['idle-seconds']}")`);
  let serial: SerialSettings;
  try {
    serial = serialSettingsFrom(values);
  } catch (e) {
    throw new LearnUsageError((e as Error).message);
  }
  const out = values.out ?? `learned-${kind}.yaml`;
  const stem = out.replace(/\.ya?ml$/i, '');
  const base = stem.split(/[\\/]/).at(-1) ?? stem;
  const name = values.name ?? base;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new LearnUsageError(`the profile's name "${name}" must be letters, digits, . _ - (give --name)`);
  const a: Args = { port, kind, out, name, capture: `${stem}.capture.jsonl`, script: `${stem}.deal.txt`, idleMs: idle * 1000, serial };
  // a capture or a profile is never overwritten: it may be the only record of what a device sent
  for (const f of [a.out, a.capture, a.script]) if (existsSync(f)) throw new LearnUsageError(`${f} already exists (give another --out)`);
  return a;
}

/** writes `text` to `file` whole or not at all */
function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

async function run(argv: string[]): Promise<number> {
  let a: Args;
  try {
    a = parse(argv);
  } catch (e) {
    if (!(e instanceof LearnUsageError) && !(e instanceof TypeError)) throw e;
    console.error(`tablegw learn: ${e.message}\n\n${HELP}`);
    return 2;
  }
  const o: GuideOptions = { ...GUIDE_DEFAULTS, kind: a.kind, idleMs: a.idleMs };
  let state = initialGuide();
  let t0 = performance.now();
  const now = (): number => Math.round((performance.now() - t0) * 1000) / 1000;
  const pending: GuideInput[] = [];
  let started = false;
  let rec: Recording;
  try {
    rec = await startRecording({
      source: { kind: 'serial', path: a.port },
      serial: a.serial,
      out: a.capture,
      onChunk: (t, bytes) => (started ? feed({ type: 'bytes', t, bytes }) : pending.push({ type: 'bytes', t, bytes })),
    });
  } catch (e) {
    if (!(e instanceof CaptureError)) throw e;
    console.error(`tablegw learn: ${e.message}`);
    return 1;
  }
  t0 = performance.now();
  writeFileSync(a.script, `# tablegw learn --kind ${a.kind} on ${a.port}, started ${rec.header.startedAt}; the capture: ${a.capture}\n`);
  console.log(
    `recording ${a.port} @${a.serial.baudRate} ${a.serial.dataBits}${a.serial.parity[0].toUpperCase()}${a.serial.stopBits} -> ${a.capture}; the script -> ${a.script}; Ctrl-C stops`,
  );
  console.log(`  heard ${hexViewColumns(o.width).replace('chunk', 'frame')}`);

  let settle: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => {
    settle = resolve;
  });
  let over = false;
  const rl = createInterface({ input: process.stdin, terminal: false });
  const tick = setInterval(() => feed({ type: 'tick', now: now() }), 20);

  const end = async (code: number, lines: string[]): Promise<void> => {
    if (over) return;
    over = true;
    clearInterval(tick);
    rl.close();
    await rec.stop();
    for (const l of lines) console.log(l);
    settle(code);
  };

  function act(out: GuideOutput): void {
    switch (out.type) {
      case 'say':
        console.log(out.text);
        break;
      case 'script':
        appendFileSync(a.script, `${out.line}\n`);
        break;
      case 'learn':
        // after what was said is out; the learner takes a moment
        setImmediate(() => {
          if (over) return;
          const capture = readCaptureFile(a.capture);
          const outcome = learnVariants(out.scripts, (script) =>
            learnProfile({ capture: capture.chunks, script, kind: a.kind, name: a.name, transport: 'serial' }),
          );
          feed({ type: 'learned', outcome, now: now() });
        });
        break;
      case 'finish': {
        const head = `# tablegw learn --kind ${a.kind} on ${a.port}, started ${rec.header.startedAt}; the capture: ${a.capture}\n# what was dealt, in order (tablegw profile learn ${a.capture} --deal ${a.script})\n`;
        writeAtomic(a.script, head + out.script);
        const lines: string[] = [];
        const r = out.outcome?.result;
        if (out.exit === 0 && r?.exit === 0) {
          writeAtomic(a.out, r.yaml);
          for (const w of r.warnings) lines.push(`warning: ${w}`);
          lines.push(`profile written to ${a.out} (verified on the capture as it arrived and re-chunked); capture ${a.capture}; script ${a.script}`);
          lines.push(`check it with: tablegw profile check ${a.out} ${a.capture}`);
        } else if (out.reason === 'nothing-heard') {
          lines.push(
            `nothing was heard from ${a.port}: check the cable, that the device is on, and the line settings (--baud ${a.serial.baudRate}); no profile written`,
          );
        } else {
          lines.push(`no profile written; the capture ${a.capture} and the script ${a.script} stay for tablegw profile learn`);
        }
        void end(out.exit, lines);
        break;
      }
    }
  }

  function feed(input: GuideInput): void {
    if (over) return;
    const step = guideStep(o, state, input);
    state = step.state;
    for (const out of step.outputs) act(out);
  }

  rl.on('line', (text) => feed({ type: 'line', text, now: now() }));
  rl.on('close', () => feed({ type: 'end-of-input', now: now() }));
  const interrupted = (sig: string): void => {
    if (over) return;
    // no profile is written; the capture and the script as typed so far stay (both are complete files)
    void end(130, [`\ninterrupted (${sig}): no profile written; the capture ${a.capture} and the script ${a.script} keep what was recorded`]);
  };
  process.once('SIGINT', () => interrupted('SIGINT'));
  process.once('SIGTERM', () => interrupted('SIGTERM'));
  void rec.ended.then((why) => {
    if (over) return;
    void end(1, [`the device went away: ${why}; no profile written; the capture ${a.capture} and the script ${a.script} keep what was recorded`]);
  });

  started = true;
  feed({ type: 'start', now: now() });
  for (const p of pending.splice(0)) feed(p);
  return finished;
}

export const command: CliCommand = {
  summary: 'teach the gateway a new device live: record it while telling you what to deal, then learn its profile',
  help: HELP,
  run,
};

export const { summary, help } = command;
