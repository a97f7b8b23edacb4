/**
 * The summarising request of compaction and the history rebuilt from its answer.
 *
 * The messages to summarise are rendered as plain text inside one user message, followed by the
 * compaction prompt: such a request has no tool pairing or role alternation for a provider to
 * reject, and it needs no tool definitions.
 * @module
 */
import { AgentLatticeError } from "../errors";
import type {
  AssistantModelMessage,
  ContentBlock,
  ImageBlock,
  ModelMessage,
  TextBlock,
  UserModelMessage,
} from "../messages/types";
import { wrapSummary } from "./prompt";
import {
  capForBudget,
  DEFAULT_SUMMARY_INPUT_MAX_CHARS,
  fitWithin,
  omissionMarker,
  truncateMiddle,
} from "./truncate";

/** Options of {@link renderTranscript}. */
export interface TranscriptOptions {
  /**
   * The longest transcript, in characters. Beyond it, the longest texts, tool inputs and tool
   * results are shortened in the middle to a common length, so shorter ones such as the user's
   * requests stay whole; when that is not enough (thousands of messages), the middle of the
   * transcript is left out as well, keeping its beginning and its end.
   * @default DEFAULT_SUMMARY_INPUT_MAX_CHARS (300000)
   */
  maxChars?: number;
}

/** Bodies this short are never shortened; a transcript that is still too long loses its middle instead. */
const MINIMUM_BODY_CHARS = 500;

/** A labelled piece of a rendered message; only `body` is ever shortened. */
type TranscriptPiece = { label?: string; body: string };

/** A message about to be rendered. */
type TranscriptEntry = { role: ModelMessage["role"]; pieces: TranscriptPiece[] };

/**
 * Renders `messages` as plain text for the model that summarises them: each message under a
 * `[user]` or `[assistant]` header, text as is, tool calls with their name, id and input as JSON,
 * tool results with the name of the tool that produced them and an error marker, `[image]` for
 * images. Thinking is left out (its signatures are meaningless to a reader).
 */
export function renderTranscript(messages: readonly ModelMessage[], options: TranscriptOptions = {}): string {
  const maxChars = options.maxChars ?? DEFAULT_SUMMARY_INPUT_MAX_CHARS;
  const toolNames = toolNamesById(messages);
  const entries = messages.map((message) => ({ role: message.role, pieces: piecesOf(message, toolNames) }));
  const whole = renderEntries(entries, Number.POSITIVE_INFINITY);
  if (whole.length <= maxChars) return whole;
  return fitWithin(renderEntries(entries, bodyCap(entries, whole.length, maxChars)), maxChars);
}

/**
 * The length every body is shortened to so that a transcript whose full rendering has
 * `renderedLength` characters fits `maxChars`, omission markers included — but never below a floor
 * under which short texts such as the task would be wiped out.
 */
function bodyCap(entries: readonly TranscriptEntry[], renderedLength: number, maxChars: number): number {
  const bodyLengths = entries.flatMap((entry) => entry.pieces.map((piece) => piece.body.length));
  const overhead = renderedLength - bodyLengths.reduce((sum, length) => sum + length, 0);
  const firstCap = capForBudget(bodyLengths, Math.max(0, maxChars - overhead));
  const markers = bodyLengths.filter((length) => length > firstCap).length;
  const markerRoom = markers * omissionMarker(renderedLength).length;
  const cap = capForBudget(bodyLengths, Math.max(0, maxChars - overhead - markerRoom));
  return Math.max(cap, Math.min(MINIMUM_BODY_CHARS, Math.floor(maxChars / 10)));
}

/**
 * The messages of the summarising request: one user message holding the transcript of `messages`
 * between `<conversation>` tags, then `prompt` verbatim as a text block of its own, then — when
 * given — `customInstructions` (from a `preCompact` hook, say) in a last block.
 */
export function buildCompactionRequestMessages(
  messages: readonly ModelMessage[],
  prompt: string,
  customInstructions?: string,
  options: TranscriptOptions = {},
): ModelMessage[] {
  const content: TextBlock[] = [
    { type: "text", text: `<conversation>\n${renderTranscript(messages, options)}\n</conversation>` },
    { type: "text", text: prompt },
  ];
  if (customInstructions !== undefined && customInstructions.trim() !== "") {
    content.push({ type: "text", text: `Additional instructions for this summary:\n${customInstructions}` });
  }
  return [{ role: "user", content }];
}

/**
 * The history after compaction: one user message holding `summary`, wrapped in the note that
 * compaction just happened ({@link wrapSummary}), followed by the `kept` messages themselves,
 * unchanged and by reference.
 */
export function rebuildHistory(summary: string, kept: readonly ModelMessage[]): ModelMessage[] {
  const summaryMessage: UserModelMessage = { role: "user", content: wrapSummary(summary) };
  return [summaryMessage, ...kept];
}

/**
 * The summary in the answer of the summarising request: its text blocks joined, trimmed.
 *
 * @throws AgentLatticeError when the answer holds no text, or when the model refused
 * (`stop_reason: "refusal"`: its text is no summary), so that a compaction never replaces history
 * with an empty summary or a refusal.
 */
export function summaryText(message: AssistantModelMessage): string {
  if (message.stop_reason === "refusal")
    throw new AgentLatticeError("the compaction model refused to write the summary (stop_reason refusal)");
  const text = message.content
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("\n")
    .trim();
  if (text === "") throw new AgentLatticeError("the compaction model returned no summary text");
  return text;
}

function toolNamesById(messages: readonly ModelMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) if (block.type === "tool_use") names.set(block.id, block.name);
  }
  return names;
}

function piecesOf(message: ModelMessage, toolNames: ReadonlyMap<string, string>): TranscriptPiece[] {
  if (typeof message.content === "string") return [{ body: message.content }];
  return message.content.flatMap((block) => pieceOf(block, toolNames));
}

function pieceOf(block: ContentBlock, toolNames: ReadonlyMap<string, string>): TranscriptPiece[] {
  switch (block.type) {
    case "text":
      return [{ body: block.text }];
    case "image":
      return [{ label: "[image]", body: "" }];
    case "tool_use":
      return [{ label: `[tool call ${block.name} id=${block.id}]`, body: inputAsJson(block.input) }];
    case "tool_result": {
      const name = toolNames.get(block.tool_use_id) ?? "an unknown tool";
      const marker = block.is_error === true ? ", error" : "";
      return [
        {
          label: `[tool result of ${name} id=${block.tool_use_id}${marker}]`,
          body: resultText(block.content),
        },
      ];
    }
    case "compaction":
      // The provider's summary of what came before it: it stands for that part of the conversation.
      return block.content ? [{ label: "[summary of the earlier conversation]", body: block.content }] : [];
    default:
      return []; // thinking and redacted thinking
  }
}

/** The text of a tool result's content, with `[image]` standing for each image. */
function resultText(content: string | ReadonlyArray<TextBlock | ImageBlock>): string {
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "[image]")).join("\n");
}

/** A tool input as JSON; inputs that JSON cannot express fall back to their string form. */
export function inputAsJson(input: unknown): string {
  try {
    return JSON.stringify(input) ?? String(input);
  } catch {
    return String(input);
  }
}

function renderEntries(entries: readonly TranscriptEntry[], cap: number): string {
  return entries.map((entry) => renderEntry(entry, cap)).join("\n\n");
}

function renderEntry(entry: TranscriptEntry, cap: number): string {
  const lines = [`[${entry.role}]`];
  for (const piece of entry.pieces) {
    if (piece.label !== undefined) lines.push(piece.label);
    if (piece.body !== "") lines.push(truncateMiddle(piece.body, cap));
  }
  if (lines.length === 1) lines.push("(no visible content)");
  return lines.join("\n");
}
