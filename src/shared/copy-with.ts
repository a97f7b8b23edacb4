/**
 * A copy of an object with one field set, for the loop's hot path.
 *
 * `{ ...object, key: value }` reads the same, but in V8 (Node 20) a spread copy of an object that is
 * not a plain literal gets a hidden class of its own that records no transitions: a field the copy
 * did not have then makes a new hidden class on every call, and every inline cache that later reads
 * such a copy (redaction, the store's serializer, the consumer) misses. That was half of a turn's
 * instructions once per-turn `meta` was added to each response (bench/instructions.mjs: ~112k →
 * ~75k instructions per turn with this copy). `Object.assign` onto `{}` walks the shared
 * transitions of an object literal instead, and keeps the field order of the spread.
 * @module
 */

/**
 * `{ ...object, [key]: value }`: the same own enumerable fields in the same order, `key` set last
 * (or in its place when `object` has it).
 */
export function copyWith<T extends object, K extends string, V>(
  object: T,
  key: K,
  value: V,
): Omit<T, K> & Record<K, V> {
  // `Object.assign` would run the prototype setter for an own `__proto__` field (a parsed JSON
  // object can have one): such an object is copied by spread, which defines it as a field.
  if (key === "__proto__" || Object.hasOwn(object, "__proto__"))
    return { ...object, [key]: value } as Omit<T, K> & Record<K, V>;
  // One source, then the field set: no object made for the field alone (nor a second source walked).
  const copy = Object.assign({}, object) as Record<string, unknown>;
  copy[key] = value;
  return copy as Omit<T, K> & Record<K, V>;
}
