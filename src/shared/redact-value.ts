/**
 * Redaction of whole values — messages, errors, their causes — copy on write: a value that holds
 * no secret is returned as it is (same object), one that does comes back as a copy with every
 * secret replaced by {@link REDACTED}. Errors keep their class (prototype), name and own fields.
 * @module
 */
import { mayHoldSecret, REDACTED, redact } from "./redact";

/** Says which objects are left exactly as they are (signed thinking, base64 payloads). */
export type KeepAsIs = (value: object) => boolean;

const NEVER_KEEP: KeepAsIs = () => false;

/**
 * Redacts what the items of one array hold only read together (a secret split across text blocks):
 * returns a copy with it replaced, or the array itself when there is none.
 */
export type AcrossItems = (array: unknown[], secrets: readonly string[]) => unknown[];

const EACH_ITEM_ALONE: AcrossItems = (array) => array;

/** What one walk is told besides the secrets. */
export interface RedactionRules {
  readonly secrets: readonly string[];
  readonly keep: KeepAsIs;
  readonly acrossItems: AcrossItems;
  /** An object of the value its maker vouches for (see {@link redactValue}): not walked. */
  readonly vouched: object | undefined;
}

/**
 * Deepest nesting the walks recurse into. A value nested deeper is looked through without
 * recursion ({@link holdsSecret}) and kept only when it shows no secret, else replaced by the marker.
 */
const MAX_DEPTH = 24;

/**
 * `value` with every secret (and credential-shaped string, see {@link redact}) replaced; the same
 * value when there is none. Cycles are followed once. Map, Set and class instances other than
 * errors and plain objects / arrays are kept unless they hold a secret, then replaced by the marker.
 *
 * Every message a query yields or records passes here, and almost none holds a secret: a first walk
 * ({@link scan}) that allocates nothing decides whether the copying walk is needed at all.
 * `acrossItems` is applied to every array on the way (in the same walk), before its items.
 * `vouched` is an object inside `value` that is kept as it is, not walked: only for an object its
 * maker built from values that cannot hold a secret (the loop's own numbers and time stamps) and
 * that no other code could reach since.
 */
export function redactValue<V>(
  value: V,
  secrets: readonly string[],
  keep: KeepAsIs = NEVER_KEEP,
  acrossItems: AcrossItems = EACH_ITEM_ALONE,
  vouched?: object,
): V {
  const rules: RedactionRules = { secrets, keep, acrossItems, vouched };
  if (scan(value, rules, 0, SCAN_BUDGET) !== MUST_COPY) return value;
  return redactCopying(value, rules);
}

/** Objects the scan looks into before it leaves the value to the copying walk. */
export const SCAN_BUDGET = 20_000;

/** What {@link scan} returns when the copying walk must run. */
export const MUST_COPY = -1;

/**
 * Looks at what {@link redactCopying} would look at, allocating nothing: returns {@link MUST_COPY}
 * when a string may hold a secret (see {@link mayHoldSecret}), an error is met (the copying walk
 * reads its own fields as descriptors) or `budget` runs out (a huge value, or shared objects reached
 * along many paths: the copying walk visits each once); else what is left of `budget`.
 */
export function scan(current: unknown, rules: RedactionRules, depth: number, budget: number): number {
  if (typeof current === "string") return mayHoldSecret(current, rules.secrets) ? MUST_COPY : budget;
  if (typeof current !== "object" || current === null) return budget;
  return scanObject(current, rules, depth, budget);
}

/**
 * {@link scan} of an object: the items of an array, the enumerable fields of a plain object (those
 * it inherits too, if anyone added some to `Object.prototype`: looking at more is safe).
 */
function scanObject(current: object, rules: RedactionRules, depth: number, budget: number): number {
  if (--budget < 0) return MUST_COPY;
  const { secrets, keep } = rules;
  if (current === rules.vouched || keep(current)) return budget;
  if (depth > MAX_DEPTH) return holdsSecret(current, secrets, keep) ? MUST_COPY : budget;
  if (Array.isArray(current)) {
    if (rules.acrossItems(current, secrets) !== current) return MUST_COPY;
    for (let index = 0; index < current.length && budget >= 0; index++) {
      budget = scan(current[index], rules, depth + 1, budget);
    }
  } else if (isScannedByFields(current)) {
    for (const key in current) {
      if (budget < 0) break;
      budget = scan((current as Record<string, unknown>)[key], rules, depth + 1, budget);
    }
  } else if (current instanceof Error) {
    return MUST_COPY;
  } else if (holdsSecret(current, secrets, keep)) {
    return MUST_COPY; // a Map, a Set, a class instance: the copying walk replaces it by the marker
  }
  return budget;
}

/**
 * Whether the scan reads `value` by its enumerable fields: a plain object — or one whose
 * `constructor` reads `Object` (`Object.create(plain)`, say) and is no error, whose fields `for…in`
 * reads the same way, inherited enumerable ones included. The `constructor` read is a cached property load where
 * `Object.getPrototypeOf` is a runtime call on every object of a message; the prototype is only
 * asked when it does not say `Object` (a null-prototype object, a class instance, a Map).
 */
function isScannedByFields(value: object): boolean {
  if ((value as { constructor?: unknown }).constructor !== Object) return isPlainObject(value);
  return !(value instanceof Error); // an error that says so of itself is still read as an error
}

/** The walk that copies: along the path to each changed string only, each object visited once. */
export function redactCopying<V>(value: V, rules: RedactionRules): V {
  const { secrets, keep } = rules;
  const copies = new Map<object, unknown>();
  const visit = (current: unknown, depth: number): unknown => {
    if (typeof current === "string") return redact(current, secrets);
    if (typeof current !== "object" || current === null) return current;
    if (copies.has(current)) return copies.get(current);
    if (current === rules.vouched || keep(current)) return current;
    if (depth <= MAX_DEPTH) {
      const child = (item: unknown) => visit(item, depth + 1);
      if (current instanceof Error) return redactErrorWith(current, copies, child);
      if (Array.isArray(current))
        return redactArray(rules.acrossItems(current, secrets), current, copies, child);
      if (isPlainObject(current)) return redactObject(current, copies, child);
    }
    // Too deep to rebuild, or not ours to rebuild (a Map, a Set, a class instance): kept as it is
    // unless it shows a secret, then replaced whole by the marker.
    return holdsSecret(current, secrets, keep) ? REDACTED : current;
  };
  return visit(value, 0) as V;
}

/** `error`, or a copy of the same class whose message, stack, cause and fields hold no secret. */
export function redactError<E extends Error>(error: E, secrets: readonly string[]): E {
  return redactValue(error, secrets);
}

/** `array` with each item redacted; `across` is `array` with what its items hold together redacted already. */
function redactArray(
  across: unknown[],
  array: unknown[],
  copies: Map<object, unknown>,
  visit: (child: unknown) => unknown,
) {
  copies.set(array, array);
  let copy: unknown[] | undefined = across === array ? undefined : across;
  for (let index = 0; index < across.length; index++) {
    const item = across[index];
    const clean = visit(item);
    if (clean !== item) {
      copy ??= array.slice();
      copy[index] = clean;
    }
  }
  if (copy) copies.set(array, copy);
  return copy ?? array;
}

function redactObject(object: object, copies: Map<object, unknown>, visit: (child: unknown) => unknown) {
  copies.set(object, object);
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(object)) {
    const clean = visit(item);
    if (clean !== item) {
      copy ??= { ...object };
      copy[key] = clean;
    }
  }
  if (copy) copies.set(object, copy);
  return copy ?? object;
}

/** Own fields of an error, enumerable or not (message, stack, cause…): a copy only when one changes. */
function redactErrorWith(error: Error, copies: Map<object, unknown>, visit: (child: unknown) => unknown) {
  copies.set(error, error);
  const descriptors = Object.getOwnPropertyDescriptors(error);
  let changed = false;
  for (const descriptor of Object.values(descriptors)) {
    if ("value" in descriptor) {
      const clean = visit(descriptor.value);
      if (clean !== descriptor.value) {
        descriptor.value = clean;
        changed = true;
      }
    } else if (descriptor.get) {
      // A getter could compute anything: it is replaced by the marker when it shows a secret.
      let shown: unknown;
      try {
        shown = descriptor.get.call(error);
      } catch {
        shown = undefined;
      }
      if (visit(shown) !== shown) {
        Object.assign(descriptor, { get: undefined, set: undefined, value: REDACTED, writable: true });
        delete descriptor.get;
        delete descriptor.set;
        changed = true;
      }
    }
  }
  if (!changed) return error;
  const copy = Object.create(Object.getPrototypeOf(error), descriptors) as Error;
  copies.set(error, copy);
  return copy;
}

/**
 * Whether any string reachable from `root` may hold a secret: items of arrays and sets, keys and
 * values of maps, own fields of objects and errors (non-enumerable ones too: message, stack, cause)
 * and what their getters show. Iterative, each object once: any depth, cycles included.
 */
function holdsSecret(root: object, secrets: readonly string[], keep: KeepAsIs): boolean {
  const seen = new Set<object>();
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === "string") {
      if (mayHoldSecret(current, secrets)) return true;
      continue;
    }
    if (typeof current !== "object" || current === null || seen.has(current) || keep(current)) continue;
    if (holdsNoText(current)) continue;
    seen.add(current);
    if (current instanceof Map) for (const [key, item] of current) pending.push(key, item);
    else if (current instanceof Set) for (const item of current) pending.push(item);
    else if (Array.isArray(current)) for (const item of current) pending.push(item);
    else for (const key of Object.getOwnPropertyNames(current)) pending.push(shownField(current, key));
  }
  return false;
}

/** Binary data, dates and patterns: no string of theirs is ever shown in a message. */
function holdsNoText(value: object): boolean {
  return (
    ArrayBuffer.isView(value) ||
    value instanceof ArrayBuffer ||
    value instanceof Date ||
    value instanceof RegExp
  );
}

/** A field's value, or what its getter shows (nothing when the getter throws). */
function shownField(object: object, key: string): unknown {
  try {
    return (object as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
