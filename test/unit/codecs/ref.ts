/**
 * Test-side reference helpers, written independently of the codecs under test:
 * a hand-written XOR checksum and a line builder.
 */
export function refXor(body: string): number {
  const bytes = Buffer.from(body, 'utf8');
  let x = 0;
  for (const b of bytes) x = x ^ b;
  return x;
}

/** `$body*CS` + terminator (default CRLF); `lower` writes the checksum in lower case. */
export function refLine(body: string, opts: { lower?: boolean; eol?: string } = {}): Buffer {
  let cs = refXor(body).toString(16).toUpperCase().padStart(2, '0');
  if (opts.lower) cs = cs.toLowerCase();
  return Buffer.from(`$${body}*${cs}${opts.eol ?? '\r\n'}`, 'utf8');
}

export const buf = (s: string): Buffer => Buffer.from(s, 'latin1');

/** Feeds `data` one byte at a time and concatenates the outputs. */
export function byteAtATime<T>(push: (chunk: Buffer) => T[], data: Buffer): T[] {
  const out: T[] = [];
  for (let i = 0; i < data.length; i++) out.push(...push(data.subarray(i, i + 1)));
  return out;
}
