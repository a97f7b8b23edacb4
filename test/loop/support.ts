/**
 * Helpers shared by the loop, agent and tool tests: an in-memory history store, a well-formedness
 * check, and — from test/support — collecting what a query yields, deferred promises, a bounded
 * wait, timer tracking and short builders of content blocks.
 */
import { expect } from "vitest";
import { type HistoryStore, isWellFormedHistory, type ModelMessage } from "../../src/index";

export { resultText, toolResults, toolUse } from "../support/content";
export { aborted, type Deferred, deferred, settle, until, within } from "../support/promises";
export { collect, kinds, lastResult } from "../support/query-messages";
export { trackTimers } from "../support/timers";

/** Asserts a history is well-formed and ends with an answered turn (no trailing tool calls). */
export function expectWellFormed(history: readonly ModelMessage[]): void {
  expect(isWellFormedHistory(history)).toBe(true);
  const last = history[history.length - 1];
  if (last?.role === "assistant") expect(last.content.some((block) => block.type === "tool_use")).toBe(false);
}

/** An in-memory store whose content can be compared with the agent's history. */
export interface MemoryStore extends HistoryStore {
  /** What the store holds now. */
  readonly saved: ModelMessage[];
}

/** Creates an in-memory store that copies every message it receives. */
export function createMemoryStore(initial: ModelMessage[] = []): MemoryStore {
  let saved = structuredClone(initial);
  return {
    get saved() {
      return saved;
    },
    load: async () => structuredClone(saved),
    append: async (message) => {
      saved.push(structuredClone(message));
    },
    replace: async (messages) => {
      saved = structuredClone(messages);
    },
  };
}

/** A model with a built-in price, so no `unknown_pricing` notice joins the message sequence. */
export const MODEL = "claude-sonnet-4-6";
