/** Profile decoding throughput (frames/s on one core) per shipped profile, next to the built-in reference codec. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LineCodec } from '../drivers/codecs/line-codec.js';
import { compileProfile } from '../drivers/profiles/profile-decoder.js';
import { loadProfileFile } from '../drivers/profiles/profile-schema.js';

const SHIPPED = join(fileURLToPath(new URL('.', import.meta.url)), '../drivers/profiles/shipped');

function xorHex(s: string, sep: string): string {
  let x = 0;
  for (const c of s) x ^= c.charCodeAt(0);
  return `${s}${sep}${x.toString(16).toUpperCase().padStart(2, '0')}`;
}
function lrc(s: string): string {
  let v = 0;
  for (const c of s) v = (v + c.charCodeAt(0)) & 0xff;
  return ((0x100 - v) & 0xff).toString(16).toUpperCase().padStart(2, '0');
}
function modbus(b: number[]): number[] {
  let c = 0xffff;
  for (const x of b) {
    c ^= x;
    for (let i = 0; i < 8; i++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
  }
  return [...b, c & 0xff, c >> 8];
}

/** one chunk of `n` frames per format */
function sample(n: number): Record<string, Buffer> {
  const rep = (f: (i: number) => Buffer) => Buffer.concat(Array.from({ length: n }, (_, i) => f(i)));
  return {
    reference: rep((i) => Buffer.from(`$${xorHex(`SHOE,${i % 65536},CARD,AS`, '*')}\r\n`)),
    'stx-etx-shoe': rep((i) => {
      const b = `${i % 65536},C,S_K`;
      return Buffer.from(`\u0002${b}*${lrc(b)}\u0003`, 'latin1');
    }),
    'four-digit-shoe': rep(() => Buffer.from(`${xorHex('C1010', ',')}\r`)),
    'modbus-dice': rep(() => Buffer.from([0xaa, ...modbus([1, 6, 5, 4])])),
    'star-keno': rep((i) => Buffer.from(`*B;${(i % 80) + 1}\r`)),
    'serial-scanner': rep(() => Buffer.from('H10\r\n')),
  };
}

export function runProfilesBench(log: (s: string) => void, seconds = 1): Record<string, number> {
  const n = 1000;
  const chunks = sample(n);
  const res: Record<string, number> = {};
  for (const [name, chunk] of Object.entries(chunks)) {
    const dec = name === 'reference' ? new LineCodec('SHOE') : compileProfile(loadProfileFile(join(SHIPPED, `${name}.yaml`)));
    const first = dec.push(chunk);
    if (first.length !== n || first.some((f) => 'reason' in f)) throw new Error(`profiles bench: ${name} did not decode its sample`);
    let frames = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < seconds * 1000) frames += dec.push(chunk).length;
    res[name] = Math.round(frames / ((performance.now() - t0) / 1000));
    log(`  ${name.padEnd(16)} ${res[name].toLocaleString('en-US')} frames/s${name === 'reference' ? ' (built-in codec)' : ''}`);
  }
  return res;
}
