/**
 * The journal export's archive format (docs/SECURITY.md "Export signatures", docs/DURABILITY.md
 * "Exports"), and its offline verification. Depends on nothing but `node:crypto` and signing.ts's
 * canonical JSON, so an auditor can verify an archive without the rest of the gateway.
 *
 * An archive is UTF-8 JSON lines, each ending in `\n`, nothing after the last:
 *   1. the HEADER: `{"format":"tablegw-export/1","kind":"header",...,"signature":{...}}` naming the
 *      range, the gateway, the signer's key id, its fingerprint and its public key (SPKI PEM);
 *   2. ENTRIES, one a line: `{"kind":"input"|"message","n":<1..>,"prev":<hex SHA-256 of the
 *      previous line's bytes>,...}`, the journal's inputs of the range and the messages they caused,
 *      in journal order; `n` counts them from 1 and `prev` chains each line to the one before it
 *      (the first entry's `prev` is the hash of the header line);
 *   3. the TRAILER: `{"kind":"trailer","count":<entries>,"prev":<hash of the last line before it>,
 *      "signature":{...}}`.
 * The header and the trailer are written in canonical JSON (signing.ts) and must be read back in
 * exactly that form; each is signed with Ed25519 over its canonical JSON without `signature.sig`.
 * Since the trailer's `prev` chains through every line back to the header, the trailer's signature
 * covers every byte of the archive: a changed byte anywhere makes it fail with one of the stable
 * codes of `ExportProblemCode`.
 */
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson, keyFingerprint, SIGNATURE_ALG } from './signing.js';

export const EXPORT_FORMAT = 'tablegw-export/1';

/** why an archive does not verify (stable codes: docs/OPERATIONS.md "Verifying an export") */
export type ExportProblemCode = 'export-damaged' | 'export-chain-broken' | 'export-signature-bad' | 'export-unsigned';

/** the exit code of `tablegw verify-export` for each problem */
export const EXPORT_EXIT_CODES: Record<ExportProblemCode, number> = {
  'export-damaged': 10,
  'export-chain-broken': 11,
  'export-signature-bad': 12,
  'export-unsigned': 13,
};

export interface ExportSignature {
  alg: typeof SIGNATURE_ALG;
  keyId: string;
  sig: string;
}

export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  kind: 'header';
  gatewayId: string;
  createdAt: string;
  /** the range asked for: `at` from (inclusive) to (exclusive), ISO 8601; or input ids after/through */
  range: { fromAt?: string; toAt?: string; afterInputId?: number; throughInputId?: number; tables: string[] | null };
  /** the signer: its fingerprint (signing.ts keyFingerprint) and its public key (SPKI PEM) */
  key: { fingerprint: string; publicKey: string } | null;
  signature?: ExportSignature;
}

export interface InputEntry {
  kind: 'input';
  n: number;
  prev: string;
  tableId: string;
  /** the journal's input id and time (ms) */
  inputId: number;
  at: number;
  /** the journal's text of the input, as stored */
  input: string;
}

export interface MessageEntry {
  kind: 'message';
  n: number;
  prev: string;
  tableId: string;
  seq: number;
  inputId: number;
  topic: string;
  retain: boolean;
  /** the published text, as stored */
  payload: string;
}

export type ExportEntry = InputEntry | MessageEntry;

export interface ExportTrailer {
  kind: 'trailer';
  count: number;
  prev: string;
  /** the highest input id exported, null when none (the scheduled export continues above it) */
  throughInputId: number | null;
  inputs: number;
  messages: number;
  signature?: ExportSignature;
}

function sha256(b: Buffer | string): string {
  return createHash('sha256').update(b).digest('hex');
}

function signed<T extends { signature?: ExportSignature }>(o: T, key: { privateKey: KeyObject; keyId: string } | null): T {
  if (!key) return o;
  const covered = { alg: SIGNATURE_ALG, keyId: key.keyId };
  const body = canonicalJson({ ...o, signature: covered } as Record<string, unknown>);
  return { ...o, signature: { ...covered, sig: sign(null, Buffer.from(body, 'utf8'), key.privateKey).toString('base64') } };
}

/**
 * Writes an archive line by line (`write` gets each line with its `\n`). The chain and the counts are
 * kept here; `finish()` writes the trailer.
 */
export class ExportWriter {
  private prev: string;
  private n = 0;
  private inputs = 0;
  private messages = 0;
  private through: number | null = null;

  constructor(
    private readonly write: (line: string) => void,
    header: Omit<ExportHeader, 'format' | 'kind' | 'key' | 'signature'>,
    private readonly key: { privateKey: KeyObject; keyId: string } | null,
  ) {
    const h: ExportHeader = {
      format: EXPORT_FORMAT,
      kind: 'header',
      ...header,
      key: key
        ? { fingerprint: keyFingerprint(key.privateKey), publicKey: createPublicKey(key.privateKey).export({ type: 'spki', format: 'pem' }).toString() }
        : null,
    };
    const line = canonicalFull(signed(h, key) as unknown as Record<string, unknown>);
    this.prev = this.emit(line);
  }

  private emit(line: string): string {
    const text = `${line}\n`;
    this.write(text);
    return sha256(Buffer.from(line, 'utf8'));
  }

  input(e: Omit<InputEntry, 'kind' | 'n' | 'prev'>): void {
    this.n++;
    this.inputs++;
    this.through = Math.max(this.through ?? 0, e.inputId);
    this.prev = this.emit(JSON.stringify({ kind: 'input', n: this.n, prev: this.prev, ...e }));
  }

  message(e: Omit<MessageEntry, 'kind' | 'n' | 'prev'>): void {
    this.n++;
    this.messages++;
    this.prev = this.emit(JSON.stringify({ kind: 'message', n: this.n, prev: this.prev, ...e }));
  }

  finish(): ExportTrailer {
    const t: ExportTrailer = signed<ExportTrailer>(
      { kind: 'trailer', count: this.n, prev: this.prev, throughInputId: this.through, inputs: this.inputs, messages: this.messages },
      this.key,
    );
    this.emit(canonicalFull(t as unknown as Record<string, unknown>));
    return t;
  }
}

export type VerifyExportResult =
  | { ok: true; header: ExportHeader; trailer: ExportTrailer; keyId: string; verifiedBy: string; embeddedKey: boolean }
  | { ok: false; code: ExportProblemCode; reason: string; line?: number };

function fail(code: ExportProblemCode, reason: string, line?: number): VerifyExportResult {
  return { ok: false, code, reason, ...(line !== undefined ? { line } : {}) };
}

function parseObject(b: Buffer): Record<string, unknown> | null {
  const text = b.toString('utf8');
  // a byte that is not UTF-8 decodes to U+FFFD: the bytes are no longer what was written
  if (!Buffer.from(text, 'utf8').equals(b)) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function checkSignature(o: Record<string, unknown>, pub: KeyObject, what: string, line: number): VerifyExportResult | null {
  const s = o.signature as Record<string, unknown> | undefined;
  // the header names a signing key (checked before): a missing signature is damage, not an unsigned export
  if (s === undefined || s === null) return fail('export-damaged', `the ${what} carries no signature though the header names a key`, line);
  if (typeof s !== 'object' || s.alg !== SIGNATURE_ALG || typeof s.keyId !== 'string' || typeof s.sig !== 'string')
    return fail('export-damaged', `the ${what}'s signature is malformed`, line);
  const sig = Buffer.from(s.sig, 'base64');
  // only the canonical base64 of 64 bytes: the spare bits of the last digit may not vary
  if (sig.length !== 64 || sig.toString('base64') !== s.sig)
    return fail('export-signature-bad', `the ${what}'s signature is not 64 bytes of canonical base64`, line);
  const { sig: _s, ...covered } = s;
  if (!verify(null, Buffer.from(canonicalJson({ ...o, signature: covered }), 'utf8'), pub, sig)) {
    return fail('export-signature-bad', `the ${what}'s signature does not match (signed as ${s.keyId}; the key checked is ${keyFingerprint(pub)})`, line);
  }
  return null;
}

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * Checks an archive (its bytes) offline. `publicKey`: the gateway's public key (SPKI PEM) the
 * signer must be; without it the key named in the header is used (the archive is then shown
 * intact and consistent, `embeddedKey: true`, but who signed it is only as good as that key).
 */
export function verifyExport(bytes: Buffer, publicKey?: string | Buffer | KeyObject): VerifyExportResult {
  if (bytes.length === 0) return fail('export-damaged', 'the file is empty');
  if (bytes[bytes.length - 1] !== 0x0a) return fail('export-damaged', 'the file does not end with the trailer line (truncated?)');
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      lines.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  if (lines.length < 2) return fail('export-damaged', 'the file holds no header and trailer');
  const header = parseObject(lines[0]);
  if (!header || header.format !== EXPORT_FORMAT || header.kind !== 'header') return fail('export-damaged', `line 1 is not a ${EXPORT_FORMAT} header`, 1);
  if (!isCanonical(header, lines[0])) return fail('export-damaged', 'line 1 (the header) is not in its canonical form', 1);
  const trailerLine = lines.length;
  const trailer = parseObject(lines[lines.length - 1]);
  if (trailer?.kind !== 'trailer' || !Number.isInteger(trailer.count) || typeof trailer.prev !== 'string')
    return fail('export-damaged', `line ${trailerLine} is not the trailer (truncated?)`, trailerLine);
  if (!isCanonical(trailer, lines[lines.length - 1]))
    return fail('export-damaged', `line ${trailerLine} (the trailer) is not in its canonical form`, trailerLine);
  let prev = sha256(lines[0]);
  for (let i = 1; i < lines.length - 1; i++) {
    const e = parseObject(lines[i]);
    if (!e || (e.kind !== 'input' && e.kind !== 'message') || typeof e.prev !== 'string' || !HEX64.test(e.prev))
      return fail('export-damaged', `line ${i + 1} is not an entry`, i + 1);
    if (e.n !== i) return fail('export-chain-broken', `line ${i + 1} is entry ${String(e.n)}, not ${i} (an entry missing, added or moved)`, i + 1);
    if (e.prev !== prev) return fail('export-chain-broken', `line ${i + 1} does not chain to the line before it (that line was changed, or this one)`, i + 1);
    prev = sha256(lines[i]);
  }
  if (trailer.count !== lines.length - 2)
    return fail('export-chain-broken', `the trailer counts ${String(trailer.count)} entries; the file holds ${lines.length - 2}`, trailerLine);
  if (trailer.prev !== prev) return fail('export-chain-broken', 'the trailer does not chain to the last entry (an entry was changed)', trailerLine);
  const embedded = header.key as { fingerprint?: unknown; publicKey?: unknown } | null;
  if (header.signature === undefined && embedded === null)
    return fail('export-unsigned', 'the archive is not signed (no signing key was configured when it was exported)', 1);
  let pub: KeyObject;
  try {
    if (publicKey !== undefined) pub = typeof publicKey === 'object' && !Buffer.isBuffer(publicKey) ? publicKey : createPublicKey(publicKey);
    else {
      if (!embedded || typeof embedded.publicKey !== 'string') return fail('export-damaged', 'the header names no public key', 1);
      pub = createPublicKey(embedded.publicKey);
    }
    if (pub.type === 'private') pub = createPublicKey(pub);
    if (pub.asymmetricKeyType !== 'ed25519') return fail('export-signature-bad', `the key is an ${pub.asymmetricKeyType ?? 'unknown'} key, not Ed25519`);
  } catch (e) {
    return fail(
      publicKey !== undefined ? 'export-signature-bad' : 'export-damaged',
      `the public key cannot be read: ${(e as Error).message}`,
      publicKey !== undefined ? undefined : 1,
    );
  }
  if (embedded && embedded.fingerprint !== keyFingerprint(pub)) {
    return fail('export-signature-bad', `the header names key ${String(embedded.fingerprint)}; the key checked is ${keyFingerprint(pub)}`, 1);
  }
  const h = checkSignature(header, pub, 'header', 1) ?? checkSignature(trailer, pub, 'trailer', trailerLine);
  if (h) return h;
  return {
    ok: true,
    header: header as unknown as ExportHeader,
    trailer: trailer as unknown as ExportTrailer,
    keyId: (header.signature as ExportSignature).keyId,
    verifiedBy: keyFingerprint(pub),
    embeddedKey: publicKey === undefined,
  };
}

/** whether `line` is exactly the canonical JSON of `o`, its signature (with `sig`) included */
function isCanonical(o: Record<string, unknown>, line: Buffer): boolean {
  try {
    return canonicalFull(o) === line.toString('utf8');
  } catch {
    return false;
  }
}

/** canonical JSON of `o` with the whole `signature` member (canonicalJson leaves out `signature.sig`, the part that is signed) */
function canonicalFull(o: Record<string, unknown>): string {
  // nested one level down, the top-level `signature` rule of canonicalJson does not apply
  return canonicalJson({ x: o }).slice(5, -1);
}
