import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { capForBudget, fitWithin, truncateMiddle } from "../../src/compaction/truncate";

function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

describe("truncateMiddle", () => {
  it("returns a text within the limit unchanged", () => {
    expect(truncateMiddle("short", 5)).toBe("short");
    expect(truncateMiddle("short", Number.POSITIVE_INFINITY)).toBe("short");
  });

  it("keeps the head and the tail and says how much was left out", () => {
    expect(truncateMiddle("abcdefghij", 4)).toBe("ab\n[… 6 characters omitted …]\nij");
    expect(truncateMiddle("abcdefghij", 5)).toBe("abc\n[… 5 characters omitted …]\nij");
    expect(truncateMiddle("abc", 0)).toBe("\n[… 3 characters omitted …]\n");
  });

  it("never splits a surrogate pair", () => {
    const text = "😀😀😀😀😀";
    const shortened = truncateMiddle(text, 5);
    expect(shortened).toBe("😀\n[… 6 characters omitted …]\n😀");
    expect(hasLoneSurrogate(shortened)).toBe(false);
  });

  it("rejects a negative or fractional limit", () => {
    expect(() => truncateMiddle("abc", -1)).toThrow(RangeError);
    expect(() => truncateMiddle("abc", 1.5)).toThrow(RangeError);
  });

  it("keeps at most maxChars of the original, with its exact ends (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), fc.nat(220), (text, maxChars) => {
        const shortened = truncateMiddle(text, maxChars);
        if (text.length <= maxChars) {
          expect(shortened).toBe(text);
          return;
        }
        const match = /^(.*)\n\[… (\d+) characters omitted …\]\n(.*)$/s.exec(shortened)!;
        const [, head, omitted, tail] = match;
        expect(head!.length + tail!.length).toBeLessThanOrEqual(maxChars);
        expect(head!.length + Number(omitted) + tail!.length).toBe(text.length);
        expect(text.startsWith(head!)).toBe(true);
        expect(text.endsWith(tail!)).toBe(true);
        if (!hasLoneSurrogate(text)) expect(hasLoneSurrogate(shortened)).toBe(false);
      }),
    );
  });
});

describe("fitWithin", () => {
  it("returns a text that fits unchanged", () => {
    expect(fitWithin("short", 5)).toBe("short");
  });

  it("counts the marker in the limit", () => {
    const text = "a".repeat(50) + "b".repeat(50);
    const fitted = fitWithin(text, 60);
    expect(fitted.length).toBeLessThanOrEqual(60);
    expect(fitted.length).toBeGreaterThan(55);
    expect(fitted.startsWith("a")).toBe(true);
    expect(fitted.endsWith("b")).toBe(true);
    expect(fitted).toContain("characters omitted");
  });

  it("keeps only the beginning when even the marker does not fit, without splitting a pair", () => {
    expect(fitWithin("abcdefghij".repeat(10), 4)).toBe("abcd");
    expect(fitWithin("😀😀😀".repeat(20), 3)).toBe("😀");
  });

  it("never exceeds maxChars (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), fc.nat(320), (text, maxChars) => {
        const fitted = fitWithin(text, maxChars);
        expect(fitted.length).toBeLessThanOrEqual(maxChars);
        if (text.length <= maxChars) expect(fitted).toBe(text);
        if (!hasLoneSurrogate(text)) expect(hasLoneSurrogate(fitted)).toBe(false);
      }),
    );
  });
});

describe("capForBudget", () => {
  it("is Infinity when everything fits", () => {
    expect(capForBudget([10, 20], 30)).toBe(Number.POSITIVE_INFINITY);
    expect(capForBudget([], 0)).toBe(Number.POSITIVE_INFINITY);
    expect(capForBudget([10, 20], Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
  });

  it("shortens the longest first and leaves the short ones whole", () => {
    expect(capForBudget([10, 100, 1000], 300)).toBe(190);
    expect(capForBudget([500, 500], 300)).toBe(150);
  });

  it("makes the capped total fit the budget while using it as fully as a common cap can (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1000), { maxLength: 20 }), fc.nat(5000), (lengths, budget) => {
        const cap = capForBudget(lengths, budget);
        const total = (limit: number) => lengths.reduce((sum, length) => sum + Math.min(length, limit), 0);
        expect(total(cap)).toBeLessThanOrEqual(budget);
        if (cap !== Number.POSITIVE_INFINITY) expect(total(cap + 1)).toBeGreaterThan(budget);
      }),
    );
  });
});
