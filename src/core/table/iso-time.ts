/** The envelope's `ts`: the input's time as ISO 8601 text. Pure. */

/** the second last formatted by isoTime() and its text up to the milliseconds (`YYYY-MM-DDTHH:MM:SS.`) */
let isoSecond = Number.NaN;
let isoSecondText = '';

/**
 * `new Date(at).toISOString()`, without building a Date and formatting it on every step: the text
 * up to the second is kept for the last second seen (inputs arrive in time order, many a second),
 * the milliseconds are appended. A pure function of `at`: same text as toISOString, byte for byte.
 */
export function isoTime(at: number): string {
  // a Date truncates a fractional time toward zero
  const ms = Math.trunc(at);
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    const text = new Date(second * 1000).toISOString();
    // years beyond 0..9999 are written differently (`+010000-...`): no shortcut for them
    if (text.length !== 24) return new Date(at).toISOString();
    isoSecond = second;
    isoSecondText = text.slice(0, 20);
  }
  const frac = ms - second * 1000;
  return `${isoSecondText}${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}Z`;
}
