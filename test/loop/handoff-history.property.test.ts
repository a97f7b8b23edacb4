/**
 * Every `history` form of a handoff yields a request the Messages API accepts, over generated
 * histories with every kind of block (issue 41 item 5): checked with `isWellFormedHistory`, and
 * thinking blocks are never separated from the rest of their turn's thinking.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findHistoryProblem, isWellFormedHistory } from "../../src/compaction/well-formed";
import { InvalidOptionError } from "../../src/errors";
import {
  filterHandoffHistory,
  type HandoffHistoryForm,
  messagesBeforeHandoff,
} from "../../src/loop/handoff-history";
import { isApprovalMarker } from "../../src/messages/approvals";
import type { ContentBlock, ModelMessage } from "../../src/messages/types";
import { historyRefusal } from "../../src/testing/mock-history-check";
import { richHistory } from "./history-arbitraries";

const RUNS = 400;

/** Functions a user might write, and careless ones: cuts, picks, repeats, reorders, drops blocks. */
const userFunction: fc.Arbitrary<{ name: string; form: (messages: ModelMessage[]) => ModelMessage[] }> =
  fc.oneof(
    fc.nat(12).map((n) => ({ name: `last ${n}`, form: (messages: ModelMessage[]) => messages.slice(-n) })),
    fc.nat(12).map((n) => ({ name: `from ${n}`, form: (messages: ModelMessage[]) => messages.slice(n) })),
    fc.array(fc.boolean(), { minLength: 1 }).map((mask) => ({
      name: `pick ${mask.map(Number).join("")}`,
      form: (messages: ModelMessage[]) => messages.filter((_, index) => mask[index % mask.length]),
    })),
    fc.nat(12).map((n) => ({
      name: `repeat from ${n}`,
      form: (messages: ModelMessage[]) => [...messages, ...messages.slice(n)],
    })),
    fc.constant({ name: "reversed", form: (messages: ModelMessage[]) => messages.slice().reverse() }),
    fc.array(fc.boolean(), { minLength: 1 }).map((mask) => ({
      name: `drop blocks ${mask.map(Number).join("")}`,
      form: (messages: ModelMessage[]) => dropBlocks(messages, mask),
    })),
  );

/** Each message with some of its blocks left out (every block kept or not by the mask, in turn). */
function dropBlocks(messages: ModelMessage[], mask: boolean[]): ModelMessage[] {
  let at = 0;
  return messages.map((message) => {
    if (typeof message.content === "string") return message;
    const content = message.content.filter(() => mask[at++ % mask.length]);
    return { ...message, content } as ModelMessage;
  });
}

/** The assistant messages' thinking: each output message's thinking is all of one input message's, in order. */
function expectThinkingKeptWithItsTurn(
  input: readonly ModelMessage[],
  output: readonly ModelMessage[],
): void {
  const sources = new Map<ContentBlock, ContentBlock[]>();
  for (const message of input) {
    if (message.role !== "assistant") continue;
    const thinking = message.content.filter(isThinking);
    for (const block of thinking) sources.set(block, thinking);
  }
  for (const message of output) {
    if (message.role !== "assistant") continue;
    const thinking = message.content.filter(isThinking);
    if (thinking.length === 0) continue;
    expect(sources.get(thinking[0]!)).toEqual(thinking);
    // Signed blocks come from the input, untouched.
    for (const block of thinking) expect(sources.has(block)).toBe(true);
  }
}

function isThinking(block: ContentBlock): boolean {
  return block.type === "thinking" || block.type === "redacted_thinking";
}

/** The history the loop would send: a pause's marker is taken out before any request. */
function sendable(messages: readonly ModelMessage[]): ModelMessage[] {
  return messages.filter((message) => !isApprovalMarker(message));
}

describe("filterHandoffHistory over generated histories", () => {
  it("generates well-formed histories with every kind of block (the generator's own check)", () => {
    fc.assert(
      fc.property(richHistory, ({ messages, paused }) => {
        expect(findHistoryProblem(messages, { allowPause: paused })).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  });

  it('"full", "none" and "summary" yield well-formed requests made of whole input messages', () => {
    fc.assert(
      fc.property(richHistory, fc.constantFrom("full", "none", "summary"), ({ messages }, form) => {
        const input = sendable(messages);
        const sent = filterHandoffHistory(input, form as HandoffHistoryForm, {
          summary: "what was said before",
        });
        expect(findHistoryProblem(sent)).toBeUndefined();
        // Only the opening prompt may be rewritten: every other message is an input message, whole.
        for (const message of sent.slice(1)) expect(input).toContain(message);
        expectThinkingKeptWithItsTurn(input, sent);
        if (form === "full") expect(sent).toEqual(input);
      }),
      { numRuns: RUNS },
    );
  });

  it('"none" keeps everything from the transfer call on, and "summary" replaces exactly the messages before the handoff turn', () => {
    fc.assert(
      fc.property(richHistory, ({ messages }) => {
        const input = sendable(messages);
        const none = filterHandoffHistory(input, "none");
        const summary = filterHandoffHistory(input, "summary", { summary: "SUMMARY" });
        const transfer = lastTransferIndex(input);
        if (transfer !== undefined)
          expect(none.slice(-(input.length - transfer))).toEqual(input.slice(transfer));
        expect(summary.slice(1)).toEqual(none.slice(1));
        expect(summary[0]!.content[0]).toEqual({ type: "text", text: "SUMMARY" });
        const before = messagesBeforeHandoff(input);
        expect(input.slice(0, before.length)).toEqual(before);
        expect(none.length).toBeLessThanOrEqual(input.length - before.length);
      }),
      { numRuns: RUNS },
    );
  });

  it("a user function's output is repaired into a well-formed request, or refused when nothing is left to send", () => {
    fc.assert(
      fc.property(richHistory, userFunction, ({ messages }, { form }) => {
        const input = sendable(messages);
        let sent: ModelMessage[];
        try {
          sent = filterHandoffHistory(input, form, { handoff: "billing" });
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidOptionError);
          expect(String(error)).toMatch(/"billing" left no user message/);
          return;
        }
        expect(isWellFormedHistory(sent)).toBe(true);
        expect(historyRefusal(sent)).toBeUndefined();
        expect(sent.length).toBeGreaterThan(0);
        expectThinkingKeptWithItsTurn(input, sent);
      }),
      { numRuns: RUNS },
    );
  });

  it("a stored history with its pause marker (the loop takes it out first) still yields well-formed requests", () => {
    fc.assert(
      fc.property(richHistory, fc.constantFrom("full", "none", "summary"), ({ messages }, form) => {
        const sent = filterHandoffHistory(messages, form as HandoffHistoryForm, { summary: "s" });
        expect(findHistoryProblem(sent)).toBeUndefined();
        expect(sent.some(isApprovalMarker)).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });
});

function lastTransferIndex(messages: readonly ModelMessage[]): number | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (
      message.role === "assistant" &&
      message.content.some((block) => block.type === "tool_use" && block.name.startsWith("transfer_to_"))
    )
      return index;
  }
  return undefined;
}
