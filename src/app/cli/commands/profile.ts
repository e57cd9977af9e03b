/**
 * `tablegw profile check <profile> [capture]` and `tablegw profile list`: an installer's tools for
 * device profiles (docs/DEVICES.md, "Write a profile for your device"). The work is done in
 * src/app/tools/profile-check.ts; this module parses the arguments, prints and picks the exit code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { hex4 } from '../../../../drivers/transports/hid-loader.js';
import { CaptureFileError, readCaptureFile } from '../../tools/capture-file.js';
import { checkProfile, decodeCapture, formatDecode, hintFor, listShippedProfiles, rechunkCheck, verdict } from '../../tools/profile-check.js';
import { parseScript } from '../../tools/learn/script.js';
import { LEARN_KINDS, type LearnKind, learnProfile } from '../../tools/profile-learn.js';
import type { CliCommand } from './command.js';

/** exit codes of `profile check` (documented in the help and docs/DEVICES.md) */
export const PROFILE_EXIT = {
  ok: 0,
  /** the capture decoded to no frame at all: the profile does not fit the device */
  noFrames: 1,
  usage: 2,
  /** the profile (or the capture file) is invalid: every mistake is printed */
  invalid: 65,
  /** the profile or the capture file does not exist / cannot be read */
  missing: 66,
} as const;

const HELP = `Usage: tablegw profile check <profile> [<capture-file>] [--json]
       tablegw profile learn <capture-file> --deal <script-file> [--kind card-shoe] [--out <file>] [--name <name>] [--json]
       tablegw profile list [--json]

check   Validates a device profile — a shipped profile's name or the path of a YAML file — and
        prints every mistake with its key path (messages named by their name). Given a capture
        (tablegw capture), it then decodes it chunk by chunk with the gateway's own decoder and
        prints every frame and every reject (reason and bytes), then frames by type, rejects by
        reason and a verdict; then it decodes the capture again re-chunked (1-byte chunks, random
        cuts, all at once) and says whether that gave the same frames and rejects. Warnings: a
        profile without integrity check, frames ended by silence although the grammar says where
        they end, keys of profile language v1 (read in their v1.2 form).
learn   Learns a profile from a capture of a known deal (tablegw capture) and the script of what
        was dealt, in order (cards as AS TH 9C, MISREAD, RESCAN:<card>, CUT, LOADED, DROP; a
        shuffler's SHUF:<state> and COUNT:<n>; # starts a comment; heartbeats are not listed). It searches the frame grammar for the profiles that
        decode the capture to exactly the script's events, keeps the simplest, verifies it on the
        capture as it arrived and re-chunked, and writes it to --out (or prints it) with comments
        saying what was inferred from how many frames. --kind: ${LEARN_KINDS.join(', ')}.
        A HID capture (tablegw capture hid:VID:PID) gives a report layout (input: hid-report),
        verified report by report and with the reports batched. Dice: ROLL:<a>,<b>,<c>, NOREAD.
        Exit 0 learned (and written); 1 no profile fits (the closest candidates and what failed),
        or the capture is empty; 3 several profiles fit but would decode other frames differently
        (what would tell them apart: "deal more cards", "include a misread"); 2 bad arguments;
        65 the capture or the script is invalid; 66 a file does not exist.
list    The shipped profiles (drivers/profiles/shipped/) with their talker, USB ids and a line
        saying what they read.
  --json   machine-readable output

Exit codes of check: 0 valid (and the capture decoded at least one frame), 1 the capture decoded
to no frame (the profile does not match the device), 2 bad arguments, 65 the profile or the
capture file is invalid, 66 the profile or the capture file does not exist.
See docs/DEVICES.md, "Write a profile for your device".`;

async function runCheck(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean' } } });
  if (positionals.length < 1 || positionals.length > 2) {
    console.error(`tablegw profile check: give a profile and optionally a capture file\n\n${HELP}`);
    return PROFILE_EXIT.usage;
  }
  const [ref, captureFile] = positionals;
  const check = checkProfile(ref);
  if (!check.ok) {
    if (values.json) console.log(JSON.stringify({ profile: { ref, file: check.file, valid: false, code: check.code, errors: check.errors } }, null, 2));
    else if (check.code === 'profile-missing') console.error(`tablegw profile check: ${check.errors[0]}`);
    else console.error(`${check.file}: invalid profile, ${check.errors.length} mistake(s)\n${check.errors.map((e) => `  - ${e}`).join('\n')}`);
    return check.code === 'profile-missing' ? PROFILE_EXIT.missing : PROFILE_EXIT.invalid;
  }
  const p = check.profile;
  const profileInfo = { ref, file: check.file, valid: true, name: p.name, talker: p.talker, messages: p.messages.map((m) => m.name), warnings: check.warnings };
  const warn = (): void => {
    for (const w of check.warnings) console.log(`warning: ${w}`);
  };
  if (!captureFile) {
    if (values.json) console.log(JSON.stringify({ profile: profileInfo }, null, 2));
    else {
      console.log(`${check.file}: valid profile "${p.name}" (${p.talker}; messages: ${profileInfo.messages.join(', ')})`);
      warn();
    }
    return PROFILE_EXIT.ok;
  }
  let capture: ReturnType<typeof readCaptureFile>;
  try {
    capture = readCaptureFile(captureFile);
  } catch (e) {
    if (!(e instanceof CaptureFileError)) throw e;
    if (values.json)
      console.log(JSON.stringify({ profile: profileInfo, capture: { file: captureFile, valid: false, code: e.code, error: e.message } }, null, 2));
    else console.error(e.message);
    return e.code === 'capture-unreadable' ? PROFILE_EXIT.missing : PROFILE_EXIT.invalid;
  }
  const r = decodeCapture(p, capture.chunks);
  const rechunked = rechunkCheck(p, capture.chunks, r);
  if (values.json) {
    console.log(
      JSON.stringify(
        {
          profile: profileInfo,
          capture: {
            file: captureFile,
            valid: true,
            header: capture.header,
            items: r.items,
            summary: r.summary,
            verdict: verdict(r.summary),
            hint: hintFor(r.summary),
            rechunked,
          },
        },
        null,
        2,
      ),
    );
  } else {
    console.log(`${check.file}: valid profile "${p.name}" (${p.talker})`);
    warn();
    console.log(`${captureFile}: ${capture.header.port}, started ${capture.header.startedAt}`);
    for (const line of formatDecode(r)) console.log(line);
    console.log(
      rechunked.same
        ? `re-chunked (${rechunked.variants.join(', ')}): the same frames and rejects`
        : `re-chunked: DIFFERS from the capture as it arrived (decoding depends on how the bytes were chunked): ${rechunked.difference}`,
    );
  }
  return r.summary.frames === 0 ? PROFILE_EXIT.noFrames : PROFILE_EXIT.ok;
}

function runLearn(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { deal: { type: 'string' }, kind: { type: 'string' }, out: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean' } },
  });
  const kind = (values.kind ?? 'card-shoe') as LearnKind;
  if (positionals.length !== 1 || !values.deal || !LEARN_KINDS.includes(kind)) {
    console.error(
      `tablegw profile learn: give a capture file and --deal <script-file>${LEARN_KINDS.includes(kind) ? '' : ` (--kind is one of ${LEARN_KINDS.join(', ')})`}\n\n${HELP}`,
    );
    return PROFILE_EXIT.usage;
  }
  let capture: ReturnType<typeof readCaptureFile>;
  try {
    capture = readCaptureFile(positionals[0]);
  } catch (e) {
    if (!(e instanceof CaptureFileError)) throw e;
    console.error(`tablegw profile learn: ${e.message}`);
    return e.code === 'capture-unreadable' ? PROFILE_EXIT.missing : PROFILE_EXIT.invalid;
  }
  let scriptText: string;
  try {
    scriptText = readFileSync(values.deal, 'utf8');
  } catch (e) {
    console.error(`tablegw profile learn: ${values.deal}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    return PROFILE_EXIT.missing;
  }
  const script = parseScript(scriptText);
  if (!script.ok) {
    console.error(`tablegw profile learn: ${values.deal}: ${script.reason}`);
    return PROFILE_EXIT.invalid;
  }
  const r = learnProfile({
    capture: capture.chunks,
    script: script.events,
    kind,
    transport: capture.header.transport,
    ...(values.name ? { name: values.name } : {}),
  });
  if (r.exit === 0 && values.out) writeFileSync(values.out, r.yaml);
  if (values.json) {
    console.log(
      JSON.stringify(
        r.exit === 0
          ? { exit: 0, status: r.status, out: values.out ?? null, notes: r.notes, warnings: r.warnings, equivalent: r.equivalent, profile: r.yaml }
          : r,
        null,
        2,
      ),
    );
    return r.exit;
  }
  if (r.exit === 0) {
    if (!values.out) process.stdout.write(r.yaml);
    console.error(
      `learned from ${capture.chunks.length} chunk(s) and ${script.events.length} event(s); verified on the capture as it arrived and ${capture.header.transport === 'hid' ? 'with its reports batched' : 're-chunked'}${values.out ? `; written to ${values.out}` : ''}`,
    );
    for (const n of r.notes) console.error(`  ${n}`);
    for (const w of r.warnings) console.error(`warning: ${w}`);
    if (r.equivalent > 1)
      console.error(`${r.equivalent} candidates decode the capture identically; the simplest was kept (one that resyncs on its start byte, where one does)`);
    return 0;
  }
  if (r.exit === 3) {
    console.error(`tablegw profile learn: ${r.reason}; nothing written`);
    for (const t of r.tellApart) console.error(`  to tell them apart: ${t}`);
    for (const c of r.candidates) console.error(`  candidate: ${c.description}${c.problem ? ` (${c.problem})` : ''}`);
    return 3;
  }
  console.error(`tablegw profile learn: ${r.reason}; nothing written`);
  for (const c of r.closest) console.error(`  closest: ${c.description}: ${c.problem ?? ''}`);
  return 1;
}

function runList(argv: string[]): number {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } } });
  const list = listShippedProfiles();
  if (values.json) {
    console.log(JSON.stringify(list, null, 2));
    return 0;
  }
  const w = Math.max(...list.map((e) => e.name.length));
  for (const e of list) {
    const usb = e.usb.length ? `  [usb ${e.usb.map((u) => `${hex4(u.vendorId)}:${hex4(u.productId)}`).join(', ')}]` : '';
    console.log(`${e.name.padEnd(w)}  ${(e.talker ?? '?').padEnd(4)}  ${e.error ? `INVALID: ${e.error}` : e.description}${usb}`);
  }
  return 0;
}

export const command: CliCommand = {
  summary: 'check a device profile (and decode a capture with it); learn one from a known deal; list the shipped profiles',
  help: HELP,
  async run(argv: string[]): Promise<number> {
    const [sub, ...rest] = argv;
    if (sub === 'check') return runCheck(rest);
    if (sub === 'list') return runList(rest);
    if (sub === 'learn') return runLearn(rest);
    console.error(`tablegw profile: ${sub === undefined ? 'give a subcommand' : `unknown subcommand "${sub}"`} (check, learn or list)\n\n${HELP}`);
    return PROFILE_EXIT.usage;
  },
};

export const { summary, help, run } = command;
