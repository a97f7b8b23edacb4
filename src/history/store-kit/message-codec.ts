/**
 * How durable stores turn history messages into text and back: one JSON document per message.
 * @module
 */
import type { ModelMessage } from "../../messages/types";

/**
 * Serializes one message to a single line of JSON (JSON escapes every newline inside strings).
 * Throws a `TypeError` for values JSON cannot hold (a `BigInt`, a cycle, a message that is not an
 * object), before anything is written.
 */
export function serializeMessage(message: ModelMessage): string {
  if (typeof message !== "object" || message === null) {
    throw new TypeError(
      `A history message must be an object, got ${message === null ? "null" : typeof message}.`,
    );
  }
  const text = JSON.stringify(message);
  if (typeof text !== "string") throw new TypeError("The history message could not be serialized to JSON.");
  return text;
}

/** Parses a stored message; returns `undefined` for text that is not JSON or not a message. */
export function parseStoredMessage(text: string): ModelMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isModelMessage(value) ? value : undefined;
}

/** Whether a value has the shape of a history message (role and content). */
export function isModelMessage(value: unknown): value is ModelMessage {
  if (typeof value !== "object" || value === null) return false;
  const { role, content } = value as { role?: unknown; content?: unknown };
  if (role === "user") return typeof content === "string" || Array.isArray(content);
  return role === "assistant" && Array.isArray(content);
}

/** Joins serialized messages into one JSON array text, for stores that insert a batch in one statement. */
export function toJsonArrayText(serializedMessages: readonly string[]): string {
  return `[${serializedMessages.join(",")}]`;
}
