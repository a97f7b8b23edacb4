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
 * images become base64 image blocks, an embedded text resource becomes its text (an image one an
 * image block) and a resource link a line naming it, as the model reads them; anything else
 * (audio, other image types such as SVG, which the Messages API refuses, binary resources) becomes
 * text holding the block as JSON (with long binary payloads elided). `isError: true` is kept, and
 * an error's text goes through `redactError` (a failing server often quotes its own credentials:
 * "401 for token …"); every text goes through `redactText` (secrets the client learned, such as
 * OAuth tokens, which no server should echo to the model).
 */
export function toolOutputFromMcpResult(
  result: McpCallResult,
  redactError: (text: string) => string = (text) => text,
  redactText: (text: string) => string = (text) => text,
): ToolOutput {
  const isError = result.isError === true;
  const blocks = contentBlocksOf(result).filter((block) => block.type !== "text" || block.text !== "");
  if (blocks.length === 0) {
    return isError
      ? { content: "The MCP tool reported an error without any content.", isError }
      : { content: "" };
  }
  const redact = isError ? (text: string) => redactError(redactText(text)) : redactText;
  const redacted = blocks.map((block) =>
    block.type === "text" ? { type: "text" as const, text: redact(block.text) } : block,
  );
  return isError ? { content: redacted, isError } : { content: redacted };
}

function contentBlocksOf(result: McpCallResult): Array<TextBlock | ImageBlock> {
  if (Array.isArray(result.content) && result.content.length > 0)
    return result.content.map(blockFromMcpContent);
  if (result.structuredContent !== undefined) return [jsonText(result.structuredContent)];
  if (result.toolResult !== undefined) return [jsonText(result.toolResult)];
  return [];
}

function blockFromMcpContent(block: unknown): TextBlock | ImageBlock {
  const candidate = block as {
    type?: unknown;
    text?: unknown;
    data?: unknown;
    mimeType?: unknown;
    resource?: unknown;
  };
  if (candidate?.type === "text" && typeof candidate.text === "string")
    return { type: "text", text: candidate.text };
  if (candidate?.type === "image" && typeof candidate.data === "string") {
    const image = imageBlock(candidate.mimeType, candidate.data);
    if (image) return image;
  }
  if (candidate?.type === "resource_link") return resourceLinkText(block as Record<string, unknown>);
  if (
    candidate?.type === "resource" &&
    typeof candidate.resource === "object" &&
    candidate.resource !== null
  ) {
    const embedded = embeddedResourceBlock(candidate.resource as Record<string, unknown>);
    if (embedded) return embedded;
  }
  return jsonText(block);
}

function imageBlock(mimeType: unknown, data: string): ImageBlock | undefined {
  const mediaType = typeof mimeType === "string" ? mimeType.toLowerCase() : undefined;
  if (mediaType === undefined || !API_IMAGE_TYPES.has(mediaType)) return undefined;
  return { type: "image", source: { type: "base64", media_type: mediaType, data } };
}

/** A link the model can ask about (with the resource tools, or by naming it): one line of text. */
function resourceLinkText(link: Record<string, unknown>): TextBlock {
  const parts = [`Resource link: ${String(link.uri)}`];
  if (typeof link.name === "string") parts.push(`name: ${link.name}`);
  if (typeof link.mimeType === "string") parts.push(`type: ${link.mimeType}`);
  if (typeof link.description === "string") parts.push(`description: ${link.description}`);
  return { type: "text", text: parts.join("; ") };
}

/** An embedded text resource as its text, an image one as an image; `undefined` for other binaries. */
function embeddedResourceBlock(resource: Record<string, unknown>): TextBlock | ImageBlock | undefined {
  if (typeof resource.text === "string") {
    return { type: "text", text: `Resource ${String(resource.uri)}:\n${resource.text}` };
  }
  if (typeof resource.blob === "string") return imageBlock(resource.mimeType, resource.blob);
  return undefined;
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
