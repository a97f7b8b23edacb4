/**
 * The UI message stream vocabulary: the chunks `toUIMessageStream` emits, typed here so that
 * `agent-lattice/ui` needs no runtime dependency on the `ai` package. Every shape is one of the AI
 * SDK's `UIMessageChunk` variants (protocol `x-vercel-ai-ui-message-stream: v1`); tests validate
 * each emitted chunk against `ai`'s own `uiMessageChunkSchema`.
 * @module
 */
import type { PendingApproval, PendingInput, ResultSubtype, Usage } from "../index";

/** Why a message ended, as the protocol names it. */
export type UIFinishReason = "stop" | "length" | "content-filter" | "tool-calls" | "error" | "other";

/**
 * What the stream attaches to the assistant message as its `metadata` (`start`,
 * `message-metadata` and `finish` chunks). Every field is optional: a client merges them as they come.
 */
export interface LatticeMessageMetadata {
  /** The conversation the message belongs to (set by `createChatHandler`). */
  conversationId?: string;
  /** Tokens used so far by this run (the top-level query; a subagent's own usage is in its data part). */
  usage?: Usage;
  /** Model requests made so far by this run. */
  numTurns?: number;
  /** The run's cost in USD (on `finish`: the result's `total_cost_usd`, subagents included). */
  totalCostUsd?: number;
  /** Wall-clock duration of the run, on `finish`. */
  durationMs?: number;
  /**
   * How the run ended, on `finish`: the result subtype (`success`, `interrupted`,
   * `requires_approval`, `error_max_turns` …). Absent while the run goes on.
   */
  end?: ResultSubtype;
  /** With `end: "requires_approval"`: every call waiting for a person, in the model's order. */
  pendingApprovals?: PendingApproval[];
  /**
   * With `end: "requires_input"`: every question an MCP server asked that waits for the person's
   * answer (each also sent as a `data-input` part); the next request answers them.
   */
  pendingInputs?: PendingInput[];
  /** With `end: "guardrail_tripwire"`: the guardrail that tripped and its stage (its message is in the error chunk). */
  guardrail?: { name: string; stage: string };
}

/**
 * The progress of one subagent call, sent as a `data-subagent` part whose `id` is the parent's
 * `toolCallId`: each new chunk replaces the part in place, so the client holds the latest state.
 */
export interface SubagentProgress {
  /** The parent's tool call that runs the child. */
  toolCallId: string;
  /** `running` until the child's result arrives, then `done` or `error`. */
  status: "running" | "done" | "error";
  /** The child's text so far (its assistant messages' text, joined). */
  text: string;
  /** The child's model turns so far. */
  turns: number;
  /** The names of the tools the child called, in order. */
  tools: string[];
}

/**
 * A handoff (`AgentOptions.handoffs`), sent as a `data-handoff` part: from the next step on, agent
 * `to` answers. Also rebuilt from history (`meta.handoff`) by `historyToUIMessages`.
 */
export interface HandoffPart {
  /** The agent that handed the conversation over. */
  from: string;
  /** The agent that answers from then on. */
  to: string;
}

/** One chunk of the UI message stream (a subset of the AI SDK's `UIMessageChunk`). */
export type UIStreamChunk =
  | { type: "start"; messageId?: string; messageMetadata?: LatticeMessageMetadata }
  | { type: "start-step" }
  | { type: "finish-step" }
  | { type: "text-start"; id: string }
  | { type: "text-delta"; id: string; delta: string }
  | { type: "text-end"; id: string }
  | { type: "reasoning-start"; id: string }
  | { type: "reasoning-delta"; id: string; delta: string }
  | { type: "reasoning-end"; id: string }
  | { type: "tool-input-start"; toolCallId: string; toolName: string; dynamic: true }
  | { type: "tool-input-delta"; toolCallId: string; inputTextDelta: string }
  | { type: "tool-input-available"; toolCallId: string; toolName: string; input: unknown; dynamic: true }
  | { type: "tool-approval-request"; approvalId: string; toolCallId: string }
  | { type: "tool-output-available"; toolCallId: string; output: unknown; dynamic: true }
  | { type: "tool-output-error"; toolCallId: string; errorText: string; dynamic: true }
  | { type: "tool-output-denied"; toolCallId: string }
  | { type: "data-subagent"; id: string; data: SubagentProgress }
  | { type: "data-handoff"; id: string; data: HandoffPart }
  /**
   * A question an MCP server asked during a tool call that waits for the person's answer (the run
   * ended `requires_input`); `id` is the input's id. The next request answers it: a body with
   * `inputs: { [id]: { action, content? } }` (see `createChatHandler`).
   */
  | { type: "data-input"; id: string; data: PendingInput }
  | { type: "message-metadata"; messageMetadata: LatticeMessageMetadata }
  | { type: "error"; errorText: string }
  | { type: "finish"; finishReason?: UIFinishReason; messageMetadata?: LatticeMessageMetadata };
