/**
 * Names of MCP tools as the model sees them: `mcp__<server>__<tool>`, within the Messages API's
 * tool-name charset `[a-zA-Z0-9_-]{1,64}`, unique across every connected server.
 * @module
 */
import { createHash } from "node:crypto";

/** The longest tool name the Messages API accepts. */
export const MAX_TOOL_NAME_LENGTH = 64;

/** The longest server segment kept in a tool name, so that the tool's own name has room. */
const MAX_SERVER_SEGMENT_LENGTH = 24;

const HASH_LENGTH = 8;

/** Replaces every character outside `[a-zA-Z0-9_-]` with `_`; an empty name becomes `_`. */
export function sanitizeNamePart(name: string): string {
  const sanitized = name.replace(/[^a-zA-Z0-9_-]/g, "_");
  return sanitized === "" ? "_" : sanitized;
}

/**
 * The server segment of each server's tool names, in the order given: sanitised, with runs of `_`
 * collapsed and trimmed (so the `__` separators stay unambiguous and two servers can never produce
 * the same tool name), shortened to leave room for tool names, and made unique (a short hash of the
 * original name is appended when two servers would otherwise share a segment, or when a name had
 * to be shortened).
 */
export function serverNameSegments(serverNames: readonly string[]): string[] {
  const taken = new Set<string>();
  return serverNames.map((serverName) => {
    let segment = sanitizeNamePart(serverName).replace(/_+/g, "_").replace(/^_|_$/g, "") || "server";
    if (segment.length > MAX_SERVER_SEGMENT_LENGTH || taken.has(segment)) {
      segment = withHashSuffix(segment, serverName, MAX_SERVER_SEGMENT_LENGTH);
    }
    segment = uniqueName(segment, taken, MAX_SERVER_SEGMENT_LENGTH);
    taken.add(segment);
    return segment;
  });
}

/**
 * Names every tool of one server `mcp__<segment>__<tool>`, in the order given. A name that would be
 * too long, or that collides with an earlier one after sanitising, gets a short hash of the
 * original tool name in place of its tail.
 */
export function exposedToolNames(serverSegment: string, toolNames: readonly string[]): string[] {
  const taken = new Set<string>();
  return toolNames.map((toolName) => {
    let name = `mcp__${serverSegment}__${sanitizeNamePart(toolName)}`;
    if (name.length > MAX_TOOL_NAME_LENGTH || taken.has(name)) {
      name = withHashSuffix(name, `${serverSegment}\u0000${toolName}`, MAX_TOOL_NAME_LENGTH);
    }
    name = uniqueName(name, taken, MAX_TOOL_NAME_LENGTH);
    taken.add(name);
    return name;
  });
}

function withHashSuffix(name: string, original: string, maxLength: number): string {
  const hash = createHash("sha256").update(original).digest("hex").slice(0, HASH_LENGTH);
  return `${name.slice(0, maxLength - HASH_LENGTH - 1).replace(/_+$/, "")}_${hash}`;
}

/** Appends a counter in the (practically impossible) case that a hashed name still collides. */
function uniqueName(name: string, taken: ReadonlySet<string>, maxLength: number): string {
  let candidate = name;
  for (let counter = 2; taken.has(candidate); counter++) {
    const suffix = `_${counter}`;
    candidate = `${name.slice(0, maxLength - suffix.length).replace(/_+$/, "")}${suffix}`;
  }
  return candidate;
}
