/**
 * `--session <file>`: the conversation kept in a JSONL file, so running the command again with the
 * same file resumes it.
 * @module
 */
import { createJsonlHistoryStore, type JsonlHistoryStore } from "../history/jsonl";

/**
 * The store for a session file. Failures propagate (`failOnError`): a session that silently stops
 * being saved would lose the conversation the user asked to keep.
 */
export function createSessionStore(file: string): JsonlHistoryStore {
  return createJsonlHistoryStore({ path: file, failOnError: true });
}

/** The notice shown when a session resumes, or `undefined` for a new one. */
export function resumeNotice(file: string, messageCount: number): string | undefined {
  if (messageCount === 0) return undefined;
  return `↺ resuming ${file} (${messageCount} ${messageCount === 1 ? "message" : "messages"})`;
}
