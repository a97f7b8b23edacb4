/**
 * `new Date(ms).toISOString()`, cheaper: the part up to the second is kept from the call before, so
 * the two stamps of a turn cost a string join instead of formatting a date each (the date's
 * formatting is a runtime call that cost about a tenth of a turn's instructions); and the last stamp
 * is kept whole, so stamps of the same millisecond (a turn's start and the end of the one before,
 * on a fast model) are one string, not two copies. Each stamp is built flat in one piece: history
 * keeps every turn's two stamps, and a string of joined pieces costs the collector one object per
 * piece each time it moves it.
 * @module
 */

let cachedSecond = Number.NaN;
let cachedPrefix = "";
let lastInstant = Number.NaN;
let lastStamp = "";

/** The ISO 8601 form of the instant `ms` (milliseconds since the epoch), exactly as `Date#toISOString` gives it. */
export function isoTime(ms: number): string {
  const whole = Math.trunc(ms); // a Date truncates toward zero
  if (whole === lastInstant) return lastStamp;
  const stamp = stampOf(whole);
  lastInstant = whole;
  lastStamp = stamp;
  return stamp;
}

function stampOf(whole: number): string {
  const second = Math.floor(whole / 1000);
  if (second !== cachedSecond) {
    const full = new Date(whole).toISOString(); // throws a RangeError for an invalid time, as toISOString does
    if (full.length !== 24) return full; // a year outside 0000–9999 (±YYYYYY): not cached
    cachedSecond = second;
    cachedPrefix = full.slice(0, 20); // "YYYY-MM-DDTHH:MM:SS."
  }
  const millis = whole - second * 1000;
  // `join` writes one flat string; `+` or a template would chain three pieces.
  return [cachedPrefix, millis < 10 ? "00" : millis < 100 ? "0" : "", millis, "Z"].join("");
}
