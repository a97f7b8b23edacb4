/**
 * Guardrails: checks that run at fixed points of a query — the prompt before it is sent
 * (`input`), the final answer before it is returned (`output`), each tool call before it runs
 * (`tool_input`) and each result before the model sees it (`tool_output`) — and say whether it may
 * go on. Defined here, validated once by the agent, run by `run-guardrails.ts`.
 * @module
 */
import { InvalidOptionError } from "../errors";
import type { ContentBlock, ModelMessage, ToolResultBlock, Usage } from "../messages/types";
import type { ModelClient } from "../model/client";

/** Where a guardrail runs. */
export type GuardrailStage = "input" | "output" | "tool_input" | "tool_output";

/** Every stage, in the order a query meets them. */
export const GUARDRAIL_STAGES: readonly GuardrailStage[] = Object.freeze([
  "input",
  "tool_input",
  "tool_output",
  "output",
]);

/**
 * What a guardrail decided:
 * - `allow`: go on;
 * - `reject`: refuse politely and go on — a prompt is answered with `message` (the model is not
 *   called), an answer is replaced by `message`, a tool call is answered with `message` as an error
 *   result (nothing runs), a tool result is replaced by `message`;
 * - `tripwire`: stop — the query ends with the result subtype `"guardrail_tripwire"` and its turn
 *   is withdrawn (kept in history, never sent to the model again);
 * - `redact`: go on with every text of the content passed through `redact` (what `piiGuardrail`
 *   returns in its `"redact"` mode).
 */
export type GuardrailVerdict =
  | { verdict: "allow" }
  | { verdict: "reject"; message: string }
  | { verdict: "tripwire"; message?: string; info?: unknown }
  | { verdict: "redact"; redact: (text: string) => string; info?: unknown };

/** What a guardrail's `check` is given. Read it; change nothing in it. */
export interface GuardrailContext {
  /** The stage this check runs at. */
  readonly stage: GuardrailStage;
  /**
   * The text to check: the prompt's text (its text blocks joined by a blank line) at `input`, the
   * answer's text at `output`, the call's input as JSON at `tool_input`, the result's text at
   * `tool_output`.
   */
  readonly text: string;
  /** `input`: the prompt as given. */
  readonly prompt?: string | readonly ContentBlock[];
  /** `output` with `outputSchema`: the submitted value, before it is validated. */
  readonly structuredOutput?: unknown;
  /** `tool_input` and `tool_output`: the call (its input as hooks and permissions left it). */
  readonly toolCall?: { readonly id: string; readonly name: string; readonly input: unknown };
  /** `tool_output`: the result as the model would see it. */
  readonly toolResult?: ToolResultBlock;
  /** The conversation before this point, as the model sees it. */
  readonly messages: readonly ModelMessage[];
  /** Who answers: the agent's `name` (default `"main"`). */
  readonly agent: string;
  /** The agent's model now, and its client: what `judgeGuardrail` uses unless told otherwise. */
  readonly model: string;
  readonly client: ModelClient;
  /** Aborted when the query is cancelled, when the guardrail's deadline passes, or another one tripped. */
  readonly signal: AbortSignal;
  /** Counts a model request the check made in the query's usage, cost and budget (`model_usage`). */
  reportUsage(model: string, usage: Usage): void;
}

/** A guardrail, as {@link defineGuardrail} returns it. */
export interface Guardrail {
  readonly name: string;
  readonly stages: readonly GuardrailStage[];
  /** `input` only: `"blocking"` (the model waits for it) or `"parallel"` (it races the first request). */
  readonly mode: "blocking" | "parallel";
  /** The check's deadline in ms (a check still running then counts as failed). */
  readonly timeoutMs: number;
  /** What a check that throws or times out counts as. */
  readonly onError: "tripwire" | "allow";
  check(context: GuardrailContext): GuardrailVerdict | Promise<GuardrailVerdict>;
}

/** What {@link defineGuardrail} takes. */
export interface GuardrailDefinition {
  /** Names it in results, history, telemetry and the studio. Unique among an agent's guardrails. */
  name: string;
  /** Where it runs: one stage, or several. */
  stage: GuardrailStage | readonly GuardrailStage[];
  /**
   * `input` only: `"blocking"` — the model is not called until it allows — or `"parallel"` — it
   * races the first model request; a trip aborts that request, and no tool starts before it
   * allowed. @default "blocking"
   */
  mode?: "blocking" | "parallel";
  /** The check's deadline. @default 30000 ({@link DEFAULT_GUARDRAIL_TIMEOUT_MS}) */
  timeoutMs?: number;
  /**
   * What a check that throws, times out or returns no verdict counts as: a `"tripwire"` (fail
   * closed) or `"allow"` (fail open: the failure is reported as a `guardrail_error` notice).
   * @default "tripwire"
   */
  onError?: "tripwire" | "allow";
  /** Decides; may be async. It must not change its context. */
  check(context: GuardrailContext): GuardrailVerdict | Promise<GuardrailVerdict>;
}

/** A check's deadline unless its definition sets one. */
export const DEFAULT_GUARDRAIL_TIMEOUT_MS = 30_000;

const NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * Defines a guardrail: a named check that runs at one or more stages of every query of the agents
 * it is given to (`AgentOptions.guardrails`).
 * @throws InvalidOptionError when the definition is malformed
 */
export function defineGuardrail(definition: GuardrailDefinition): Guardrail {
  if (typeof definition !== "object" || definition === null)
    throw new InvalidOptionError("defineGuardrail: pass a definition object.");
  const { name, check } = definition;
  if (typeof name !== "string" || !NAME.test(name))
    throw new InvalidOptionError(
      `defineGuardrail: name must be 1–64 letters, digits or _.:- characters, got ${JSON.stringify(name)}.`,
    );
  if (typeof check !== "function")
    throw new InvalidOptionError(`defineGuardrail "${name}": check must be a function.`);
  const stages = stagesOf(name, definition.stage);
  const mode = definition.mode ?? "blocking";
  if (mode !== "blocking" && mode !== "parallel")
    throw new InvalidOptionError(`defineGuardrail "${name}": mode must be "blocking" or "parallel".`);
  if (mode === "parallel" && (stages.length !== 1 || stages[0] !== "input"))
    throw new InvalidOptionError(`defineGuardrail "${name}": mode "parallel" is for the "input" stage only.`);
  const timeoutMs = definition.timeoutMs ?? DEFAULT_GUARDRAIL_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 2_147_483_647)
    throw new InvalidOptionError(
      `defineGuardrail "${name}": timeoutMs must be a positive integer of milliseconds.`,
    );
  const onError = definition.onError ?? "tripwire";
  if (onError !== "tripwire" && onError !== "allow")
    throw new InvalidOptionError(`defineGuardrail "${name}": onError must be "tripwire" or "allow".`);
  return Object.freeze({ name, stages, mode, timeoutMs, onError, check: check.bind(definition) });
}

function stagesOf(name: string, stage: unknown): readonly GuardrailStage[] {
  const list = Array.isArray(stage) ? stage : [stage];
  if (list.length === 0 || list.some((one) => !GUARDRAIL_STAGES.includes(one as GuardrailStage)))
    throw new InvalidOptionError(
      `defineGuardrail "${name}": stage must be "input", "output", "tool_input" or "tool_output" (or an array of them), got ${JSON.stringify(stage)}.`,
    );
  return Object.freeze([...new Set(list as GuardrailStage[])]);
}

/** An agent's guardrails, by stage (absent: none at that stage). */
export interface GuardrailsByStage {
  /** Input guardrails the model waits for. */
  readonly input?: readonly Guardrail[];
  /** Input guardrails that race the first request. */
  readonly parallelInput?: readonly Guardrail[];
  readonly output?: readonly Guardrail[];
  readonly toolInput?: readonly Guardrail[];
  readonly toolOutput?: readonly Guardrail[];
}

/**
 * Checks `AgentOptions.guardrails` (each made by {@link defineGuardrail}, names unique) and sorts
 * them by stage; `undefined` when there are none, so an agent without guardrails checks nothing.
 * @throws InvalidOptionError
 */
export function resolveGuardrails(guardrails: unknown): GuardrailsByStage | undefined {
  if (guardrails === undefined) return undefined;
  if (!Array.isArray(guardrails))
    throw new InvalidOptionError("createAgent: guardrails must be an array of guardrails (defineGuardrail).");
  if (guardrails.length === 0) return undefined;
  const names = new Set<string>();
  const byStage: Record<keyof GuardrailsByStage, Guardrail[]> = {
    input: [],
    parallelInput: [],
    output: [],
    toolInput: [],
    toolOutput: [],
  };
  for (const guardrail of guardrails as Guardrail[]) {
    if (!isGuardrail(guardrail))
      throw new InvalidOptionError(
        "createAgent: each of guardrails must come from defineGuardrail (or piiGuardrail, judgeGuardrail).",
      );
    if (names.has(guardrail.name))
      throw new InvalidOptionError(`createAgent: two guardrails are named "${guardrail.name}".`);
    names.add(guardrail.name);
    for (const stage of guardrail.stages) byStage[keyOf(stage, guardrail.mode)].push(guardrail);
  }
  const resolved: { -readonly [K in keyof GuardrailsByStage]?: readonly Guardrail[] } = {};
  for (const key of Object.keys(byStage) as Array<keyof GuardrailsByStage>)
    if (byStage[key].length > 0) resolved[key] = Object.freeze(byStage[key]);
  return Object.freeze(resolved);
}

function keyOf(stage: GuardrailStage, mode: Guardrail["mode"]): keyof GuardrailsByStage {
  switch (stage) {
    case "input":
      return mode === "parallel" ? "parallelInput" : "input";
    case "output":
      return "output";
    case "tool_input":
      return "toolInput";
    case "tool_output":
      return "toolOutput";
  }
}

function isGuardrail(value: unknown): value is Guardrail {
  const candidate = value as Guardrail | undefined;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.name === "string" &&
    typeof candidate.check === "function" &&
    Array.isArray(candidate.stages) &&
    typeof candidate.timeoutMs === "number"
  );
}
