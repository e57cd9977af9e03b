/**
 * Splits `data` at arbitrary cut positions (each taken modulo `data.length + 1`, duplicates
 * dropped): the chunks a serial read may deliver, for property tests of streaming decoders.
 */
export function splitAt(data: Buffer, cuts: readonly number[]): Buffer[] {
  const pos = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let prev = 0;
  for (const p of pos) {
    chunks.push(data.subarray(prev, p));
    prev = p;
  }
  chunks.push(data.subarray(prev));
  return chunks;
}
