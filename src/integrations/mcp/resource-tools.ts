/**
 * The optional pair of read-only tools that let the model browse a server's resources
 * (`resourceTools: true` on its config): `mcp__<server>__list_resources` and
 * `mcp__<server>__read_resource`. Off by default: resources are the application's to choose.
 * @module
 */
import type { ImageBlock, TextBlock } from "../../messages/types";
import type { ParseResult, Tool, ToolOutput } from "../../tools/tool";
import type { McpCatalog, McpResourceContents } from "./catalog-types";

/** The image types the Messages API accepts. */
const API_IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/** The bare names of the two tools (before the `mcp__<server>__` prefix). */
export const RESOURCE_TOOL_NAMES = ["list_resources", "read_resource"] as const;

/** The two tools of server `server`, named `names` (exposed), reading through `catalog`. */
export function resourceTools(server: string, names: readonly [string, string], catalog: McpCatalog): Tool[] {
  const list: Tool<Record<string, never>> = {
    name: names[0],
    description: `List the resources the MCP server "${server}" offers (URI, name, type, description).`,
    inputSchema: { type: "object", properties: {} },
    readOnly: true,
    parseInput: () => ({ ok: true, value: {} }),
    execute: async () =>
      failureOr(async () => {
        const listed = await catalog.listResources(server);
        const lines = listed.map((resource) =>
          [resource.uri, resource.name, resource.mimeType, resource.description].filter(Boolean).join(" | "),
        );
        return lines.length > 0 ? lines.join("\n") : "The server offers no resources.";
      }),
  };
  const read: Tool<{ uri: string }> = {
    name: names[1],
    description: `Read a resource of the MCP server "${server}" by its URI.`,
    inputSchema: { type: "object", properties: { uri: { type: "string" } }, required: ["uri"] },
    readOnly: true,
    parseInput: parseUri,
    execute: async ({ uri }) =>
      failureOr(async () => ({ content: (await catalog.readResource(server, uri)).map(blockOf) })),
  };
  return [list, read];
}

function parseUri(input: unknown): ParseResult<{ uri: string }> {
  const uri = (input as { uri?: unknown } | null)?.uri;
  return typeof uri === "string" && uri !== ""
    ? { ok: true, value: { uri } }
    : { ok: false, message: "- uri: expected a non-empty string" };
}

async function failureOr(work: () => Promise<ToolOutput>): Promise<ToolOutput> {
  try {
    return await work();
  } catch (error) {
    return { content: `Reading the MCP resources failed: ${(error as Error).message}`, isError: true };
  }
}

function blockOf(part: McpResourceContents): TextBlock | ImageBlock {
  if (typeof part.text === "string") return { type: "text", text: part.text === "" ? "(empty)" : part.text };
  const mediaType = part.mimeType?.toLowerCase();
  if (typeof part.blob === "string" && mediaType && API_IMAGE_TYPES.has(mediaType)) {
    return { type: "image", source: { type: "base64", media_type: mediaType, data: part.blob } };
  }
  return {
    type: "text",
    text: `(binary ${part.mimeType ?? "data"}, ${part.blob?.length ?? 0} base64 characters)`,
  };
}
