/**
 * Running hooks: matcher selection, registration order, per-hook timeout, and failure capture.
 * @module
 */
import { HookFailure, InvalidOptionError } from "../errors";
import { startDeadline } from "../shared/deadline";
import { MAX_TIMER_MS, raceWithSignal } from "../shared/signals";
import { canMatchToolName } from "./permissions";
import { DEFAULT_HOOK_TIMEOUT_MS, type HookMatcher, type Hooks } from "./types";

/** The hook events the loop runs. */
const HOOK_EVENTS = new Set([
  "preToolUse",
  "postToolUse",
  "userPromptSubmit",
  "preCompact",
  "stop",
  "onModelRequest",
]);

/** The events whose hooks run for a tool call, and so use their matcher. */
const TOOL_EVENTS = new Set(["preToolUse", "postToolUse"]);

/**
 * Checks `hooks` once, at creation: known event names, arrays of hooks each with a `handler`
 * function, a string or RegExp `matcher` (a tool event's string matcher `*` or a possible tool
 * name), and a `timeoutMs` that is a positive integer a timer can honour. A mistake here would otherwise fail (or be skipped) silently on every call.
 * @throws InvalidOptionError
 */
export function validateHooks(hooks: Hooks | undefined): void {
  if (hooks === undefined) return;
  for (const [event, list] of Object.entries(hooks) as Array<[string, unknown]>) {
    if (!HOOK_EVENTS.has(event))
      throw new InvalidOptionError(
        `hooks.${event} is not a hook event (known: ${[...HOOK_EVENTS].join(", ")}).`,
      );
    if (list === undefined) continue;
    if (!Array.isArray(list))
      throw new InvalidOptionError(`hooks.${event} must be an array of { matcher?, handler, timeoutMs? }.`);
    list.forEach((hook: Partial<HookMatcher<unknown, unknown>> | undefined, index) => {
      const where = `hooks.${event}[${index}]`;
      if (typeof hook?.handler !== "function")
        throw new InvalidOptionError(`${where} needs a handler function.`);
      const { matcher, timeoutMs } = hook;
      if (matcher !== undefined && typeof matcher !== "string" && !(matcher instanceof RegExp))
        throw new InvalidOptionError(`${where}.matcher must be a tool name, "*" or a RegExp.`);
      // "Edit|Write" or "mcp__github__*" is not a pattern here: the hook would silently never run.
      if (
        TOOL_EVENTS.has(event) &&
        typeof matcher === "string" &&
        matcher !== "*" &&
        !(canMatchToolName(matcher) && !matcher.includes("*"))
      )
        throw new InvalidOptionError(
          `${where}.matcher ${JSON.stringify(matcher)} can never match a tool name: a string matcher is an exact name ` +
            '(letters, digits, _ and -) or "*" for every tool. Use a RegExp for a pattern, e.g. /^(Edit|Write)$/ or /^mcp__github__/.',
        );
      if (
        timeoutMs !== undefined &&
        !(Number.isInteger(timeoutMs) && timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)
      )
        throw new InvalidOptionError(
          `${where}.timeoutMs must be a positive integer of at most ${MAX_TIMER_MS} ms, got ${String(timeoutMs)}.`,
        );
    });
  }
}

/**
 * Whether a hook's matcher selects this tool: none or `*` selects all, a string is an exact name.
 * Events without a tool (`toolName` undefined) ignore the matcher: their hooks always run.
 */
export function matchesTool(matcher: string | RegExp | undefined, toolName: string | undefined): boolean {
  if (matcher === undefined || matcher === "*" || toolName === undefined) return true;
  if (typeof matcher === "string") return matcher === toolName;
  matcher.lastIndex = 0;
  return matcher.test(toolName);
}

export { HookFailure };

/** What {@link runHookChain} runs: one event's hooks, and what to do with each output. */
export interface HookChain<I, O> {
  /** The event's name, as failures report it (`"preToolUse"`, `"onModelRequest option"` …). */
  event: string;
  hooks: ReadonlyArray<HookMatcher<I, O>> | undefined;
  /** The tool the event is about; hooks whose matcher does not select it are skipped. */
  toolName?: string;
  /** Builds the input of the next hook (called per hook, so it sees earlier overrides). */
  input: () => I;
  /**
   * Receives each hook's output and returns `true` to stop the chain (e.g. a block), or throws to
   * refuse a malformed output (that fails the hook).
   */
  onOutput: (output: O) => boolean | void;
  /** When it aborts, the running hook is abandoned and the failure carries the abort reason. */
  signal?: AbortSignal;
}

/**
 * Runs the hooks of one event that match its tool, in registration order. A throw (the hook's or
 * `onOutput`'s) or timeout stops the chain and is returned as a {@link HookFailure}; it never
 * propagates.
 */
export async function runHookChain<I, O>(chain: HookChain<I, O>): Promise<HookFailure | undefined> {
  const { event, hooks, toolName, input: makeInput, onOutput: step, signal } = chain;
  if (!hooks || hooks.length === 0) return undefined;
  for (let index = 0; index < hooks.length; index++) {
    const hook = hooks[index]!;
    if (!matchesTool(hook.matcher, toolName)) continue;
    // No hook starts once the query is aborted: the chain fails with the abort reason.
    if (signal?.aborted) return new HookFailure(event, index, hook.matcher, signal.reason);
    let output: O | void;
    // The hook's deadline follows the query's signal: either one ends the wait for the hook.
    const deadline = startDeadline(signal, hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS, hookTimedOut);
    try {
      const work = Promise.resolve().then(() => hook.handler(makeInput()));
      output = await raceWithSignal(work, deadline.signal);
    } catch (error) {
      return new HookFailure(event, index, hook.matcher, error);
    } finally {
      deadline.clear(); // also when an abort abandoned the hook: no timer keeps the process alive
    }
    try {
      if (output && step(output) === true) break;
    } catch (error) {
      // An override the event cannot use (a continueWith that is not text …) fails its hook.
      return new HookFailure(event, index, hook.matcher, error);
    }
  }
  return undefined;
}

/** Why a hook that outlived its deadline failed. */
function hookTimedOut(timeoutMs: number): Error {
  return new Error(`timed out after ${timeoutMs} ms`);
}
