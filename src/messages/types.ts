/**
 * History messages: the Anthropic Messages API shapes, snake_case as on the wire. These are what
 * the model sees and what history stores hold.
 * @module
 */
import type { AppliedContextEdit } from "./applied-context-edit";

/** A plain text block. */
export type TextBlock = { type: "text"; text: string };

/** An image, inline (base64) or by URL. */
export type ImageBlock = {
  type: "image";
  source: { type: "base64"; media_type: string; data: string } | { type: "url"; url: string };
};

/** A tool call issued by the model. */
export type ToolUseBlock = { type: "tool_use"; id: string; name: string; input: unknown };

/** The outcome of a tool call, fed back to the model in a user message. */
export type ToolResultBlock = {
  type: "tool_result";
  tool_use_id: string;
  content: string | Array<TextBlock | ImageBlock>;
  is_error?: boolean;
};

/** Extended thinking, kept verbatim (the signature must round-trip). */
export type ThinkingBlock = { type: "thinking"; thinking: string; signature: string };

/** Thinking the provider redacted; kept verbatim. */
export type RedactedThinkingBlock = { type: "redacted_thinking"; data: string };

/**
 * A call of a tool the provider runs itself (the Messages API's tool search: `name`
 * `tool_search_tool_bm25` or `tool_search_tool_regex`), kept verbatim in the assistant message.
 */
export type ServerToolUseBlock = { type: "server_tool_use"; id: string; name: string; input: unknown };

/** A tool the provider's tool search found: from then on the model may call it. */
export type ToolReference = { type: "tool_reference"; tool_name: string };

/**
 * The result of the provider's tool search, kept verbatim in the assistant message after its
 * {@link ServerToolUseBlock}: the tools found, or an error (`tool_search_tool_result_error`).
 */
export type ToolSearchToolResultBlock = {
  type: "tool_search_tool_result";
  tool_use_id: string;
  content:
    | { type: "tool_search_tool_search_result"; tool_references: ToolReference[] }
    | { type: "tool_search_tool_result_error"; error_code: string };
};

/**
 * The provider's server compaction (`compact_20260112`): a summary of everything before it in the
 * conversation, opening an assistant message. Kept in history byte for byte and sent back as it
 * came — the provider then reads the conversation from this block on. `content` is `null` when the
 * compaction failed (the provider treats the block as a no-op); `encrypted_content`, `signature`
 * and any other field are opaque and returned verbatim.
 */
export type CompactionBlock = {
  type: "compaction";
  content: string | null;
  encrypted_content?: string | null;
  signature?: string | null;
};

/** Any block a history message may hold. */
export type ContentBlock =
  | TextBlock
  | ImageBlock
  | ToolUseBlock
  | ToolResultBlock
  | ThinkingBlock
  | RedactedThinkingBlock
  | ServerToolUseBlock
  | ToolSearchToolResultBlock
  | CompactionBlock;

/**
 * Token counts reported by the provider for one response (or summed over several). The prompt is
 * `input_tokens` (after the last cache marker) + `cache_creation_input_tokens` (written to the
 * cache) + `cache_read_input_tokens` (read from it).
 */
export type Usage = {
  input_tokens: number;
  output_tokens: number;
  /** Tokens written to the prompt cache, both TTLs together. */
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  /**
   * The cache writes split by TTL, when the provider reports it (Anthropic does); the two add up
   * to `cache_creation_input_tokens`. One-hour writes cost more than five-minute ones.
   */
  cache_creation?: CacheCreationUsage;
};

/** Cache writes by TTL, as the Messages API reports them in `usage.cache_creation`. */
export type CacheCreationUsage = {
  ephemeral_5m_input_tokens: number;
  ephemeral_1h_input_tokens: number;
};

/** Why the model stopped. Providers may add values, so any string is accepted. */
export type StopReason =
  | "end_turn"
  | "max_tokens"
  | "stop_sequence"
  | "tool_use"
  | "pause_turn"
  | "refusal"
  | "model_context_window_exceeded"
  | (string & {});

/**
 * What the SDK records beside a message and never sends to the model: the wire mapping keeps only
 * `role` and `content`. Stores keep it with the message; histories written before it existed simply
 * have none, so every field is optional and readers must accept its absence.
 */
export type MessageMeta = {
  /** When the message was recorded (ISO 8601). */
  created_at?: string;
  /**
   * An assistant turn: when its model request began (ISO 8601, the agent's clock), retries and a
   * fallback included.
   */
  started_at?: string;
  /** An assistant turn: when its response was complete (ISO 8601, the agent's clock). */
  ended_at?: string;
  /** An assistant turn: `ended_at` − `started_at` in milliseconds. */
  latency_ms?: number;
  /** An assistant turn: what its usage cost by the agent's price table (0 when the model has no price). */
  cost_usd?: number;
  /** An assistant turn: how many times its request was retried after a transient failure (absent: none). */
  retries?: number;
  /** An assistant turn served by the fallback model: the model tried first. */
  fallback_from?: string;
  /**
   * A user message carrying tool results: how long each call took to run (its `execute`, hooks
   * after it and a result summary), in milliseconds, by `tool_use_id`. Calls answered without
   * running (refused, denied, settled before a pause) have no entry.
   */
  tool_durations_ms?: Record<string, number>;
  /**
   * On a response: the context edits the provider reported as applied to the request that produced
   * it (`context_management.applied_edits`; an empty list when it applied none). Absent when the
   * provider sent no `context_management` — it did not honour the edits, or none were asked.
   */
  context_management?: { applied_edits: AppliedContextEdit[] };
  /**
   * On a response that opens with the provider's server compaction (a {@link CompactionBlock}):
   * the usage of the compaction itself, which the response's `usage` leaves out (the Messages API
   * reports it as a `compaction` entry of `usage.iterations`). Counted in the query's usage and cost.
   */
  compaction_usage?: Usage;
  /**
   * On a user prompt only: the id of the checkpoint it starts — what `agent.rewind({ to })` and
   * `agent.fork({ at })` name. Recorded once, when the prompt enters history, and kept by every
   * store; histories written before checkpoints existed have none, and get ids derived from each
   * prompt's position and content (the same in every process).
   */
  checkpoint_id?: string;
  /**
   * An assistant turn whose paused calls were resumed with decisions: recorded with the claim of
   * the pause, before any call runs, so that a crash before the results are recorded is repaired
   * truthfully — `not_run` (the calls a person denied: they never start) are answered "not run",
   * `settled_results` (calls that finished before a pause inside a subagent) keep their results;
   * only the calls that were to run are "effect unverified".
   */
  approvals_resumed?: { not_run: string[]; settled_results?: ToolResultBlock[] };
  /**
   * An assistant turn whose calls were all checked, none started, and a pause for approval was
   * recorded: should the marker be lost (removed by hand), crash repair answers them "not run".
   * Dropped when the pause is resumed (then `approvals_resumed` says what runs).
   */
  calls_not_started?: true;
  /**
   * On a user message carrying tool results: the steps each call recorded with `ToolContext.step`
   * (name and JSON result, in order), by `tool_use_id`. Calls that recorded none have no entry.
   */
  tool_steps?: Record<string, Array<{ name: string; result?: unknown }>>;
  /**
   * On a user message carrying tool results, written by crash repair: the calls that were running
   * when the process stopped and had recorded steps. Their results say so until the next query of
   * the conversation runs them again (recorded steps replayed), before anything else.
   */
  interrupted_calls?: Array<{ tool_use_id: string; input?: unknown }>;
  /**
   * On a user message carrying tool results: the calls run again after a crash, their recorded
   * steps replayed (`ToolContext.step`) — the results are the real ones of that run.
   */
  rerun_calls?: string[];
  /**
   * A guardrail's verdict about this message (`AgentOptions.guardrails`): the prompt an input
   * guardrail refused, the answer an output guardrail refused or replaced. Never sent.
   */
  guardrail?: GuardrailRecord;
  /**
   * This message belongs to a turn a guardrail withdrew (a tripwire, or a refused prompt), or is a
   * prompt whose parallel input guardrails had not decided when it was recorded (`"unchecked"`: a
   * process that stopped mid-check). Stored history keeps it; no later request sends it to the
   * model (see `withoutWithdrawnTurns`).
   */
  withdrawn?: "guardrail" | "unchecked";
  /**
   * An assistant turn of an agent with handoffs (`AgentOptions.handoffs`): the name of the agent
   * that answered it (the root's `AgentOptions.name`, or a specialist's). Never sent.
   */
  agent?: string;
  /**
   * On the user message carrying the result of a `transfer_to_<name>` call: control passed from
   * agent `from` to agent `to`. The latest one in history names who answers the next prompt, in
   * any process that loads the conversation. Never sent.
   */
  handoff?: HandoffRecord;
};

/** A handoff as history records it ({@link MessageMeta.handoff}). */
export type HandoffRecord = {
  /** The agent that called the transfer tool. */
  from: string;
  /** The agent that answers from then on. */
  to: string;
};

/** A guardrail's verdict as history records it ({@link MessageMeta.guardrail}). */
export type GuardrailRecord = {
  /** The guardrail's name. */
  name: string;
  /** Where it ran: `"input"`, `"output"`, `"tool_input"` or `"tool_output"`. */
  stage: "input" | "output" | "tool_input" | "tool_output";
  /** What it decided (`"redact"`: the content was rewritten before it was recorded). */
  verdict: "reject" | "tripwire" | "redact";
  message?: string;
  /** The guardrail's `info`, as plain JSON. */
  info?: unknown;
};

/** A user turn: a prompt, or tool results fed back. */
export type UserModelMessage = {
  role: "user";
  content: string | ContentBlock[];
  /** Recorded beside the message, never sent ({@link MessageMeta}). */
  meta?: MessageMeta;
};

/** An assistant turn, with the provider metadata the SDK keeps beside it (never sent back). */
export type AssistantModelMessage = {
  role: "assistant";
  content: ContentBlock[];
  stop_reason?: StopReason | null;
  usage?: Usage;
  /** Provider-assigned response id; absent when not reported. */
  providerResponseId?: string;
  /** The model that actually served the response; absent when not reported. */
  model?: string;
  /** Which of the request's stop sequences ended the response; absent when none did. */
  stop_sequence?: string | null;
  /** Recorded beside the message, never sent ({@link MessageMeta}). */
  meta?: MessageMeta;
};

/** One message of the conversation history. */
export type ModelMessage = UserModelMessage | AssistantModelMessage;
