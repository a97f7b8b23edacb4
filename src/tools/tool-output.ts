/**
 * Turning what a tool returned (or threw) into a tool_result block.
 * @module
 */
import { isBlankText } from "../messages/blank-text";
import type { ImageBlock, TextBlock, ToolResultBlock, ToolUseBlock } from "../messages/types";
import { describeThrown } from "../shared/describe-thrown";
import { toPlainJson, toWellFormedText } from "../shared/plain-json";
import type { ChildSuspension } from "./child-suspension";
import type { ToolOutput } from "./tool";

/** A call answered: its tool result block, plus the tool's request to end the turn. */
export interface ToolCallOutcome {
  kind: "result";
  block: ToolResultBlock;
  endTurn: boolean;
  /** The name of the error `execute` threw, when it threw one (recorded on the tool's span). */
  errorName?: string;
  /** An `endTurn` result's content as the tool returned it, when history holds its summary instead. */
  originalContent?: ToolResultBlock["content"];
  /** How long the call ran (execute, `postToolUse` hooks, summary) in ms; absent for a call that did not run. */
  durationMs?: number;
}

/** A subagent call whose child paused for approval: no result yet, the batch pauses with it. */
export interface SuspendedCallOutcome {
  kind: "suspended";
  suspension: ChildSuspension;
}

/** How one call of a batch ended: answered, or suspended inside its subagent's child. */
export type CallOutcome = ToolCallOutcome | SuspendedCallOutcome;

/**
 * Normalises a tool's return value into what the Messages API accepts: content that is neither a
 * string nor text/image blocks, or an output that throws when read, becomes an error result; blank
 * text blocks are dropped (the API refuses them), and an error result without content says so in
 * words (the API refuses an empty error result) — any of these, recorded once, would fail every
 * later request of the conversation.
 */
export function outcomeFromOutput(
  call: Pick<ToolUseBlock, "id" | "name">,
  output: ToolOutput,
): ToolCallOutcome {
  try {
    return readOutput(call, output);
  } catch (error) {
    return errorOutcome(
      call.id,
      `The tool's output could not be read (${describeThrown(error)}), so its result was not recorded.`,
    );
  }
}

function readOutput(call: Pick<ToolUseBlock, "id" | "name">, output: ToolOutput): ToolCallOutcome {
  const toolUseId = call.id;
  if (typeof output === "string") {
    // A lone surrogate (a string cut inside a character, say) becomes U+FFFD.
    const content = toWellFormedText(output);
    return {
      kind: "result",
      block: { type: "tool_result", tool_use_id: toolUseId, content },
      endTurn: false,
    };
  }
  if (output === null || typeof output !== "object" || !("content" in output)) {
    const text = output === undefined ? "" : serialised(output);
    if (text === undefined) return unserialisable(toolUseId, output);
    return {
      kind: "result",
      block: { type: "tool_result", tool_use_id: toolUseId, content: text },
      endTurn: false,
    };
  }
  const endTurn = output.endTurn === true;
  // A plain copy first: extra fields JSON cannot state (a function, a Symbol, a BigInt, a cycle, a
  // class instance, a getter) would fail every later copy, write or request; lone surrogates
  // become U+FFFD.
  const plain = toPlainJson(output.content, "content", "replace");
  if (!plain.ok) {
    return Array.isArray(output.content) || typeof output.content === "string"
      ? { ...unstorableContent(toolUseId, plain.problem), endTurn }
      : { ...malformedContent(toolUseId, output.content), endTurn };
  }
  let content = usableContent(plain.value);
  if (content === undefined) return { ...malformedContent(toolUseId, output.content), endTurn };
  if (output.isError && isEmptyContent(content))
    content = `The tool "${call.name}" reported an error without a message.`;
  const block: ToolResultBlock = { type: "tool_result", tool_use_id: toolUseId, content };
  if (output.isError) block.is_error = true;
  return { kind: "result", block, endTurn };
}

/** The error result of content a tool_result cannot hold: the query goes on, the model is told. */
function malformedContent(toolUseId: string, content: unknown): ToolCallOutcome {
  const found = Array.isArray(content)
    ? "an array holding other values"
    : content === null
      ? "null"
      : typeof content;
  return errorOutcome(
    toolUseId,
    `The tool returned content that is neither a string nor an array of text and image blocks (it was ${found}), so its result was not recorded.`,
  );
}

/** The error result of content blocks JSON cannot write: named, so the tool's author can fix it. */
function unstorableContent(toolUseId: string, problem: string): ToolCallOutcome {
  return errorOutcome(
    toolUseId,
    `The tool returned content that cannot be written as JSON (${problem}), so its result was not recorded.`,
  );
}

function isEmptyContent(content: ToolResultBlock["content"] | undefined): boolean {
  return typeof content === "string"
    ? content.trim() === ""
    : !Array.isArray(content) || content.length === 0;
}

/**
 * A tool output's content as history can hold it: a string, or text and image blocks — blank text
 * blocks left out, since the API refuses them. `undefined` for anything else: the API would refuse
 * it on this request and every later one.
 */
export function usableContent(content: unknown): ToolResultBlock["content"] | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content) || !content.every(isResultBlock)) return undefined;
  if (!content.some(isBlankText)) return content;
  const kept = content.filter((block) => !isBlankText(block));
  return kept.length > 0 ? kept : "";
}

function isResultBlock(block: unknown): block is TextBlock | ImageBlock {
  if (typeof block !== "object" || block === null) return false;
  const { type, text, source } = block as { type?: unknown; text?: unknown; source?: unknown };
  if (type === "text") return typeof text === "string";
  if (type !== "image" || typeof source !== "object" || source === null) return false;
  const image = source as { type?: unknown; data?: unknown; media_type?: unknown; url?: unknown };
  if (image.type === "base64") return typeof image.data === "string" && typeof image.media_type === "string";
  return image.type === "url" && typeof image.url === "string";
}

/** JSON text of a tool's non-string output (`""` for what JSON cannot state, e.g. a function); `undefined` when it throws. */
function serialised(output: unknown): string | undefined {
  try {
    return JSON.stringify(output) ?? "";
  } catch {
    return undefined; // a circular structure, a BigInt, a throwing toJSON
  }
}

/** The error result of an output JSON cannot serialise: the query goes on, the model is told. */
function unserialisable(toolUseId: string, output: unknown): ToolCallOutcome {
  let reason: string;
  try {
    JSON.stringify(output);
    reason = "unknown error";
  } catch (error) {
    reason = describeThrown(error);
  }
  return errorOutcome(
    toolUseId,
    `The tool returned a value that cannot be serialised as JSON (${reason}), so its result was not recorded.`,
  );
}

/** An error result with a message the model can act on. */
export function errorOutcome(toolUseId: string, message: string): ToolCallOutcome {
  return {
    kind: "result",
    block: { type: "tool_result", tool_use_id: toolUseId, content: message, is_error: true },
    endTurn: false,
  };
}

/** Plain text of a tool result's content (text blocks joined; images noted). */
export function toolResultText(content: string | Array<TextBlock | ImageBlock>): string {
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "[image]")).join("\n");
}
