/**
 * Profiles written in profile language v1 keep working: their v1 keys are read in the v1.2 form
 * (device-protocols.md §3.1) before validation, and each rewrite is a note telling the author what
 * to write instead (`tablegw profile check` prints them). Pure data in, data out.
 *
 * v1 -> v1.2:
 * - `integrity.kind` -> `integrity.algorithm` (`crc16-ccitt` is `crc16-ccitt-false`);
 * - `integrity.format: hex | binary` -> `integrity.encoding: hex | binary-le` (v1 wrote a CRC-16
 *   low byte first);
 * - `integrity.covers: body | start-and-body` -> `integrity.covers: { start: false | true }`;
 * - `report.checksum.kind` -> `report.checksum.algorithm`.
 * A key given in both forms is left alone (the strict schema then names the v1 key as unknown).
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function migrateProfile(data: unknown): { data: unknown; notes: string[] } {
  if (!isObj(data)) return { data, notes: [] };
  const notes: string[] = [];
  let out: Obj = data;
  const report = data.report;
  if (isObj(report) && isObj(report.checksum) && 'kind' in report.checksum && !('algorithm' in report.checksum)) {
    const { kind, ...rest } = report.checksum;
    const algorithm = kind === 'crc16-ccitt' ? 'crc16-ccitt-false' : kind;
    notes.push(`report.checksum.kind (profile language v1) read as report.checksum.algorithm: ${String(algorithm)}`);
    out = { ...out, report: { ...report, checksum: { ...rest, algorithm } } };
  }
  if (!isObj(data.integrity)) return { data: out, notes };
  const i = { ...data.integrity };
  if ('kind' in i && !('algorithm' in i)) {
    const algorithm = i.kind === 'crc16-ccitt' ? 'crc16-ccitt-false' : i.kind;
    notes.push(`integrity.kind (profile language v1) read as integrity.algorithm: ${String(algorithm)}`);
    i.algorithm = algorithm;
    delete i.kind;
  }
  if ('format' in i && !('encoding' in i)) {
    const encoding = i.format === 'binary' ? 'binary-le' : i.format;
    notes.push(`integrity.format (profile language v1) read as integrity.encoding: ${String(encoding)}`);
    i.encoding = encoding;
    delete i.format;
  }
  if (typeof i.covers === 'string') {
    const start = i.covers === 'start-and-body';
    if (i.covers === 'body' || start) {
      notes.push(`integrity.covers: ${i.covers} (profile language v1) read as integrity.covers: { start: ${start}, payload: true }`);
      i.covers = { start, payload: true };
    }
  }
  return notes.length ? { data: { ...out, integrity: i }, notes } : { data, notes };
}
