/**
 * The context a call's tool runs with: `ToolContext.step` and `ToolContext.idempotencyKey` among
 * the rest. The journal — where a step's result is recorded before `step` returns — is the loop's
 * (`loop/step-journal.ts`, over the conversation's history); here a step only asks it for a
 * recorded result and hands it a new one.
 * @module
 */
import { AbortError, InvalidOptionError } from "../errors";
import { toPlainJson } from "../shared/plain-json";
import type { AgentToolContext } from "./agent-context";
import type { ToolContext } from "./tool";

/** What a call's steps are recorded in and replayed from (see `loop/step-journal.ts`). */
export interface StepJournal {
  /** The step `name` of the call `toolUseId` as recorded before (a re-run), or `undefined`. */
  recorded(toolUseId: string, name: string): { result?: unknown } | undefined;
  /**
   * Records a step's plain JSON result — durably, when history is stored — and resolves with it as
   * recorded (redacted). `input` is the input the call runs with (kept with its first step, for a re-run).
   */
  record(toolUseId: string, name: string, result: unknown, input: unknown): Promise<unknown>;
}

/** What a call's context is built from. */
export interface CallContextFields {
  signal: AbortSignal;
  toolUseId: string;
  toolName: string;
  agent?: AgentToolContext;
  checkpointId?: string;
  /** The input the call runs with (recorded with its first step). */
  input?: unknown;
  /** Where its steps are recorded; without one (outside a query) a step simply runs. */
  journal?: StepJournal;
}

/** The idempotency key of a call: its prompt's checkpoint id and its `tool_use` id. */
export function idempotencyKeyOf(checkpointId: string | undefined, toolUseId: string): string {
  return checkpointId === undefined ? toolUseId : `${checkpointId}/${toolUseId}`;
}

/**
 * The context a tool runs with (its `needsApproval` check too). Exported from the root as
 * {@link createToolContext}, for calling a tool's `execute` outside an agent (a test).
 */
export function callContext(fields: CallContextFields): ToolContext {
  const { signal, toolUseId, toolName, agent, checkpointId, input, journal } = fields;
  return {
    signal,
    toolUseId,
    toolName,
    agent,
    checkpointId,
    idempotencyKey: idempotencyKeyOf(checkpointId, toolUseId),
    step: (name, run) => runStep(journal, { signal, toolUseId, input }, name, run),
  };
}

/** One step: replayed when recorded, else run, copied as plain JSON, recorded, returned as recorded. */
async function runStep<T>(
  journal: StepJournal | undefined,
  call: { signal: AbortSignal; toolUseId: string; input: unknown },
  name: string,
  run: () => T | Promise<T>,
): Promise<T> {
  if (typeof name !== "string" || name.length === 0)
    throw new InvalidOptionError("ToolContext.step: the step's name must be a non-empty string.");
  if (typeof run !== "function")
    throw new InvalidOptionError(`ToolContext.step("${name}"): the step must be a function.`);
  const recorded = journal?.recorded(call.toolUseId, name);
  if (recorded) return structuredClone(recorded.result) as T;
  if (call.signal.aborted) throw new AbortError(call.signal.reason);
  const value = await run();
  const plain = plainResult(name, value);
  if (!journal) return plain as T;
  return (await journal.record(call.toolUseId, name, plain, call.input)) as T;
}

/** The step's result as a plain JSON copy, or a clear error naming the step and the field. */
function plainResult(name: string, value: unknown): unknown {
  if (value === undefined) return undefined;
  const copy = toPlainJson(value, "result");
  if (copy.ok) return copy.value;
  throw new InvalidOptionError(
    `ToolContext.step("${name}"): the step's result must be plain JSON to be recorded — ${copy.problem}.`,
  );
}

/**
 * A {@link ToolContext} for calling a tool's `execute` (or `needsApproval`) yourself, outside an
 * agent's query — in a test, say. Its `step` runs each step's function and records nothing; its
 * `idempotencyKey` is built from `checkpointId` and `toolUseId` as the agent builds it.
 *
 * @example
 * const output = await tool.execute(input, createToolContext({ toolUseId: "toolu_1", toolName: tool.name }));
 */
export function createToolContext(
  fields: Partial<Omit<CallContextFields, "journal" | "input">> & { toolUseId: string; toolName: string },
): ToolContext {
  return callContext({ ...fields, signal: fields.signal ?? new AbortController().signal });
}
