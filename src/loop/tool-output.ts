/**
 * Turning what a tool returned (or threw) into a tool_result block.
 * @module
 */
import type { ImageBlock, TextBlock, ToolResultBlock } from "../messages/types";
import { describeThrown } from "../shared/describe-thrown";
import type { ToolOutput } from "../tools/tool";

/** A tool result block plus the tool's request to end the turn. */
export interface ToolCallOutcome {
  block: ToolResultBlock;
  endTurn: boolean;
  /** The name of the error `execute` threw, when it threw one (recorded on the tool's span). */
  errorName?: string;
  /** An `endTurn` result's content as the tool returned it, when history holds its summary instead. */
  originalContent?: ToolResultBlock["content"];
}

/** Normalises a tool's return value; an output that throws when read becomes an error result. */
export function outcomeFromOutput(toolUseId: string, output: ToolOutput): ToolCallOutcome {
  try {
    return readOutput(toolUseId, output);
  } catch (error) {
    return errorOutcome(
      toolUseId,
      `The tool's output could not be read (${describeThrown(error)}), so its result was not recorded.`,
    );
  }
}

function readOutput(toolUseId: string, output: ToolOutput): ToolCallOutcome {
  if (typeof output === "string")
    return { block: { type: "tool_result", tool_use_id: toolUseId, content: output }, endTurn: false };
  if (output === null || typeof output !== "object" || !("content" in output)) {
    const text = output === undefined ? "" : serialised(output);
    if (text === undefined) return unserialisable(toolUseId, output);
    return { block: { type: "tool_result", tool_use_id: toolUseId, content: text }, endTurn: false };
  }
  const endTurn = output.endTurn === true;
  if (!isResultContent(output.content)) return { ...malformedContent(toolUseId, output.content), endTurn };
  const block: ToolResultBlock = { type: "tool_result", tool_use_id: toolUseId, content: output.content };
  if (output.isError) block.is_error = true;
  return { block, endTurn };
}

/**
 * Whether `content` is what a tool_result may hold: a string, or text and image blocks. Anything
 * else would make the provider refuse every later request of the conversation, stored history
 * included.
 */
function isResultContent(content: unknown): content is ToolResultBlock["content"] {
  if (typeof content === "string") return true;
  if (!Array.isArray(content)) return false;
  return content.every(
    (block) =>
      typeof block === "object" &&
      block !== null &&
      ((block.type === "text" && typeof block.text === "string") ||
        (block.type === "image" && typeof block.source === "object" && block.source !== null)),
  );
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
    block: { type: "tool_result", tool_use_id: toolUseId, content: message, is_error: true },
    endTurn: false,
  };
}

/** Plain text of a tool result's content (text blocks joined; images noted). */
export function toolResultText(content: string | Array<TextBlock | ImageBlock>): string {
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "[image]")).join("\n");
}
