/**
 * One tool call, end to end. Order: unknown-tool and input checks → allow/deny lists → permission
 * mode → `preToolUse` hooks → `canUseTool` → execute → `postToolUse` hooks → optional summary of a
 * huge result. Every failure becomes an error tool_result; nothing here throws.
 * @module
 */

import { refusalMessage } from "../hooks/overrides";
import { staticPermission, type ToolPattern } from "../hooks/permissions";
import { type HookFailure, runHookChain } from "../hooks/run-hooks";
import type {
  CanUseTool,
  Hooks,
  PermissionMode,
  PermissionResult,
  PostToolUseOutput,
  PreToolUseOutput,
} from "../hooks/types";
import type { PermissionDenial, SDKMessage } from "../messages/sdk-messages";
import type { ToolResultBlock, ToolUseBlock } from "../messages/types";
import { describeThrown, nameOfThrown } from "../shared/describe-thrown";
import { isPromiseLike, type PromiseOrValue } from "../shared/maybe-async";
import { redact } from "../shared/redact";
import { asSentence } from "../shared/sentence";
import { type LinkedController, linkSignals, raceWithSignal } from "../shared/signals";
import type { SpanHandle, Telemetry } from "../telemetry/telemetry";
import type { ParseResult, Tool, ToolContext, ToolOutput } from "../tools/tool";
import {
  errorOutcome,
  outcomeFromOutput,
  type ToolCallOutcome,
  toolResultText,
  usableContent,
} from "../tools/tool-output";
import type { Emit } from "./live-messages";

/** Everything a tool call needs from the agent and the query. */
export interface ToolRuntime {
  tools: ReadonlyMap<string, Tool>;
  hooks: Hooks | undefined;
  canUseTool: CanUseTool | undefined;
  permissionMode: PermissionMode;
  allowedTools: readonly ToolPattern[] | undefined;
  disallowedTools: readonly ToolPattern[] | undefined;
  /** Per-call deadline in ms, when set. */
  toolTimeoutMs: number | undefined;
  /** The query's abort signal (not interrupts: an interrupt lets the batch finish). */
  signal: AbortSignal;
  emit: Emit<SDKMessage<any>>;
  denials: PermissionDenial[];
  telemetry: Telemetry;
  /** Parent of the `execute_tool` spans (the query span). */
  parentSpan: SpanHandle;
  /** The agent's credentials (its API key): kept out of the error text a thrown error or failed hook puts in a result. */
  secrets: readonly string[];
  /**
   * Summarises a huge successful result before it enters history, when configured; its span is a
   * child of the call's span.
   */
  compactResult?: (
    call: ToolUseBlock,
    block: ToolResultBlock,
    parentSpan: SpanHandle,
  ) => Promise<ToolResultBlock>;
}

/**
 * Runs one call through the whole permission and hook pipeline. A call that needs nothing
 * asynchronous — a synchronous validator and tool, no hooks, no permission prompt — completes
 * without a promise; anything else returns one.
 */
export function runToolCall(call: ToolUseBlock, runtime: ToolRuntime): PromiseOrValue<ToolCallOutcome> {
  const span = runtime.telemetry.toolCall(runtime.parentSpan, call.name, call.id);
  let outcome: PromiseOrValue<ToolCallOutcome>;
  try {
    outcome = runToolCallPipeline(call, runtime, span);
  } catch (error) {
    span.end();
    throw error;
  }
  if (!isPromiseLike(outcome)) return endToolSpan(span, outcome);
  return outcome.then(
    (settled) => endToolSpan(span, settled),
    (error: unknown) => {
      span.end();
      throw error;
    },
  );
}

function endToolSpan(span: SpanHandle, outcome: ToolCallOutcome): ToolCallOutcome {
  if (outcome.block.is_error) {
    const failure = new Error(toolResultText(outcome.block.content));
    if (outcome.errorName) failure.name = outcome.errorName;
    span.fail(failure);
  }
  span.end();
  return outcome;
}

/** A call the checks let through: the tool, the input it runs with, and that input parsed. */
interface ClearedCall {
  tool: Tool;
  input: unknown;
  value: unknown;
}

function runToolCallPipeline(
  call: ToolUseBlock,
  runtime: ToolRuntime,
  span: SpanHandle,
): PromiseOrValue<ToolCallOutcome> {
  const checked = checkToolCall(call, runtime);
  if (isPromiseLike(checked)) return checked.then((cleared) => runClearedCall(call, cleared, runtime, span));
  return runClearedCall(call, checked, runtime, span);
}

/**
 * The checks before a call runs, in order: unknown tool, input validation, allow/deny lists and
 * permission mode; then, when there are any, `preToolUse` hooks and the `canUseTool` prompt.
 * Returns the cleared call, or the outcome that refuses it.
 */
function checkToolCall(
  call: ToolUseBlock,
  runtime: ToolRuntime,
): PromiseOrValue<ClearedCall | ToolCallOutcome> {
  const tool = runtime.tools.get(call.name);
  if (!tool) return errorOutcome(call.id, unknownToolMessage(call.name, runtime.tools));
  const input = privateCopy(call.input);
  const parsing = parseWithin(tool, input, runtime);
  // Most validators are synchronous: no await (and no tick) for them.
  if (isPromiseLike(parsing))
    return parsing.then((parsed) =>
      parsed === ABORTED ? abortedOutcome(call) : checkParsedCall(call, tool, input, parsed, runtime),
    );
  return checkParsedCall(call, tool, input, parsing, runtime);
}

/**
 * A copy of the model's input for the validator, hooks and the tool: a validator may hand back the
 * object it was given (a bare `parse`, `z.any()` fields), and a tool editing its input would then
 * rewrite the `tool_use` block in history — later requests would show the model a call it never
 * made. Inputs come from JSON, so copying plain objects and arrays is exact (and far cheaper than
 * `structuredClone`); anything else inside is shared, and an input nested deeper than JSON sensibly
 * goes (or holding a cycle, from a scripted client) is used as is.
 */
function privateCopy(input: unknown): unknown {
  if (typeof input !== "object" || input === null) return input;
  try {
    return copyJsonValue(input, 0);
  } catch {
    return input;
  }
}

const MAX_COPY_DEPTH = 512;

function copyJsonValue(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (depth > MAX_COPY_DEPTH) throw new RangeError("input nested too deeply to copy");
  if (Array.isArray(value)) {
    const copy = new Array(value.length);
    for (let index = 0; index < value.length; index++) copy[index] = copyJsonValue(value[index], depth + 1);
    return copy;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value; // not from JSON: shared
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    copy[key] = copyJsonValue((value as Record<string, unknown>)[key], depth + 1);
  return copy;
}

/** What {@link parseWithin} returns when the query was aborted before an async validator answered. */
const ABORTED = Symbol("aborted");

/**
 * Validates `input`. An async validator is raced with the query's signal (a remote lookup that
 * never answers cannot outlive an abort); a validator that throws refuses the input.
 */
function parseWithin(
  tool: Tool,
  input: unknown,
  runtime: ToolRuntime,
): ParseResult<unknown> | Promise<ParseResult<unknown> | typeof ABORTED> {
  let parsing: ReturnType<Tool["parseInput"]>;
  try {
    parsing = tool.parseInput(input);
  } catch (error) {
    return { ok: false, message: `The input validator failed: ${describeThrown(error)}` };
  }
  if (!isPromiseLike(parsing)) return parsing;
  return raceWithSignal(Promise.resolve(parsing), runtime.signal).then(
    (parsed) => parsed,
    (error: unknown) =>
      runtime.signal.aborted
        ? ABORTED
        : { ok: false as const, message: `The input validator failed: ${describeThrown(error)}` },
  );
}

function abortedOutcome(call: ToolUseBlock): ToolCallOutcome {
  return errorOutcome(call.id, abortedMessage(call.name));
}

function checkParsedCall(
  call: ToolUseBlock,
  tool: Tool,
  input: unknown,
  parsed: ParseResult<unknown>,
  runtime: ToolRuntime,
): PromiseOrValue<ClearedCall | ToolCallOutcome> {
  if (!parsed.ok) return errorOutcome(call.id, invalidInputMessage(call.name, parsed.message));
  const rule = staticPermission(call.name, tool.readOnly, runtime);
  if (rule.kind === "deny") return deny(call, call.input, rule.source, rule.message, runtime);
  const asks = rule.kind === "ask" && runtime.canUseTool !== undefined;
  if (!runtime.hooks?.preToolUse?.length && !asks) return { tool, input, value: parsed.value };
  return runInteractiveChecks(call, tool, input, parsed.value, asks, runtime);
}

/** `preToolUse` hooks, then the `canUseTool` prompt when the static rules ask for one. */
async function runInteractiveChecks(
  call: ToolUseBlock,
  tool: Tool,
  checkedInput: unknown,
  parsedValue: unknown,
  asks: boolean,
  runtime: ToolRuntime,
): Promise<ClearedCall | ToolCallOutcome> {
  let input: unknown = checkedInput;
  let value = parsedValue;
  const pre = runtime.hooks?.preToolUse?.length
    ? await runPreToolUseHooks(call, input, runtime)
    : NO_PRE_HOOKS;
  if (pre.failure) {
    if (runtime.signal.aborted) return errorOutcome(call.id, abortedMessage(call.name));
    return hookFailed(call.id, pre.failure, "The call was not run.", runtime);
  }
  if (pre.block)
    return deny(
      call,
      pre.input,
      "hook",
      refusalMessage(pre.message) ?? `A preToolUse hook blocked "${call.name}".`,
      runtime,
    );
  if (pre.updated) {
    input = pre.input;
    const parsed = await parseWithin(tool, input, runtime);
    if (parsed === ABORTED) return abortedOutcome(call);
    if (!parsed.ok) return errorOutcome(call.id, invalidInputMessage(call.name, parsed.message));
    value = parsed.value;
  }

  if (asks) {
    // Nobody is asked about a call that can no longer run.
    if (runtime.signal.aborted) return abortedOutcome(call);
    const canUseTool = runtime.canUseTool!;
    let answer: unknown;
    try {
      // Raced with the query's signal: a check waiting on a human cannot outlive an abort.
      const asking = Promise.resolve().then(() =>
        canUseTool(call.name, input, { signal: runtime.signal, toolUseId: call.id }),
      );
      answer = await raceWithSignal(asking, runtime.signal);
    } catch (error) {
      if (runtime.signal.aborted) return errorOutcome(call.id, abortedMessage(call.name));
      return errorOutcome(
        call.id,
        `The permission check (canUseTool) for "${call.name}" failed: ${describeThrown(error)}. The call was not run.`,
      );
    }
    const decision = asPermissionResult(answer);
    if (!decision) {
      return errorOutcome(
        call.id,
        `The permission check (canUseTool) for "${call.name}" returned neither { behavior: "allow" } nor { behavior: "deny" }. The call was not run.`,
      );
    }
    if (decision.behavior === "deny") {
      const message = refusalMessage(decision.message) ?? `canUseTool refused "${call.name}".`;
      return deny(call, input, "canUseTool", message, runtime);
    }
    if (decision.updatedInput !== undefined) {
      input = decision.updatedInput;
      const parsed = await parseWithin(tool, input, runtime);
      if (parsed === ABORTED) return abortedOutcome(call);
      if (!parsed.ok) return errorOutcome(call.id, invalidInputMessage(call.name, parsed.message));
      value = parsed.value;
    }
  }
  return { tool, input, value };
}

/** Executes a cleared call, then `postToolUse` hooks and the summary of a huge result, if any. */
function runClearedCall(
  call: ToolUseBlock,
  checked: ClearedCall | ToolCallOutcome,
  runtime: ToolRuntime,
  span: SpanHandle,
): PromiseOrValue<ToolCallOutcome> {
  if (!("tool" in checked)) return checked; // refused
  const executed = executeTool(checked.tool, call, checked.value, runtime, span);
  if (!runtime.hooks?.postToolUse?.length && !runtime.compactResult) return executed;
  return afterExecution(call, checked.input, executed, runtime, span);
}

async function afterExecution(
  call: ToolUseBlock,
  input: unknown,
  executed: PromiseOrValue<ToolCallOutcome>,
  runtime: ToolRuntime,
  span: SpanHandle,
): Promise<ToolCallOutcome> {
  let outcome = await executed;
  if (runtime.hooks?.postToolUse?.length) outcome = await runPostToolUseHooks(call, input, outcome, runtime);
  if (runtime.compactResult && !outcome.block.is_error) {
    const block = await runtime.compactResult(call, outcome.block, span);
    // History gets the summary; an `endTurn` result stays the tool's own content as the query's result.
    if (block !== outcome.block)
      outcome = outcome.endTurn
        ? { ...outcome, block, originalContent: outcome.block.content }
        : { ...outcome, block };
  }
  return outcome;
}

/**
 * Runs the tool under the query's signal and the per-call deadline. A synchronous tool has
 * finished when it returns: there is nothing to race, and no promise is made.
 */
function executeTool(
  tool: Tool,
  call: ToolUseBlock,
  input: unknown,
  runtime: ToolRuntime,
  span: SpanHandle,
): PromiseOrValue<ToolCallOutcome> {
  if (runtime.signal.aborted) return errorOutcome(call.id, abortedMessage(call.name));
  const timeoutMs = runtime.toolTimeoutMs;
  // Only a per-call deadline needs a signal of its own (an AbortController per call is costly).
  const link = timeoutMs === undefined ? undefined : linkSignals(runtime.signal);
  const signal = link?.signal ?? runtime.signal;
  const timer =
    link === undefined ? undefined : setTimeout(() => link.abort(new ToolTimeout(timeoutMs!)), timeoutMs);
  let output: ToolOutput | PromiseLike<ToolOutput>;
  let pending: boolean;
  try {
    const context: ToolContext = { signal, toolUseId: call.id, toolName: call.name };
    // With tracing on, the tool runs inside its execute_tool span (its own spans nest under it).
    output = span.activate ? span.activate(() => tool.execute(input, context)) : tool.execute(input, context);
    pending = isPromiseLike(output); // reads `then`, which may throw
  } catch (error) {
    clearDeadline(timer, link);
    return failedExecution(call, error, signal, runtime);
  }
  if (!pending) {
    clearDeadline(timer, link);
    return outcomeFromOutput(call, output as ToolOutput);
  }
  return raceWithSignal(Promise.resolve(output as PromiseLike<ToolOutput>), signal).then(
    (settled) => {
      clearDeadline(timer, link);
      return outcomeFromOutput(call, settled);
    },
    (error: unknown) => {
      clearDeadline(timer, link);
      return failedExecution(call, error, signal, runtime);
    },
  );
}

function clearDeadline(timer: NodeJS.Timeout | undefined, link: LinkedController | undefined): void {
  if (timer) clearTimeout(timer);
  link?.dispose();
}

/** The error result of a tool that threw, timed out or was cancelled. */
function failedExecution(
  call: ToolUseBlock,
  error: unknown,
  signal: AbortSignal,
  runtime: ToolRuntime,
): ToolCallOutcome {
  if (signal.aborted && signal.reason instanceof ToolTimeout) {
    return errorOutcome(
      call.id,
      `The tool "${call.name}" did not finish within ${signal.reason.timeoutMs} ms and was cancelled.`,
    );
  }
  if (runtime.signal.aborted) return errorOutcome(call.id, abortedMessage(call.name));
  const outcome = errorOutcome(
    call.id,
    redact(`The tool "${call.name}" failed: ${describeThrown(error)}`, runtime.secrets),
  );
  const errorName = nameOfThrown(error);
  if (errorName) outcome.errorName = errorName; // for the span's error.type
  return outcome;
}

class ToolTimeout {
  constructor(readonly timeoutMs: number) {}
}

/** What `runPreToolUseHooks` returns when there are none (no allocation per call). */
const NO_PRE_HOOKS = Object.freeze({
  input: undefined as unknown,
  updated: false,
  block: false,
  message: undefined as string | undefined,
  failure: undefined,
});

async function runPreToolUseHooks(call: ToolUseBlock, initialInput: unknown, runtime: ToolRuntime) {
  const state = {
    input: initialInput,
    updated: false,
    block: false,
    message: undefined as string | undefined,
  };
  const failure = await runHookChain({
    event: "preToolUse",
    hooks: runtime.hooks?.preToolUse,
    toolName: call.name,
    input: () => ({ toolName: call.name, input: state.input, toolUseId: call.id, signal: runtime.signal }),
    onOutput: (output: PreToolUseOutput) => {
      if (output.updatedInput !== undefined) {
        state.input = output.updatedInput;
        state.updated = true;
      }
      if (output.block) {
        state.block = true;
        state.message = output.message;
        return true;
      }
    },
    signal: runtime.signal,
  });
  return { ...state, failure };
}

async function runPostToolUseHooks(
  call: ToolUseBlock,
  input: unknown,
  outcome: ToolCallOutcome,
  runtime: ToolRuntime,
): Promise<ToolCallOutcome> {
  if (runtime.signal.aborted) return abortedBeforeCheck(call, outcome);
  let current = outcome;
  const failure = await runHookChain({
    event: "postToolUse",
    hooks: runtime.hooks?.postToolUse,
    toolName: call.name,
    input: () => ({ toolName: call.name, input, toolUseId: call.id, output: current.block }),
    onOutput: (output: PostToolUseOutput) => {
      if (output.updatedOutput !== undefined) {
        checkOutputOverride(output.updatedOutput);
        const replaced = outcomeFromOutput(call, output.updatedOutput);
        current = { block: replaced.block, endTurn: current.endTurn || replaced.endTurn };
      }
    },
    signal: runtime.signal,
  });
  if (!failure) return current;
  if (runtime.signal.aborted) return abortedBeforeCheck(call, outcome);
  // The output is withheld: the failing hook may have been the one redacting it.
  return hookFailed(
    call.id,
    failure,
    "The tool did run, but its output was withheld because the hook could not check it.",
    runtime,
  );
}

/**
 * Refuses (throws, failing the hook) an `updatedOutput` whose content history could not hold: the
 * API would refuse it on every later request.
 */
function checkOutputOverride(output: unknown): void {
  if (typeof output !== "object" || output === null || !("content" in output)) return;
  if (usableContent(output.content) === undefined)
    throw new TypeError("updatedOutput content must be a string or an array of text and image blocks.");
}

/**
 * The query was aborted before `postToolUse` hooks checked the outcome: a cancelled or failed call
 * keeps its error; a finished call's output is withheld, since a hook may have been the one
 * redacting it. Not a hook failure: no `hook_error`.
 */
function abortedBeforeCheck(call: ToolUseBlock, outcome: ToolCallOutcome): ToolCallOutcome {
  if (outcome.block.is_error) return outcome;
  return errorOutcome(
    call.id,
    `The tool "${call.name}" ran, but the query was aborted before its postToolUse hooks checked the output, so the output was withheld.`,
  );
}

function hookFailed(
  toolUseId: string,
  failure: HookFailure,
  detail: string,
  runtime: ToolRuntime,
): ToolCallOutcome {
  runtime.emit({ type: "system", subtype: "hook_error", hook: failure.event, error: failure });
  return errorOutcome(toolUseId, redact(`${asSentence(failure.message)} ${detail}`, runtime.secrets));
}

function deny(
  call: ToolUseBlock,
  input: unknown,
  source: PermissionDenial["source"],
  message: string,
  runtime: ToolRuntime,
): ToolCallOutcome {
  runtime.denials.push({ tool_name: call.name, tool_use_id: call.id, tool_input: input, source, message });
  return errorOutcome(call.id, `Permission denied: ${message}`);
}

/** A well-formed decision, or undefined: anything else fails closed (never read as an allow). */
function asPermissionResult(answer: unknown): PermissionResult | undefined {
  if (typeof answer !== "object" || answer === null) return undefined;
  const { behavior } = answer as { behavior?: unknown };
  return behavior === "allow" || behavior === "deny" ? (answer as PermissionResult) : undefined;
}

function unknownToolMessage(name: string, tools: ReadonlyMap<string, Tool>): string {
  const available = [...tools.keys()].join(", ") || "(none)";
  return `Unknown tool "${name}". Available tools: ${available}.`;
}

function invalidInputMessage(name: string, issues: string): string {
  return `Invalid input for tool "${name}":\n${issues}\nFix the input and call the tool again.`;
}

function abortedMessage(name: string): string {
  return `The tool "${name}" was cancelled because the query was aborted.`;
}
