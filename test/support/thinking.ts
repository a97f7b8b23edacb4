/**
 * Responses with extended thinking for the mock server, and the checks that thinking went back
 * byte for byte: the tests of thinking round trips (tool turns, stores, replaceHistory, compaction).
 */
import { expect } from "vitest";
import type { ContentBlock, ModelMessage } from "../../src/index";

/** Thinking on, with a budget that fits the agent's `maxTokens` of {@link THINKING_MAX_TOKENS}. */
export const THINKING = { type: "enabled", budgetTokens: 2048 } as const;
/** The output budget of the agents of these tests. */
export const THINKING_MAX_TOKENS = 4096;

/** A thinking block with a signature unique to `label` (with characters JSON escapes). */
export function thinking(label: string): ContentBlock {
  return {
    type: "thinking",
    thinking: `Thinking about ${label}: "quotes", a\\backslash, ünïcödé, a newline\nand emoji 🌦.`,
    signature: `sig-${label}-EqQBCkgIARABGAIiQL+/=`,
  };
}

/** A redacted thinking block, opaque data unique to `label`. */
export function redacted(label: string): ContentBlock {
  return { type: "redacted_thinking", data: `EmwKAhgBEgy3va-${label}-opaque+/==` };
}

/** The thinking and redacted-thinking blocks of a content array, in order. */
export function thinkingBlocks(content: ModelMessage["content"]): ContentBlock[] {
  if (typeof content === "string") return [];
  return content.filter((block) => block.type === "thinking" || block.type === "redacted_thinking");
}

/** `content` as sent on the wire, without the cache markers the client added. */
export function withoutMarkers(content: unknown): unknown {
  return JSON.parse(JSON.stringify(content), (key, value) => (key === "cache_control" ? undefined : value));
}

/**
 * Asserts that every assistant message of `history` holding thinking came back in `sent` (the
 * messages of a request body) at the same place with the same blocks, byte for byte.
 */
export function expectThinkingSentBack(history: readonly ModelMessage[], sent: unknown[]): void {
  let compared = 0;
  history.forEach((message, index) => {
    if (message.role !== "assistant" || thinkingBlocks(message.content).length === 0) return;
    const wire = withoutMarkers((sent[index] as { content: unknown }).content) as ContentBlock[];
    expect(JSON.stringify(wire.filter((block) => block.type.endsWith("thinking")))).toBe(
      JSON.stringify(thinkingBlocks(message.content)),
    );
    compared++;
  });
  expect(compared).toBeGreaterThan(0);
}
