/**
 * Checking a history a caller hands over (`replaceHistory`): the loop, `getHistory()` and every
 * store read it again on each later query, so a shape they cannot read — `null`, a message without
 * a role, content that is neither text nor blocks, a value JSON cannot keep, two `tool_use`
 * blocks with the same id (the next request would be refused by the API) — is refused before it
 * replaces anything.
 * @module
 */
import { toPlainJson } from "../shared/plain-json";
import type { ModelMessage } from "./types";

/**
 * A plain copy of `messages` when it is an array of messages history can hold (role `user` or
 * `assistant`, content a string or an array of objects with a string `type`, plain JSON
 * throughout, every `tool_use` id once), else why not, naming the first message at fault.
 */
export function checkHistoryInput(
  messages: unknown,
): { ok: true; messages: ModelMessage[] } | { ok: false; problem: string } {
  if (!Array.isArray(messages)) {
    return {
      ok: false,
      problem: `takes an array of messages, got ${messages === null ? "null" : typeof messages}`,
    };
  }
  const plain = toPlainJson(messages, "messages");
  if (!plain.ok) return { ok: false, problem: `cannot keep the messages as JSON: ${plain.problem}` };
  const copy = plain.value as unknown[];
  for (const [index, message] of copy.entries()) {
    const problem = messageProblem(message);
    if (problem !== undefined) return { ok: false, problem: `messages[${index}] ${problem}` };
  }
  const repeated = repeatedToolUseId(copy as ModelMessage[]);
  if (repeated !== undefined) return { ok: false, problem: repeated };
  return { ok: true, messages: copy as ModelMessage[] };
}

/** Where a `tool_use` id appears a second time, said as a problem; undefined when every id is unique. */
function repeatedToolUseId(messages: readonly ModelMessage[]): string | undefined {
  const seen = new Map<unknown, string>();
  for (const [index, message] of messages.entries()) {
    if (typeof message.content === "string") continue;
    for (const [position, block] of message.content.entries()) {
      if (block.type !== "tool_use") continue;
      const at = `messages[${index}].content[${position}]`;
      const first = seen.get(block.id);
      if (first !== undefined) {
        return `${at} is a tool_use with the id ${JSON.stringify(block.id)}, which ${first} has already: each tool_use id must be unique in a conversation (the API refuses a request that repeats one)`;
      }
      seen.set(block.id, at);
    }
  }
  return undefined;
}

function messageProblem(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return `is ${message === null ? "null" : Array.isArray(message) ? "an array" : `a ${typeof message}`}, not a message`;
  }
  const { role, content } = message as { role?: unknown; content?: unknown };
  if (role !== "user" && role !== "assistant")
    return `has the role ${JSON.stringify(role) ?? "undefined"}, not "user" or "assistant"`;
  if (typeof content === "string") return undefined;
  if (!Array.isArray(content)) return "has content that is neither a string nor an array of content blocks";
  for (const [index, block] of content.entries()) {
    if (
      typeof block !== "object" ||
      block === null ||
      typeof (block as { type?: unknown }).type !== "string"
    ) {
      return `has content[${index}], which is not a content block (an object with a type)`;
    }
  }
  return undefined;
}
