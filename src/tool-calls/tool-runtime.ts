/**
 * What the tool pipeline needs from the agent and the query, built once per query by the tool
 * phase and shared by every call of every batch.
 * @module
 */

import type { Guardrail } from "../guardrails/guardrail";
import type { FailOpenReport, StageContext } from "../guardrails/run-guardrails";
import type { ToolPattern } from "../hooks/permissions";
import type { CanUseTool, Hooks, PermissionMode } from "../hooks/types";
import type { ApprovalDecision } from "../messages/approvals";
import type { PermissionDenial, SDKMessage } from "../messages/sdk-messages";
import type { GuardrailRecord, ToolResultBlock, ToolUseBlock } from "../messages/types";
import type { SpanHandle, Telemetry } from "../telemetry/telemetry";
import type { AgentToolContext } from "../tools/agent-context";
import type { Tool } from "../tools/tool";
import type { StepJournal } from "../tools/tool-context";
import type { ToolCallOutcome } from "../tools/tool-output";

/** Everything a tool call needs from the agent and the query. */
export interface ToolRuntime {
  tools: ReadonlyMap<string, Tool>;
  hooks: Hooks | undefined;
  canUseTool: CanUseTool | undefined;
  permissionMode: PermissionMode;
  allowedTools: readonly ToolPattern[] | undefined;
  disallowedTools: readonly ToolPattern[] | undefined;
  /**
   * The decisions of a resumed batch, by tool_use_id; absent otherwise. With it, a call with a
   * decision is settled by it, and no call can ask for approval.
   */
  decisions?: ReadonlyMap<string, ApprovalDecision>;
  /** Per-call deadline in ms, when set. */
  toolTimeoutMs: number | undefined;
  /** The query's abort signal (not interrupts: an interrupt lets the batch finish). */
  signal: AbortSignal;
  /** `signal.aborted`, read from a flag the query keeps (checked before every call: cheaper than the getter). */
  signalAborted(): boolean;
  /** Delivers a notice (a hook error, a subagent's messages) to the query's consumer. */
  emit: (message: SDKMessage<any>) => void;
  denials: PermissionDenial[];
  telemetry: Telemetry;
  /** Parent of the `execute_tool` spans (the query span). */
  parentSpan: SpanHandle;
  /** The agent's credentials (its API key): kept out of the error text a thrown error or failed hook puts in a result. */
  secrets: readonly string[];
  /** What a subagent tool needs of the query (`ToolContext.agent`); shared by every call. */
  agent?: AgentToolContext;
  /** The agent's clock (ms): a call that runs records its duration by it; without it, none. */
  now?: () => number;
  /** The query's tool guardrails (`tool_input`, `tool_output`), when it has any. */
  guardrails?: ToolGuardrails;
  /** The query's checkpoint (`ToolContext.checkpointId`, and the first half of `idempotencyKey`). */
  checkpointId?: string;
  /** Where the calls' steps are recorded and replayed from (`ToolContext.step`); without it a step simply runs. */
  journal?: StepJournal;
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
 * Where the checks before execution left a call: cleared to run (so far), refused (its error
 * result, `kind: "result"`), or waiting for a person's decision.
 */
export type CheckedCall = ClearedCall | ToolCallOutcome | AwaitingApproval;

/**
 * A call the checks have let through so far: the tool, the input it will run with (a private copy
 * of the model's, or a hook's or `canUseTool`'s replacement) and that input as the validator parsed it.
 */
export interface ClearedCall {
  kind: "cleared";
  tool: Tool;
  input: unknown;
  value: unknown;
}

/** A call that waits for a person's decision, with the input it would run with. */
export interface AwaitingApproval {
  kind: "awaiting_approval";
  input: unknown;
  message?: string;
}

/** The tool guardrails of one query, built by the loop and shared by every call of its batches. */
export interface ToolGuardrails {
  readonly input: readonly Guardrail[] | undefined;
  readonly output: readonly Guardrail[] | undefined;
  /** The context of a check, its stage fields given. */
  context(fields: Pick<StageContext, "stage" | "text" | "toolCall" | "toolResult">): StageContext;
  /** A check that failed open. */
  readonly failOpen: FailOpenReport;
  /** A verdict other than allow, as it happens (a notice, a span event). */
  report(record: GuardrailRecord): void;
  /** The verdicts other than allow since the last batch was recorded (its results message's `meta.guardrail`: the first). */
  verdicts: GuardrailRecord[];
  /** The first tripwire of the query's tool calls: no call starts after it, and the query ends. */
  trip: GuardrailRecord | undefined;
}
