/**
 * What a subagent is made of: {@link SubagentDefinition}, and how deep subagents may nest.
 * @module
 */
import type { AgentOptions } from "../agent/options";
import type { HistoryStore } from "../history/store";
import type { ModelClient } from "../model/client";
import type { OutputSchema } from "../tools/output-schema";
import type { SchemaLike } from "../tools/schema";
import type { NeedsApproval, Tool } from "../tools/tool";

/** How deep subagents may nest: a top-level agent's subagent is at depth 1. Deeper calls get an error result. */
export const MAX_SUBAGENT_DEPTH = 3;

/** The call a subagent's `historyStore` factory is asked for a store for. */
export interface SubagentCall {
  /** The id of the parent's tool call (`tool_use` block) that starts the child. */
  toolUseId: string;
}

/** The child agent's settings that {@link SubagentDefinition} takes from `AgentOptions` as they are. */
type ChildAgentOptions = Omit<
  AgentOptions<unknown>,
  "model" | "tools" | "client" | "historyStore" | "outputSchema" | "includePartialMessages" | "maxTurns"
>;

/**
 * What `defineSubagent` takes. Besides the fields below, every other `AgentOptions` setting
 * (model settings, `hooks`, `retry`, `fallbackModel`, `autoCompact`, `pricing`, `telemetry` …)
 * configures the child agent as it would any agent.
 */
export interface SubagentDefinition extends ChildAgentOptions {
  /** The tool name the parent's model calls. Letters, digits, `_` and `-`, at most 64 characters. */
  name: string;
  /** What the parent's model reads to decide when to call it. */
  description: string;
  /** The child's system prompt. */
  systemPrompt?: string;
  /** The child's own tools; none of the parent's unless listed here. @default [] */
  tools?: Tool[];
  /** The child's model. @default the parent query's current model */
  model?: string;
  /** The child's limit on model requests per call. @default 50 */
  maxTurns?: number;
  /** May run concurrently with the parent's other read-only calls. @default false */
  readOnly?: boolean;
  /**
   * The call waits for a person's decision before the child starts, as a tool's `needsApproval`:
   * the parent query pauses `requires_approval` with this call pending (its input is what the
   * child would be asked), and resuming it runs the child. (A call of the child's own tools that
   * asks pauses the child and the parent with it: the parent's `pending_approvals` lists it with
   * `parent_tool_use_id` and `agent`, and resuming the parent resumes the child.) @default false
   */
  needsApproval?: NeedsApproval<unknown>;
  /**
   * The input the parent's model passes (zod, Standard Schema with JSON Schema, or `{ parse,
   * jsonSchema }`); rendered as JSON into the child's first prompt, or as the bare text when it is
   * `{ prompt }` only. @default z.object({ prompt: z.string() })
   */
  inputSchema?: SchemaLike<unknown>;
  /** With it, the child submits a structured result, returned to the parent as JSON. */
  outputSchema?: OutputSchema<unknown>;
  /** The child's model client. @default the parent query's client */
  client?: ModelClient;
  /**
   * A store for each call's child conversation. @default in memory, for the call only (a child
   * that pauses for approval is then copied into the parent's pause, and resumed from the copy)
   */
  historyStore?: (call: SubagentCall) => HistoryStore;
}
