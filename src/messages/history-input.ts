/**
 * Checking a history a caller hands over (`replaceHistory`): the loop, `getHistory()` and every
 * store read it again on each later query, so a shape they cannot read — `null`, a message without
 * a role, content that is neither text nor blocks, a value JSON cannot keep — is refused before it
 * replaces anything.
 * @module
 */
import { toPlainJson } from "../shared/plain-json";
import type { ModelMessage } from "./types";

/**
 * A plain copy of `messages` when it is an array of messages history can hold (role `user` or
 * `assistant`, content a string or an array of objects with a string `type`, plain JSON
 * throughout), else why not, naming the first message at fault.
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
  return { ok: true, messages: copy as ModelMessage[] };
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
