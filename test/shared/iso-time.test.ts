import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isoTime } from "../../src/shared/iso-time";

/** The full range a Date holds: ±8.64e15 ms around the epoch. */
const DATE_RANGE = 8.64e15;

describe("isoTime", () => {
  it("gives exactly what Date#toISOString gives, whatever came before (the cached second included)", () => {
    const instant = fc.oneof(
      fc.integer({ min: -DATE_RANGE, max: DATE_RANGE }),
      fc.double({ min: -DATE_RANGE, max: DATE_RANGE, noNaN: true }),
      // Near one another, so that the cached second is hit and left in both directions.
      fc.integer({ min: 1_764_000_000_000, max: 1_764_000_003_000 }),
      fc.constantFrom(
        -1,
        -0.5,
        0,
        0.999,
        999,
        1000,
        -62_167_219_200_000,
        253_402_300_799_999,
        253_402_300_800_000,
      ),
    );
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 20 }), (instants) => {
        for (const ms of instants) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it("pads the milliseconds and keeps the second across calls in it", () => {
    const second = Date.UTC(2026, 11, 6, 4, 30, 5);
    expect(isoTime(second + 7)).toBe("2026-12-06T04:30:05.007Z");
    expect(isoTime(second + 42)).toBe("2026-12-06T04:30:05.042Z");
    expect(isoTime(second + 999)).toBe("2026-12-06T04:30:05.999Z");
    expect(isoTime(second + 1000)).toBe("2026-12-06T04:30:06.000Z");
    expect(isoTime(second - 1)).toBe("2026-12-06T04:30:04.999Z");
  });

  it("gives the same stamp for the same millisecond again, and the right one after another", () => {
    const instant = Date.UTC(2026, 11, 6, 4, 30, 5, 120);
    const first = isoTime(instant + 0.4);
    expect(isoTime(instant + 0.9)).toBe(first); // the same whole millisecond
    expect(first).toBe("2026-12-06T04:30:05.120Z");
    expect(isoTime(instant + 1)).toBe("2026-12-06T04:30:05.121Z");
    expect(isoTime(instant)).toBe("2026-12-06T04:30:05.120Z");
    expect(isoTime(-0.5)).toBe(new Date(-0.5).toISOString());
    expect(isoTime(0.5)).toBe(new Date(0.5).toISOString()); // -0.5 and 0.5 both truncate to 0
  });

  it("throws a RangeError for an invalid time, as toISOString does", () => {
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(DATE_RANGE + 1)).toThrow(RangeError);
    expect(() => isoTime(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
