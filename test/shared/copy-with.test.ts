import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { copyWith } from "../../src/shared/copy-with";

describe("copyWith", () => {
  it("is the spread copy with the field set: same own fields, same order, same values, symbols too", () => {
    const key = fc.constantFrom("meta", "content", "a", "b", "role");
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), key, fc.jsonValue(), (object, field, value) => {
        const copy = copyWith(object, field, value);
        const spread = { ...object, [field]: value };
        expect(Object.keys(copy)).toEqual(Object.keys(spread));
        expect(copy).toStrictEqual(spread);
      }),
    );
    const tag = Symbol("tag");
    expect(copyWith({ [tag]: 1, a: 2 }, "meta", 3)).toStrictEqual({ [tag]: 1, a: 2, meta: 3 });
  });

  it("leaves the original as it was and returns a new object", () => {
    const original = { role: "assistant", meta: { cost_usd: 1 } };
    const copy = copyWith(original, "meta", { cost_usd: 2 });
    expect(copy).not.toBe(original);
    expect(original).toEqual({ role: "assistant", meta: { cost_usd: 1 } });
    expect(copy).toEqual({ role: "assistant", meta: { cost_usd: 2 } });
  });

  it("keeps an own __proto__ field a field (as parsed JSON has it), never the copy's prototype", () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "role": "assistant"}') as object;
    const copy = copyWith(parsed, "meta", 1) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
    expect(copy.polluted).toBeUndefined();
    expect(Object.keys(copy)).toEqual(["__proto__", "role", "meta"]);
  });
});
