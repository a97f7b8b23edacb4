/** Readers of what a query yields: collecting its messages, its result, a short name for each. */
import { expect } from "vitest";
import type { SDKMessage, SDKResultMessage } from "../../src/index";

/** Pulls every message a query yields. */
export async function collect<T>(messages: AsyncIterable<SDKMessage<T>>): Promise<SDKMessage<T>[]> {
  const collected: SDKMessage<T>[] = [];
  for await (const message of messages) collected.push(message);
  return collected;
}

/** The result message, asserting it is the last one and the only one. */
export function lastResult<T>(messages: SDKMessage<T>[]): SDKResultMessage<T> {
  const last = resultOf(messages);
  expect(messages.filter((message) => message.type === "result")).toHaveLength(1);
  return last;
}

/** The result message, which must be the last one yielded (see {@link lastResult} to check it is the only one). */
export function resultOf<T>(messages: SDKMessage<T>[]): SDKResultMessage<T> {
  const last = messages[messages.length - 1];
  if (last?.type !== "result") throw new Error("the query did not end with a result message");
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
