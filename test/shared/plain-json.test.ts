import { describe, expect, it } from "vitest";
import { isWellFormedText, toPlainJson, toWellFormedText } from "../../src/shared/plain-json";

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe("toPlainJson", () => {
  it("copies plain data, leaving out undefined properties and Symbol keys as JSON does", () => {
    const input = { a: [1, "two", true, null, { b: undefined, c: -0.5 }], [Symbol("s")]: 1, d: undefined };
    const result = toPlainJson(input, "value");
    expect(result).toEqual({ ok: true, value: { a: [1, "two", true, null, { c: -0.5 }] } });
    expect(result.ok && result.value).not.toBe(input);
    expect(result.ok && JSON.stringify(result.value)).toBe(JSON.stringify(input));
  });

  it("keeps a __proto__ key as an own property, never as the prototype", () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}');
    const result = toPlainJson(input, "value");
    expect(result.ok).toBe(true);
    const value = (result as { value: Record<string, unknown> }).value;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__", "x"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  const throwing = {};
  Object.defineProperty(throwing, "boom", {
    enumerable: true,
    get() {
      throw new Error("getter ran");
    },
  });
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  const shared = { x: 1 };

  it.each<[string, unknown, string]>([
    ["a function", { type: "text", extra: () => 1 }, "value.extra is a function, which JSON cannot state"],
    ["a Symbol", { extra: Symbol("x") }, "value.extra is a symbol, which JSON cannot state"],
    ["a BigInt", { extra: [1n] }, "value.extra[0] is a bigint, which JSON cannot state"],
    ["undefined in an array", { list: [1, undefined] }, "value.list[1] is undefined"],
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case under test
    ["a hole in an array", { list: [1, , 3] }, "value.list[1] is undefined"],
    ["a class instance", { at: new Point(1, 2) }, "value.at is an instance of Point, not a plain object"],
    ["a Date", { when: new Date(0) }, "value.when is an instance of Date, not a plain object"],
    ["a Map", { map: new Map() }, "value.map is an instance of Map, not a plain object"],
    [
      "a getter that throws (never run)",
      { deep: throwing },
      "value.deep.boom is a getter, not a plain value",
    ],
    ["NaN", { n: Number.NaN }, "value.n is NaN, which JSON cannot state"],
    ["Infinity", { n: Number.POSITIVE_INFINITY }, "value.n is Infinity, which JSON cannot state"],
    ["a cycle", cycle, "value.self refers back to an object that contains it (a cycle)"],
    ["a lone surrogate", { text: "a\uD83D" }, "value.text holds a lone UTF-16 surrogate"],
    [
      "a lone surrogate in a key",
      { "k\uDE00": 1 },
      "the name of value.k\uDE00 holds a lone UTF-16 surrogate",
    ],
  ])("refuses %s, naming the field", (_name, value, problem) => {
    const result = toPlainJson(value, "value");
    expect(result.ok).toBe(false);
    expect((result as { problem: string }).problem).toContain(problem);
  });

  it("accepts the same object twice when it is not a cycle", () => {
    expect(toPlainJson({ a: shared, b: shared }, "value")).toEqual({
      ok: true,
      value: { a: { x: 1 }, b: { x: 1 } },
    });
  });

  it("refuses data nested deeper than 200 levels, without overflowing the stack", () => {
    let deep: unknown = "bottom";
    for (let level = 0; level < 300; level++) deep = [deep];
    expect(toPlainJson(deep, "value")).toMatchObject({
      ok: false,
      problem: expect.stringContaining("deeper than 200"),
    });
  });

  it("replaces lone surrogates with U+FFFD when asked, keeping pairs", () => {
    expect(toPlainJson(["a\uD83D", "\uDE00b", "ok \uD83D\uDE00"], "value", "replace")).toEqual({
      ok: true,
      value: ["a\uFFFD", "\uFFFDb", "ok \uD83D\uDE00"],
    });
  });

  it("says why a Proxy that throws could not be read", () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("no keys for you");
        },
      },
    );
    expect(toPlainJson({ hostile }, "value")).toEqual({
      ok: false,
      problem: "value.hostile could not be read (no keys for you)",
    });
  });
});

describe("isWellFormedText / toWellFormedText", () => {
  it.each([
    ["", true],
    ["plain", true],
    ["pair \uD83D\uDE00", true],
    ["high \uD83D", false],
    ["\uDE00 low", false],
    ["\uD83D\uD83D\uDE00", false],
  ])("%j is well-formed: %s", (text, wellFormed) => {
    expect(isWellFormedText(text)).toBe(wellFormed);
    expect(isWellFormedText(toWellFormedText(text))).toBe(true);
    if (wellFormed) expect(toWellFormedText(text)).toBe(text);
  });
});
