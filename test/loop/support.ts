/**
 * Helpers shared by the loop, agent and tool tests: collecting what a query yields, an in-memory
 * history store, deferred promises, a bounded wait, and short builders of content blocks.
 */
import { expect } from "vitest";
import {
  type HistoryStore,
  isWellFormedHistory,
  type ModelMessage,
  type SDKMessage,
  type SDKResultMessage,
  type ToolResultBlock,
  type ToolUseBlock,
} from "../../src/index";

/** Pulls every message a query yields. */
export async function collect<T>(messages: AsyncIterable<SDKMessage<T>>): Promise<SDKMessage<T>[]> {
  const collected: SDKMessage<T>[] = [];
  for await (const message of messages) collected.push(message);
  return collected;
}

/** The result message, asserting it is the last one and the only one. */
export function lastResult<T>(messages: SDKMessage<T>[]): SDKResultMessage<T> {
  const last = messages[messages.length - 1];
  if (last?.type !== "result") throw new Error("the query did not end with a result message");
  expect(messages.filter((message) => message.type === "result")).toHaveLength(1);
  return last;
}

/** A short name for each yielded message: `system:init`, `assistant`, `user`, `result:success` … */
export function kinds<T>(messages: SDKMessage<T>[]): string[] {
  return messages.map((message) => {
    if (message.type === "system") return `system:${message.subtype}`;
    if (message.type === "result") return `result:${message.subtype}`;
    return message.type;
  });
}

/** A tool_use block. */
export function toolUse(id: string, name: string, input: unknown = {}): ToolUseBlock {
  return { type: "tool_use", id, name, input };
}

/** Every tool_result block of a history, in order. */
export function toolResults(history: readonly ModelMessage[]): ToolResultBlock[] {
  const results: ToolResultBlock[] = [];
  for (const message of history) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    for (const block of message.content) if (block.type === "tool_result") results.push(block);
  }
  return results;
}

/** Text of a tool result's content. */
export function resultText(block: ToolResultBlock): string {
  return typeof block.content === "string"
    ? block.content
    : block.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

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

/** A promise with its resolve and reject functions exposed. */
export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

/** Creates a {@link Deferred}. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((settle, fail) => {
    resolve = settle;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** Resolves once `signal` aborts. */
export function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/** Lets pending promise callbacks and timers of zero delay run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A model with a built-in price, so no `unknown_pricing` notice joins the message sequence. */
export const MODEL = "claude-sonnet-4-6";

/** `promise`, or "still pending" when it has not settled within `ms` (a liveness bound for hang tests). */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | "still pending"> {
  return Promise.race([
    promise,
    new Promise<"still pending">((resolve) => setTimeout(() => resolve("still pending"), ms)),
  ]);
}
