/**
 * The mock server refuses a malformed history as the Messages API does (a 400
 * `invalid_request_error`, no scripted step used), and never refuses a well-formed one.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { findHistoryProblem } from "../../src/compaction/well-formed";
import { createAgent, createAnthropicClient, type ModelMessage } from "../../src/index";
import { isApprovalMarker } from "../../src/messages/approvals";
import type { ContentBlock } from "../../src/messages/types";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing";
import { historyRefusal } from "../../src/testing/mock-history-check";
import { calls, prompt, reply, results } from "../compaction/history-fixtures";
import { richHistory } from "../loop/history-arbitraries";
import { createMemoryStore, MODEL } from "../loop/support";

let server: MockAnthropicServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(messages: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${server!.url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "k" },
    body: JSON.stringify({ model: "claude-sonnet-4-6", max_tokens: 100, messages }),
  });
  return { status: response.status, json: await response.json() };
}

const assistant = (...content: ContentBlock[]): ModelMessage => ({ role: "assistant", content });
const text = (value: string): ContentBlock => ({ type: "text", text: value });
const search: ContentBlock = {
  type: "server_tool_use",
  id: "srv_1",
  name: "tool_search_tool_bm25",
  input: {},
};
const found: ContentBlock = {
  type: "tool_search_tool_result",
  tool_use_id: "srv_1",
  content: { type: "tool_search_tool_search_result", tool_references: [] },
};

const malformed: Array<[string, unknown, RegExp]> = [
  ["no messages", [], /at least one message/],
  ["a first message that is not the user's", [reply("hi")], /first message must use the "user" role/],
  [
    "a call without its result",
    [prompt("go"), calls("t1", "t2"), results("t1")],
    /messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: t2/,
  ],
  ["a call followed by a prompt", [prompt("go"), calls("t1"), prompt("well?")], /without `tool_result`.*t1/],
  [
    "an orphan result",
    [prompt("go"), reply("ok"), results("ghost")],
    /messages\.2\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: ghost/,
  ],
  [
    "a result answered twice",
    [prompt("go"), calls("t1"), results("t1", "t1")],
    /`tool_result` ids must be unique/,
  ],
  [
    "a repeated tool_use id",
    [prompt("go"), calls("t1"), results("t1"), calls("t1"), results("t1")],
    /messages\.3\.content\.0: `tool_use` ids must be unique/,
  ],
  [
    "text before the results",
    [
      prompt("go"),
      calls("t1"),
      { role: "user", content: [text("x"), ...(results("t1").content as ContentBlock[])] },
    ],
    /`tool_result` blocks must come first/,
  ],
  ["an empty message", [prompt("go"), assistant(), prompt("again")], /must have non-empty content/],
  ["a blank text block", [prompt("go"), assistant(text(" "))], /non-whitespace text/],
  [
    "thinking without its signature",
    [prompt("go"), assistant({ type: "thinking", thinking: "t" } as ContentBlock, text("k"))],
    /signature: Field required/,
  ],
  [
    "a tool call in a user message",
    [{ role: "user", content: calls("t1").content }],
    /only be in `assistant`/,
  ],
  [
    "a server-tool result before its call",
    [prompt("go"), assistant(found, search, text("k"))],
    /must follow/,
  ],
];

describe("the mock server refuses a malformed history", () => {
  it.each(malformed)(
    "%s: 400 invalid_request_error, no scripted step used",
    async (_name, messages, wording) => {
      server = await startMockAnthropicServer({ responses: [{ content: "never sent" }] });
      const { status, json } = await post(messages);
      expect(status).toBe(400);
      expect(json.type).toBe("error");
      expect(json.error.type).toBe("invalid_request_error");
      expect(json.error.message).toMatch(wording);
      expect(server.pending).toBe(1);
      // The SDK's own check agrees: each of these is malformed by findHistoryProblem too (an empty
      // history aside: a conversation may have none yet, a request may not).
      if ((messages as unknown[]).length > 0)
        expect(findHistoryProblem(messages as ModelMessage[])).toEqual(expect.any(String));
    },
  );

  it("accepts what the API accepts: a pause_turn continuation, consecutive user messages, a prefill", async () => {
    server = await startMockAnthropicServer({ handler: () => ({ content: "ok" }) });
    for (const messages of [
      [prompt("go"), assistant(search), assistant(found, text("found")), prompt("thanks")],
      [prompt("a"), prompt("b")],
      [prompt("go"), calls("t1"), results("t1"), assistant(text("The answer is"))],
    ]) {
      const { status } = await post(messages);
      expect(status).toBe(200);
    }
  });

  it("an agent whose stored history is malformed gets the 400, no answer: the store's history is not sent as if valid", async () => {
    server = await startMockAnthropicServer({ responses: [{ content: "never sent" }] });
    // A call whose result was lost mid-history (crash repair mends only the tail).
    const store = createMemoryStore([prompt("go"), calls("t1"), reply("hm")]);
    const agent = createAgent({
      model: MODEL,
      client: createAnthropicClient({ apiKey: "k", baseURL: server.url }),
      retry: { maxRetries: 0 },
      historyStore: store,
    });
    const result = await agent.prompt("next");
    expect(server.pending).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(result).toMatchObject({
      subtype: "error_during_execution",
      error: { name: "ProviderError", status: 400, errorType: "invalid_request_error", retryable: false },
    });
  });
});

describe("the mock's check and isWellFormedHistory", () => {
  const sendable = (messages: readonly ModelMessage[]) =>
    messages.filter((message) => !isApprovalMarker(message));

  it("never refuses a generated well-formed history (every block kind)", () => {
    fc.assert(
      fc.property(richHistory, ({ messages }) => {
        expect(historyRefusal(sendable(messages))).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it("refuses only what findHistoryProblem refuses too, over histories with messages or blocks taken out", () => {
    const damaged = fc.tuple(
      richHistory,
      fc.array(fc.boolean(), { minLength: 1, maxLength: 9 }),
      fc.boolean(),
    );
    fc.assert(
      fc.property(damaged, ([{ messages }, mask, blocks]) => {
        let at = 0;
        const keep = () => mask[at++ % mask.length]!;
        const history = blocks
          ? sendable(messages).map((message) =>
              typeof message.content === "string"
                ? message
                : ({ ...message, content: message.content.filter(keep) } as ModelMessage),
            )
          : sendable(messages).filter(keep);
        if (history.length > 0 && historyRefusal(history) !== undefined)
          expect(findHistoryProblem(history)).toEqual(expect.any(String));
      }),
      { numRuns: 500 },
    );
  });
});
