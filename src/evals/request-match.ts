/**
 * The matching rule of replay. A request is reduced to what the provider sees of it
 * ({@link comparableRequest}), then compared structurally with its recording
 * ({@link firstDifference}):
 * - object key order is ignored, array order is not;
 * - `signal`, `onEvent`, `timeoutMs` and functions (an output format's `parse`) are left out: they
 *   never reach the wire, and a deadline is timing, not content;
 * - history messages keep only `role` and `content`: the SDK's own metadata on them (`usage`,
 *   `providerResponseId`, `model`, `stop_reason`, `meta` …) never goes into a request either;
 * - the trial's workspace folder, which differs on every run, is written `<workspace>`;
 * - a field whose value is `undefined` counts as absent.
 * Everything else must be equal, byte for byte: the model, the system prompt, each message, the
 * tools and their schemas, the model settings.
 * @module
 */
import type { ModelRequest } from "../index";

/** What a workspace folder is written as in cassettes. */
export const WORKSPACE_PLACEHOLDER = "<workspace>";

const LEFT_OUT = new Set(["signal", "onEvent", "timeoutMs"]);

/** The plain-JSON form of `request` that replay compares (see the module's rule). */
export function comparableRequest(
  request: ModelRequest,
  workspace: string | undefined,
): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request)) {
    if (LEFT_OUT.has(key) || value === undefined) continue;
    plain[key] = key === "messages" ? (value as ModelRequest["messages"]).map(wireMessage) : value;
  }
  return replaceWorkspace(JSON.parse(JSON.stringify(plain)), workspace) as Record<string, unknown>;
}

function wireMessage(message: ModelRequest["messages"][number]): { role: string; content: unknown } {
  return { role: message.role, content: message.content };
}

/** `value` with every occurrence of `workspace` in its strings written as `<workspace>`. */
export function replaceWorkspace(value: unknown, workspace: string | undefined): unknown {
  if (!workspace) return value;
  return mapStrings(value, (text) =>
    text.includes(workspace) ? text.split(workspace).join(WORKSPACE_PLACEHOLDER) : text,
  );
}

/** `value` with `<workspace>` in its strings written back as the trial's folder. */
export function restoreWorkspace<V>(value: V, workspace: string | undefined): V {
  if (!workspace) return value;
  return mapStrings(value, (text) =>
    text.includes(WORKSPACE_PLACEHOLDER) ? text.split(WORKSPACE_PLACEHOLDER).join(workspace) : text,
  ) as V;
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (typeof value === "object" && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = mapStrings(item, map);
    return copy;
  }
  return value;
}

/** The first place where `actual` differs from `expected`. */
export interface RequestDifference {
  /** A JSON path from `$`: `$.messages[2].content[0].text`. */
  path: string;
  expected: unknown;
  actual: unknown;
}

/**
 * The first difference between two plain-JSON values, walking objects in sorted key order (so key
 * order never counts) and arrays by index; `undefined` when they are equal.
 */
export function firstDifference(
  expected: unknown,
  actual: unknown,
  path = "$",
): RequestDifference | undefined {
  if (Object.is(expected, actual)) return undefined;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const length = Math.max(expected.length, actual.length);
    for (let index = 0; index < length; index++) {
      const difference = firstDifference(expected[index], actual[index], `${path}[${index}]`);
      if (difference) return difference;
    }
    return undefined;
  }
  if (isObject(expected) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
    for (const key of keys) {
      const difference = firstDifference(expected[key], actual[key], `${path}${pathStep(key)}`);
      if (difference) return difference;
    }
    return undefined;
  }
  return { path, expected, actual };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pathStep(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** A short rendering of a value for an error message. */
export function preview(value: unknown): string {
  if (value === undefined) return "(absent)";
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/**
 * "recorded X, now Y" for a difference; two long strings are shown around their first differing
 * character (with its offset), where a reader can see the change.
 */
export function describeDifference(expected: unknown, actual: unknown): string {
  if (
    typeof expected === "string" &&
    typeof actual === "string" &&
    (expected.length > 60 || actual.length > 60)
  ) {
    let at = 0;
    while (at < expected.length && expected[at] === actual[at]) at++;
    const from = Math.max(0, at - 20);
    const around = (text: string) =>
      `${from > 0 ? "…" : ""}${JSON.stringify(text.slice(from, at + 40))}${at + 40 < text.length ? "…" : ""}`;
    return `recorded ${around(expected)}, now ${around(actual)} (from character ${at})`;
  }
  return `recorded ${preview(expected)}, now ${preview(actual)}`;
}
