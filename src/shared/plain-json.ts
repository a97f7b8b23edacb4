/**
 * Plain JSON data: what history may hold. History is kept in memory, copied out by `getHistory()`
 * (`structuredClone`) and written to stores as JSON; a value the three treat differently — a
 * function or a Symbol (JSON drops it, `structuredClone` throws), `undefined` in an array (JSON
 * writes `null`), a class instance, a getter (it runs, and may throw, on every copy), a number JSON
 * cannot state, a lone UTF-16 surrogate — would make the memory, the copy and the store disagree,
 * or make every later copy fail. Values enter history only as a plain copy made here.
 * @module
 */
import { describeThrown } from "./describe-thrown";

/** How deep plain data may nest (objects and arrays). */
const MAX_DEPTH = 200;

/** What to do with a string holding a lone surrogate. */
export type LoneSurrogates = "refuse" | "replace";

/** A plain copy of the value, or why there is none (naming the field, from `where`). */
export type PlainJsonResult = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * A plain JSON copy of `value`: objects (of `Object.prototype` or none) and arrays of strings,
 * finite numbers, booleans and `null`. Object properties whose value is `undefined` are left out,
 * as JSON does; Symbol-keyed and non-enumerable properties are left out. A lone surrogate is
 * refused, or replaced by U+FFFD (`surrogates: "replace"`). Anything else is refused with the path
 * of the first field that holds it (`where` names the value itself: `"content"`, say).
 */
export function toPlainJson(
  value: unknown,
  where: string,
  surrogates: LoneSurrogates = "refuse",
): PlainJsonResult {
  try {
    return { ok: true, value: copy(value, where, 0, new Set(), surrogates) };
  } catch (error) {
    if (error instanceof NotPlain) return { ok: false, problem: error.message };
    return { ok: false, problem: `${where} could not be read (${describeThrown(error)})` };
  }
}

class NotPlain extends Error {}

function copy(
  value: unknown,
  where: string,
  depth: number,
  open: Set<object>,
  surrogates: LoneSurrogates,
): unknown {
  switch (typeof value) {
    case "string":
      return plainString(value, where, surrogates);
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) throw new NotPlain(`${where} is ${value}, which JSON cannot state`);
      return value;
    case "object":
      if (value === null) return null;
      break;
    case "undefined":
      throw new NotPlain(`${where} is undefined`);
    default:
      throw new NotPlain(`${where} is a ${typeof value}, which JSON cannot state`);
  }
  const object = value as object;
  if (depth >= MAX_DEPTH) throw new NotPlain(`${where} is nested deeper than ${MAX_DEPTH} levels`);
  if (open.has(object)) throw new NotPlain(`${where} refers back to an object that contains it (a cycle)`);
  open.add(object);
  try {
    if (Array.isArray(object)) {
      return Array.from({ length: object.length }, (_, index) => {
        const item = ownValue(object, String(index), `${where}[${index}]`);
        return copy(item, `${where}[${index}]`, depth + 1, open, surrogates);
      });
    }
    return copyObject(object, where, depth, open, surrogates);
  } catch (error) {
    if (error instanceof NotPlain) throw error;
    throw new NotPlain(`${where} could not be read (${describeThrown(error)})`);
  } finally {
    open.delete(object);
  }
}

function copyObject(
  object: object,
  where: string,
  depth: number,
  open: Set<object>,
  surrogates: LoneSurrogates,
): Record<string, unknown> {
  const prototype = Object.getPrototypeOf(object);
  if (prototype !== Object.prototype && prototype !== null) {
    const name = (prototype?.constructor as { name?: unknown } | undefined)?.name;
    throw new NotPlain(
      `${where} is an instance of ${typeof name === "string" && name ? name : "a class"}, not a plain object`,
    );
  }
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    const field = `${where}.${key}`;
    plainString(key, `the name of ${field}`, "refuse");
    const item = ownValue(object, key, field);
    if (item === undefined) continue; // as JSON does
    // A key like __proto__ must stay an own property of the copy.
    Object.defineProperty(result, key, {
      value: copy(item, field, depth + 1, open, surrogates),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}

/** An own data property's value; a getter (or setter) is refused without running it. */
function ownValue(object: object, key: string, field: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  if (descriptor === undefined) return undefined; // a hole in an array
  if (descriptor.get !== undefined || descriptor.set !== undefined) {
    throw new NotPlain(`${field} is a getter, not a plain value`);
  }
  return descriptor.value;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

/** Whether `text` holds no lone UTF-16 surrogate (`String.prototype.isWellFormed`, ES2024). */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** `text` with each lone surrogate replaced by U+FFFD (`String.prototype.toWellFormed`, ES2024). */
export function toWellFormedText(text: string): string {
  return isWellFormedText(text) ? text : text.replace(LONE_SURROGATES, "\uFFFD");
}

function plainString(value: string, where: string, surrogates: LoneSurrogates): string {
  if (isWellFormedText(value)) return value;
  if (surrogates === "replace") return toWellFormedText(value);
  throw new NotPlain(`${where} holds a lone UTF-16 surrogate (half of a character), which is not text`);
}
