/**
 * `new Date(ms).toISOString()` with the part up to the second kept from the call before: the two
 * stamps of a turn cost a string join instead of formatting a date each (the date's formatting is
 * a runtime call that cost about a tenth of a turn's instructions).
 * @module
 */

let cachedSecond = Number.NaN;
let cachedPrefix = "";

/** The ISO 8601 form of the instant `ms` (milliseconds since the epoch), exactly as `Date#toISOString` gives it. */
export function isoTime(ms: number): string {
  const whole = Math.trunc(ms); // a Date truncates toward zero
  const second = Math.floor(whole / 1000);
  if (second !== cachedSecond) {
    const full = new Date(whole).toISOString(); // throws a RangeError for an invalid time, as toISOString does
    if (full.length !== 24) return full; // a year outside 0000–9999 (±YYYYYY): not cached
    cachedSecond = second;
    cachedPrefix = full.slice(0, 20); // "YYYY-MM-DDTHH:MM:SS."
  }
  const millis = whole - second * 1000;
  return `${cachedPrefix}${millis < 10 ? "00" : millis < 100 ? "0" : ""}${millis}Z`;
}
