/**
 * What the mock Messages API server says for a scripted response: the JSON message body, or the
 * server-sent events that stream it, split the way the real API splits them.
 * @module
 */
import type { ContentBlock, StopReason, Usage } from "../messages/types";
import type { ServerSentEvent } from "./sse";

/** A Messages API response body (`type: "message"`). */
export interface MockMessageBody {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: ContentBlock[];
  stop_reason: StopReason | null;
  stop_sequence: string | null;
  /** With `iterations` after a server compaction (streamed on `message_delta`). */
  usage: Usage & { iterations?: unknown[] };
  /** The edits context management applied to the request (streamed on `message_delta`). */
  context_management?: { applied_edits: unknown[] };
}

/** Inputs of {@link buildMessageBody}. */
export interface MessageBodyParts {
  content: ContentBlock[] | string;
  stopReason: StopReason | null | undefined;
  /** The stop sequence that ended the response (`stop_reason` then defaults to `stop_sequence`). */
  stopSequence?: string | null;
  usage: Usage | undefined;
  id: string;
  model: string;
  /** Size of the request body in characters, for the default input token count. */
  requestChars: number;
  /** The input buckets to report when `usage` is not given (instead of the `requestChars` estimate). */
  inputUsage?: Omit<Usage, "output_tokens">;
}

/**
 * Builds the response body. Defaults: `stop_reason` is `stop_sequence` when a stop sequence is
 * given, else `tool_use` when the content has a tool call, else `end_turn`; usage is `inputUsage`
 * (or four characters of the request per token) with four characters of content per output token.
 */
export function buildMessageBody(parts: MessageBodyParts): MockMessageBody {
  const content: ContentBlock[] =
    typeof parts.content === "string" ? [{ type: "text", text: parts.content }] : parts.content;
  const hasToolUse = content.some((block) => block.type === "tool_use");
  const stopSequence = parts.stopSequence ?? null;
  const defaultStop = stopSequence !== null ? "stop_sequence" : hasToolUse ? "tool_use" : "end_turn";
  return {
    id: parts.id,
    type: "message",
    role: "assistant",
    model: parts.model,
    content,
    stop_reason: parts.stopReason === undefined ? defaultStop : parts.stopReason,
    stop_sequence: stopSequence,
    usage: parts.usage ?? {
      ...(parts.inputUsage ?? { input_tokens: Math.max(1, Math.ceil(parts.requestChars / 4)) }),
      output_tokens: Math.max(1, Math.ceil(JSON.stringify(content).length / 4)),
    },
  };
}

/**
 * The content as the API would cut it at the first of `stopSequences` found in its text: the text
 * before the sequence, and no block after it. `undefined` when no sequence occurs.
 */
export function cutAtStopSequence(
  content: ContentBlock[],
  stopSequences: readonly string[],
): { content: ContentBlock[]; stopSequence: string } | undefined {
  for (const [index, block] of content.entries()) {
    if (block.type !== "text") continue;
    let first: { at: number; sequence: string } | undefined;
    for (const sequence of stopSequences) {
      const at = sequence ? block.text.indexOf(sequence) : -1;
      if (at >= 0 && (first === undefined || at < first.at)) first = { at, sequence };
    }
    if (!first) continue;
    const text = block.text.slice(0, first.at);
    const kept = content.slice(0, index);
    return { content: text ? [...kept, { ...block, text }] : kept, stopSequence: first.sequence };
  }
  return undefined;
}

/**
 * The events that stream `message`, in the API's order: `message_start` (usage with the input and
 * cache buckets, `output_tokens: 1`), `ping`, per block `content_block_start` / deltas /
 * `content_block_stop`, `message_delta` (stop reason and stop sequence, output tokens), `message_stop`.
 * A thinking block streams as `thinking_delta`s then one `signature_delta`; a redacted one arrives
 * whole in its `content_block_start`; a compaction block's summary and opaque part come in one
 * `compaction_delta`, and `usage.iterations` (a server compaction's) on `message_delta`. Text and
 * thinking arrive in several deltas; the input JSON of a tool call (`tool_use`, and a server or MCP
 * tool call: `server_tool_use`, `mcp_tool_use`) is cut at uneven character boundaries after a first
 * empty piece, as the API does.
 */
export function buildStreamEvents(message: MockMessageBody): ServerSentEvent[] {
  const { usage } = message;
  const startUsage: Record<string, number> = { input_tokens: usage.input_tokens, output_tokens: 1 };
  if (usage.cache_creation_input_tokens !== undefined)
    startUsage.cache_creation_input_tokens = usage.cache_creation_input_tokens;
  if (usage.cache_read_input_tokens !== undefined)
    startUsage.cache_read_input_tokens = usage.cache_read_input_tokens;
  const startUsageWithSplit = usage.cache_creation
    ? { ...startUsage, cache_creation: { ...usage.cache_creation } }
    : startUsage;
  const events: ServerSentEvent[] = [
    frame("message_start", {
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: startUsageWithSplit,
      },
    }),
    frame("ping", {}),
  ];
  message.content.forEach((block, index) => {
    events.push(frame("content_block_start", { index, content_block: emptyBlock(block) }));
    for (const delta of blockDeltas(block)) events.push(frame("content_block_delta", { index, delta }));
    events.push(frame("content_block_stop", { index }));
  });
  events.push(
    frame("message_delta", {
      delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence },
      usage: {
        output_tokens: usage.output_tokens,
        ...(usage.iterations && { iterations: usage.iterations }),
      },
      ...(message.context_management && { context_management: message.context_management }),
    }),
    frame("message_stop", {}),
  );
  return events;
}

function frame(event: string, payload: Record<string, unknown>): ServerSentEvent {
  return { event, data: { type: event, ...payload } };
}

/** The block as `content_block_start` announces it, before any delta. */
function emptyBlock(block: ContentBlock): ContentBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: "" };
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: {} };
    case "thinking":
      return { type: "thinking", thinking: "", signature: "" };
    case "compaction": // the summary and its opaque part follow in one compaction_delta
      return { ...block, content: null, encrypted_content: null };
    default:
      return hasStreamedInput(block) ? ({ ...block, input: {} } as unknown as ContentBlock) : block;
  }
}

/** Server and MCP tool calls: the API streams their input as `input_json_delta` pieces, like `tool_use`. */
function hasStreamedInput(block: ContentBlock): boolean {
  const { type, input } = block as { type: string; input?: unknown };
  return (
    (type === "server_tool_use" || type === "mcp_tool_use") && typeof input === "object" && input !== null
  );
}

function inputDeltas(input: unknown): Array<Record<string, unknown>> {
  return ["", ...splitUnevenly(JSON.stringify(input ?? {}))].map((partial_json) => ({
    type: "input_json_delta",
    partial_json,
  }));
}

function blockDeltas(block: ContentBlock): Array<Record<string, unknown>> {
  switch (block.type) {
    case "text":
      return splitEvenly(block.text, 3).map((text) => ({ type: "text_delta", text }));
    case "tool_use":
      return inputDeltas(block.input);
    case "thinking":
      return [
        ...splitEvenly(block.thinking, 3).map((thinking) => ({ type: "thinking_delta", thinking })),
        { type: "signature_delta", signature: block.signature },
      ];
    case "compaction":
      return [
        {
          type: "compaction_delta",
          content: block.content,
          encrypted_content: block.encrypted_content ?? null,
        },
      ];
    default:
      return hasStreamedInput(block) ? inputDeltas((block as { input?: unknown }).input) : [];
  }
}

/**
 * `text` in at most `pieces` consecutive parts of about equal length (none for empty text). A cut
 * never splits a surrogate pair: like the API's deltas, every part is well-formed text.
 */
export function splitEvenly(text: string, pieces: number): string[] {
  if (!text) return [];
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const parts: string[] = [];
  for (let start = 0; start < text.length; ) {
    const end = cutAt(text, start + size);
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}

/** Piece lengths cycled through when cutting tool input JSON: cuts land inside keys, strings and numbers. */
const UNEVEN_PIECE_LENGTHS = [1, 5, 2, 8, 3, 13];

/** `text` cut into consecutive pieces of uneven, deterministic lengths (never inside a surrogate pair). */
export function splitUnevenly(text: string): string[] {
  const parts: string[] = [];
  for (let start = 0, turn = 0; start < text.length; turn++) {
    const end = cutAt(text, start + UNEVEN_PIECE_LENGTHS[turn % UNEVEN_PIECE_LENGTHS.length]!);
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}

/** `position`, moved one code unit on when it falls between the two halves of a surrogate pair. */
function cutAt(text: string, position: number): number {
  if (position >= text.length) return text.length;
  const before = text.charCodeAt(position - 1);
  return before >= 0xd800 && before <= 0xdbff ? position + 1 : position;
}
