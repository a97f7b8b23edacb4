/**
 * `--json`: every SDK message as one line of JSON (NDJSON), for scripts and pipes. Errors are
 * written as `{ name, message, … }` with their plain fields; secrets never appear.
 * @module
 */
import type { SDKMessage } from "../messages/sdk-messages";
import type { Redactor } from "./redact";
import type { OutputStream } from "./terminal";

/** Writes messages as NDJSON. */
export interface JsonLineWriter {
  write(message: SDKMessage | Record<string, unknown>): void;
}

/** A writer of one JSON line per message on `stream`, with secrets redacted. */
export function createJsonLineWriter(stream: OutputStream, redact: Redactor): JsonLineWriter {
  return {
    write(message) {
      stream.write(`${redact(JSON.stringify(message, replaceErrors))}\n`);
    },
  };
}

/** JSON.stringify replacer: an Error becomes its name, message and primitive own fields. */
function replaceErrors(_key: string, value: unknown): unknown {
  return value instanceof Error ? serializeError(value) : value;
}

/**
 * An error as plain data: `name`, `message`, and its own primitive fields (`status`, `code`,
 * `requestId` …). Nested objects (causes, headers, responses) are left out.
 */
export function serializeError(error: Error): Record<string, unknown> {
  const data: Record<string, unknown> = { name: error.name, message: error.message };
  for (const [key, value] of Object.entries(error)) {
    if (key === "name" || key === "message" || key === "stack") continue;
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) data[key] = value;
  }
  return data;
}
