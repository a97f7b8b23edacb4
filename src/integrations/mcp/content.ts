/**
 * Converting tool results between MCP and the Messages API: what an MCP server returns becomes a
 * {@link ToolOutput} for the loop, and what our tools return becomes an MCP `CallToolResult`.
 * @module
 */
import type { CallToolResult, ContentBlock as McpContentBlock } from "@modelcontextprotocol/sdk/types.js";
import type { ImageBlock, TextBlock } from "../../messages/types";
import type { ToolOutput } from "../../tools/tool";
import { outcomeFromOutput } from "../../tools/tool-output";

/** The result of `tools/call` as the client returns it (current or pre-2024-11 shape). */
export type McpCallResult = {
  content?: unknown;
  isError?: unknown;
  structuredContent?: unknown;
  toolResult?: unknown;
};

/** The image types the Messages API accepts in an image block; others would fail every later request. */
const API_IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/** Binary payloads longer than this are left out of the JSON text a non-text block becomes. */
const MAX_INLINE_BINARY_CHARS = 256;

/**
 * Converts an MCP tool result to a {@link ToolOutput}: text stays text, JPEG, PNG, GIF and WebP
 * images become base64 image blocks, anything else (resources, links, audio, other image types such
 * as SVG, which the Messages API refuses) becomes text holding the block as JSON
 * (with long binary payloads elided). `isError: true` is kept, and an error's text goes through
 * `redactError` (a failing server often quotes its own credentials: "401 for token …").
 */
export function toolOutputFromMcpResult(
  result: McpCallResult,
  redactError: (text: string) => string = (text) => text,
): ToolOutput {
  const isError = result.isError === true;
  const blocks = contentBlocksOf(result).filter((block) => block.type !== "text" || block.text !== "");
  if (blocks.length === 0) {
    return isError
      ? { content: "The MCP tool reported an error without any content.", isError }
      : { content: "" };
  }
  if (!isError) return { content: blocks };
  const redacted = blocks.map((block) =>
    block.type === "text" ? { type: "text" as const, text: redactError(block.text) } : block,
  );
  return { content: redacted, isError };
}

function contentBlocksOf(result: McpCallResult): Array<TextBlock | ImageBlock> {
  if (Array.isArray(result.content) && result.content.length > 0)
    return result.content.map(blockFromMcpContent);
  if (result.structuredContent !== undefined) return [jsonText(result.structuredContent)];
  if (result.toolResult !== undefined) return [jsonText(result.toolResult)];
  return [];
}

function blockFromMcpContent(block: unknown): TextBlock | ImageBlock {
  const candidate = block as { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown };
  if (candidate?.type === "text" && typeof candidate.text === "string")
    return { type: "text", text: candidate.text };
  const mediaType = typeof candidate?.mimeType === "string" ? candidate.mimeType.toLowerCase() : undefined;
  if (
    candidate?.type === "image" &&
    typeof candidate.data === "string" &&
    mediaType !== undefined &&
    API_IMAGE_TYPES.has(mediaType)
  ) {
    return { type: "image", source: { type: "base64", media_type: mediaType, data: candidate.data } };
  }
  return jsonText(block);
}

function jsonText(value: unknown): TextBlock {
  return { type: "text", text: JSON.stringify(value, elideLongBinary) ?? String(value) };
}

function elideLongBinary(key: string, value: unknown): unknown {
  if (
    (key === "blob" || key === "data") &&
    typeof value === "string" &&
    value.length > MAX_INLINE_BINARY_CHARS
  ) {
    return `(${value.length} base64 characters omitted)`;
  }
  return value;
}

/**
 * Converts what one of our tools returned to an MCP `CallToolResult`. Text blocks stay text, base64
 * images become MCP images, URL images become resource links; any other value is JSON text, as in
 * the agent loop. `endTurn` has no MCP counterpart and is dropped. `toolName` names the tool in
 * the message of an error result that came without one.
 */
export function mcpResultFromToolOutput(output: ToolOutput, toolName = "tool"): CallToolResult {
  // Normalised as the agent loop records it: other values as JSON text, malformed content as an error.
  const { block } = outcomeFromOutput({ id: "", name: toolName }, output);
  const content: McpContentBlock[] =
    typeof block.content === "string"
      ? [{ type: "text", text: block.content }]
      : block.content.map(mcpContentFromBlock);
  return block.is_error === true ? { content, isError: true } : { content };
}

function mcpContentFromBlock(block: TextBlock | ImageBlock): McpContentBlock {
  if (block.type === "text") return { type: "text", text: block.text };
  if (block.source.type === "base64")
    return { type: "image", data: block.source.data, mimeType: block.source.media_type };
  return { type: "resource_link", uri: block.source.url, name: imageNameOf(block.source.url) };
}

function imageNameOf(url: string): string {
  try {
    const lastSegment = new URL(url).pathname.split("/").pop();
    return lastSegment ? decodeURIComponent(lastSegment) : "image";
  } catch {
    return "image";
  }
}
