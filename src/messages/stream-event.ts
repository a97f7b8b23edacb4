/**
 * The stream events of the Messages API, as a model client reports them: one discriminated union,
 * {@link ModelStreamEvent}, whose `content_block_delta` carries a discriminated union of deltas, so
 * that narrowing on `type` reaches every field with its type and no cast.
 *
 * Every shape also takes fields it does not name (`[key: string]: unknown`): endpoints add their
 * own. Event and delta types this version does not know still pass through, typed
 * {@link UnknownStreamEvent} / {@link UnknownContentBlockDelta}; the fields the known members use
 * are typed `never` on those two, which is what lets `event.type === "content_block_delta"` narrow
 * to the known event (a catch-all with a plain `string` type would otherwise stay in every branch).
 * @module
 */
import type { StopReason } from "./types";

/** Token counts as a stream reports them: `message_start` has the input, `message_delta` the output so far. */
export type StreamUsage = {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  [key: string]: unknown;
};

/** A content block as `content_block_start` opens it (text arrives empty, tool input as `{}`). */
export type StreamContentBlock =
  | { type: "text"; text: string; citations?: unknown[] | null; [key: string]: unknown }
  | { type: "tool_use"; id: string; name: string; input: unknown; [key: string]: unknown }
  | { type: "server_tool_use"; id: string; name: string; input: unknown; [key: string]: unknown }
  | { type: "thinking"; thinking: string; signature: string; [key: string]: unknown }
  | { type: "redacted_thinking"; data: string; [key: string]: unknown }
  | UnknownStreamContentBlock;

/**
 * A block type this version does not know (`web_search_tool_result`, `mcp_tool_use` …). Read its
 * fields as `(block as Record<string, unknown>).field`; the names the known blocks use are `never`
 * here so that narrowing on `type` works.
 */
export type UnknownStreamContentBlock = {
  type: string;
  text: never;
  id: never;
  name: never;
  input: never;
  thinking: never;
  signature: never;
  data: never;
  [key: string]: unknown;
};

/** Text appended to a `text` block. */
export type TextDelta = { type: "text_delta"; text: string; [key: string]: unknown };
/** A piece of a tool input's JSON (`tool_use`, `server_tool_use` …); the pieces concatenate to it. */
export type InputJsonDelta = { type: "input_json_delta"; partial_json: string; [key: string]: unknown };
/** Thinking appended to a `thinking` block. */
export type ThinkingDelta = { type: "thinking_delta"; thinking: string; [key: string]: unknown };
/** A piece of a thinking block's signature. */
export type SignatureDelta = { type: "signature_delta"; signature: string; [key: string]: unknown };
/** A citation added to a `text` block. */
export type CitationsDelta = {
  type: "citations_delta";
  citation: { type: string; cited_text?: string; [key: string]: unknown };
  [key: string]: unknown;
};

/** A delta type this version does not know; see {@link UnknownStreamEvent} for how to read it. */
export type UnknownContentBlockDelta = {
  type: string;
  text: never;
  partial_json: never;
  thinking: never;
  signature: never;
  citation: never;
  [key: string]: unknown;
};

/** What a `content_block_delta` carries. */
export type ContentBlockDelta =
  | TextDelta
  | InputJsonDelta
  | ThinkingDelta
  | SignatureDelta
  | CitationsDelta
  | UnknownContentBlockDelta;

/** The message as the stream opens it. `id`, `model` and `usage` may be missing on some Anthropic-compatible endpoints. */
export type StreamMessageStart = {
  id?: string;
  type?: "message";
  role?: "assistant";
  model?: string;
  content?: unknown[];
  stop_reason?: StopReason | null;
  stop_sequence?: string | null;
  usage?: StreamUsage;
  [key: string]: unknown;
};

/** The stream opens: the response id, the serving model and the input usage. */
export type MessageStartEvent = {
  type: "message_start";
  message: StreamMessageStart;
  [key: string]: unknown;
};
/** A content block opens at `index`. */
export type ContentBlockStartEvent = {
  type: "content_block_start";
  index: number;
  content_block: StreamContentBlock;
  [key: string]: unknown;
};
/** A piece of the block at `index`. */
export type ContentBlockDeltaEvent = {
  type: "content_block_delta";
  index: number;
  delta: ContentBlockDelta;
  [key: string]: unknown;
};
/** The block at `index` is complete. */
export type ContentBlockStopEvent = { type: "content_block_stop"; index: number; [key: string]: unknown };
/** The stop reason (and matched stop sequence) and the usage so far. */
export type MessageDeltaEvent = {
  type: "message_delta";
  delta: { stop_reason?: StopReason | null; stop_sequence?: string | null; [key: string]: unknown };
  usage?: StreamUsage;
  [key: string]: unknown;
};
/** The message is complete. */
export type MessageStopEvent = { type: "message_stop"; [key: string]: unknown };
/** Keep-alive. */
export type PingEvent = { type: "ping"; [key: string]: unknown };
/** The stream failed (`overloaded_error` …); the client turns it into a ProviderError. */
export type ErrorEvent = {
  type: "error";
  error: { type: string; message: string; [key: string]: unknown };
  [key: string]: unknown;
};

/**
 * An event type this version does not know, passed through as it came. Narrow it by its `type`
 * (`if (event.type === "future_event")`) and read its fields as `unknown`
 * (`event.payload`), or, for a field named like one of the known events' (`index`, `delta`,
 * `message`, `content_block`, `usage`, `error`) — typed `never` here so that narrowing on `type`
 * reaches the known events' fields — through `(event as Record<string, unknown>).delta`.
 */
export type UnknownStreamEvent = {
  type: string;
  index: never;
  delta: never;
  message: never;
  content_block: never;
  usage: never;
  error: never;
  [key: string]: unknown;
};

/**
 * A raw server-sent event of the Messages API stream: `message_start`, `content_block_start`,
 * `content_block_delta` (text, input JSON, thinking, signature and citations deltas),
 * `content_block_stop`, `message_delta`, `message_stop`, `ping`, `error` — and any event type a
 * newer API sends ({@link UnknownStreamEvent}).
 *
 * @example
 * for await (const m of agent.query("Hi")) {
 *   if (m.type === "stream_event" && m.event.type === "content_block_delta" && m.event.delta.type === "text_delta") {
 *     process.stdout.write(m.event.delta.text);
 *   }
 * }
 */
export type ModelStreamEvent =
  | MessageStartEvent
  | ContentBlockStartEvent
  | ContentBlockDeltaEvent
  | ContentBlockStopEvent
  | MessageDeltaEvent
  | MessageStopEvent
  | PingEvent
  | ErrorEvent
  | UnknownStreamEvent;

/** The event types of {@link ModelStreamEvent} this version knows. */
export type KnownStreamEventType = Exclude<ModelStreamEvent, UnknownStreamEvent>["type"];
