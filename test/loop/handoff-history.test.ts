import { describe, expect, it } from "vitest";
import { findHistoryProblem } from "../../src/compaction/well-formed";
import { InvalidOptionError } from "../../src/errors";
import { filterHandoffHistory, messagesBeforeHandoff } from "../../src/loop/handoff-history";
import { approvalMarker } from "../../src/messages/approvals";
import type { AssistantModelMessage, ContentBlock, ModelMessage } from "../../src/messages/types";
import { calls, prompt, reply, results } from "../compaction/history-fixtures";

const thinking: ContentBlock = { type: "thinking", thinking: "billing, clearly", signature: "SIG-1" };

function transfer(id: string, agent = "billing"): AssistantModelMessage {
  return {
    role: "assistant",
    content: [
      thinking,
      { type: "text", text: "Let me pass you on." },
      { type: "tool_use", id, name: `transfer_to_${agent}`, input: { reason: "a refund" } },
    ],
  };
}

/** Two turns with the triage agent, then a turn in which it looks something up and hands over. */
const conversation: ModelMessage[] = [
  prompt("hello"),
  reply("hi, how can I help?"),
  prompt("I was charged twice"),
  calls("t1"),
  results("t1"),
  transfer("t2"),
  results("t2"),
  reply("I am the billing agent: I see both charges."),
  prompt("please refund one"),
];

describe("filterHandoffHistory", () => {
  it('"full" sends the conversation as it is (the same message objects)', () => {
    const sent = filterHandoffHistory(conversation, "full");
    expect(sent).toEqual(conversation);
    for (const [index, message] of sent.entries()) expect(message).toBe(conversation[index]);
  });

  it('"none" keeps the handoff turn\'s prompt, the transfer call with its thinking, and everything after it', () => {
    const sent = filterHandoffHistory(conversation, "none");
    expect(sent).toEqual([conversation[2], ...conversation.slice(5)]);
    expect(findHistoryProblem(sent)).toBeUndefined();
    // The transfer's message is sent whole: its thinking keeps its signature and its place.
    expect(sent[1]).toBe(conversation[5]);
  });

  it('"summary" puts the summary before that prompt, and summarises exactly what "none" leaves out', () => {
    expect(messagesBeforeHandoff(conversation)).toEqual(conversation.slice(0, 2));
    const sent = filterHandoffHistory(conversation, "summary", { summary: "The customer greeted us." });
    expect(sent[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "The customer greeted us." },
        { type: "text", text: "I was charged twice" },
      ],
    });
    expect(sent.slice(1)).toEqual(conversation.slice(5));
    expect(findHistoryProblem(sent)).toBeUndefined();
    // Without a summary text it is "none".
    expect(filterHandoffHistory(conversation, "summary", { summary: " " })).toEqual(
      filterHandoffHistory(conversation, "none"),
    );
  });

  it("finds the transfer by id when told, else the last transfer_to_ call; without one, starts at the last prompt", () => {
    const twice = [
      ...conversation,
      reply("done"),
      prompt("now my address"),
      transfer("t3", "accounts"),
      results("t3"),
    ];
    expect(filterHandoffHistory(twice, "none")[0]).toEqual(prompt("now my address"));
    expect(filterHandoffHistory(twice, "none", { transferCallId: "t2" })[0]).toEqual(
      prompt("I was charged twice"),
    );
    const noTransfer = [prompt("a"), reply("b"), prompt("c"), calls("t9"), results("t9")];
    expect(filterHandoffHistory(noTransfer, "none")).toEqual(noTransfer.slice(2));
    expect(messagesBeforeHandoff(noTransfer)).toEqual(noTransfer.slice(0, 2));
    // Nothing before the handoff's prompt, or no prompt at all: nothing to summarise.
    expect(messagesBeforeHandoff(conversation.slice(2))).toEqual([]);
    expect(messagesBeforeHandoff([])).toEqual([]);
  });

  it("takes tool results out of the prompt it keeps (their calls are not sent)", () => {
    const answeredAndAsked: ModelMessage = {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: "x" },
        { type: "text", text: "and also: refund me" },
      ],
    };
    const history = [prompt("go"), calls("t1"), answeredAndAsked, transfer("t2"), results("t2")];
    const sent = filterHandoffHistory(history, "none");
    expect(sent[0]).toEqual({ role: "user", content: [{ type: "text", text: "and also: refund me" }] });
    expect(findHistoryProblem(sent)).toBeUndefined();
  });

  it("repairs a function's output that cuts a tool call from its result, rather than refusing it", () => {
    // Dropping a result message leaves its call dangling: the call goes, the rest stays.
    const withoutFirstResults = (messages: ModelMessage[]) =>
      messages.filter((message) => message !== conversation[4]);
    const sent = filterHandoffHistory(conversation, withoutFirstResults);
    expect(findHistoryProblem(sent)).toBeUndefined();
    expect(sent).toEqual([...conversation.slice(0, 3), ...conversation.slice(5)]);
    // The last N messages: what opens with results or an assistant message goes, up to a prompt.
    const lastFive = filterHandoffHistory(conversation, (messages) => messages.slice(-5));
    expect(lastFive).toEqual([prompt("please refund one")]);
    const lastSeven = filterHandoffHistory(conversation, (messages) => messages.slice(-7));
    expect(lastSeven).toEqual(conversation.slice(2));
  });

  it("drops pause markers and repeated calls a function put in", () => {
    const marker = approvalMarker([{ tool_use_id: "t1", name: "read_file", input: {} }]);
    const sent = filterHandoffHistory(conversation, (messages) => [
      ...messages.slice(0, 4),
      marker,
      ...messages.slice(3),
    ]);
    expect(findHistoryProblem(sent)).toBeUndefined();
    expect(sent.filter((message) => message === marker)).toHaveLength(0);
  });

  it("drops all of a message's thinking when a function keeps only part of it or edits it", () => {
    const twoThoughts: AssistantModelMessage = {
      role: "assistant",
      content: [thinking, { type: "redacted_thinking", data: "R-1" }, { type: "text", text: "ok" }],
    };
    const history = [prompt("go"), twoThoughts, prompt("next")];
    const partial = filterHandoffHistory(history, (messages) =>
      messages.map((message) =>
        message === twoThoughts ? { ...message, content: message.content.slice(1) } : message,
      ),
    );
    expect(partial[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "ok" }] });
    const edited = filterHandoffHistory(history, (messages) =>
      messages.map((message) =>
        message === twoThoughts
          ? {
              ...twoThoughts,
              content: [{ ...thinking, thinking: "forged" }, ...twoThoughts.content.slice(1)],
            }
          : message,
      ),
    );
    expect(edited[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "ok" }] });
    // Whole, it stays.
    expect(filterHandoffHistory(history, (messages) => messages.slice())[1]).toBe(twoThoughts);
  });

  it("throws InvalidOptionError naming the handoff when a function returns no messages or not messages", () => {
    const options = { handoff: "billing" };
    expect(() => filterHandoffHistory(conversation, () => [], options)).toThrow(InvalidOptionError);
    expect(() => filterHandoffHistory(conversation, () => [], options)).toThrow(
      /"billing" left no user message/,
    );
    expect(() => filterHandoffHistory(conversation, () => "hi" as never, options)).toThrow(
      /"billing"'s history function returned string/,
    );
    expect(() =>
      filterHandoffHistory(conversation, () => [{ role: "system", content: "x" }] as never, options),
    ).toThrow(/message 0 has no role user or assistant/);
    expect(() => filterHandoffHistory(conversation, "some" as never, options)).toThrow(
      /unknown history form "some"/,
    );
  });

  it("gives the function a copy of the list, and never changes the input", () => {
    const before = structuredClone(conversation);
    filterHandoffHistory(conversation, (messages) => {
      messages.splice(0, 2);
      return messages;
    });
    filterHandoffHistory(conversation, "summary", { summary: "s" });
    expect(conversation).toEqual(before);
  });
});
