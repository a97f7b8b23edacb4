/**
 * `textDeltas`: the text of a query as it streams — deltas with `includePartialMessages`, whole
 * assistant texts without — and a clean early exit that ends the query.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, createAnthropicClient, defineTool, type SDKMessage, textDeltas } from "../../src/index";
import {
  createScriptedClient,
  type MockAnthropicServer,
  startMockAnthropicServer,
} from "../../src/testing/index";

const MODEL = "claude-sonnet-4-6";

const lookup = defineTool({
  name: "lookup",
  description: "Looks a word up",
  inputSchema: z.object({ word: z.string() }),
  readOnly: true,
  execute: async ({ word }) => `${word}: found`,
});

async function all(source: AsyncIterable<string>): Promise<string[]> {
  const pieces: string[] = [];
  for await (const piece of source) pieces.push(piece);
  return pieces;
}

let server: MockAnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("textDeltas", () => {
  it("with includePartialMessages: the text as it streams, in pieces, each piece once", async () => {
    server = await startMockAnthropicServer({
      responses: [
        {
          content: [
            { type: "text", text: "Let me look that word up for you. " },
            { type: "tool_use", id: "toolu_1", name: "lookup", input: { word: "lattice" } },
          ],
        },
        { content: "A lattice is a regular grid of points, lines or crossing strips." },
      ],
    });
    const agent = createAgent({
      model: MODEL,
      client: createAnthropicClient({ apiKey: "k-1234", baseURL: server.url }),
      tools: [lookup],
      includePartialMessages: true,
    });
    const pieces = await all(textDeltas(agent.query("What is a lattice?")));
    expect(pieces.length).toBeGreaterThan(4); // the mock server streams text in several deltas
    expect(pieces.join("")).toBe(
      "Let me look that word up for you. A lattice is a regular grid of points, lines or crossing strips.",
    );
  });

  it("without includePartialMessages: each assistant message's text, whole", async () => {
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([
        {
          content: [
            { type: "thinking", thinking: "They want a lookup.", signature: "sig" },
            { type: "text", text: "Looking." },
            { type: "tool_use", id: "toolu_1", name: "lookup", input: { word: "grid" } },
          ],
        },
        { content: "A grid." },
      ]),
      tools: [lookup],
    });
    expect(await all(textDeltas(agent.query("What is a grid?")))).toEqual(["Looking.", "A grid."]);
  });

  it("yields nothing for thinking, tool input, system messages or the result", async () => {
    const messages: SDKMessage[] = [
      { type: "system", subtype: "init", model: MODEL, tools: [] },
      { type: "stream_event", event: { type: "message_start", message: {} } },
      {
        type: "stream_event",
        event: { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hm" } },
      },
      {
        type: "stream_event",
        event: {
          type: "content_block_delta",
          index: 1,
          delta: { type: "input_json_delta", partial_json: "{}" },
        },
      },
      {
        type: "stream_event",
        event: { type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "" } },
      },
      {
        type: "assistant",
        message: { role: "assistant", content: [{ type: "tool_use", id: "t", name: "x", input: {} }] },
      },
    ];
    expect(await all(textDeltas(fromArray(messages)))).toEqual([]);
  });

  it("skips the messages of subagents (parent_tool_use_id set)", async () => {
    const child = {
      type: "assistant",
      message: { role: "assistant", content: [{ type: "text", text: "child" }] },
      parent_tool_use_id: "toolu_9",
    };
    const messages = [
      child,
      { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "parent" }] } },
    ];
    expect(await all(textDeltas(fromArray(messages as SDKMessage[])))).toEqual(["parent"]);
  });

  it("breaking out early calls the source's return(): the query ends and the agent is free again", async () => {
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([
        {
          content: [
            { type: "text", text: "First." },
            { type: "tool_use", id: "toolu_1", name: "lookup", input: { word: "a" } },
          ],
        },
        { content: "Second." },
        { content: "Another query." },
      ]),
      tools: [lookup],
    });
    for await (const text of textDeltas(agent.query("Go"))) {
      expect(text).toBe("First.");
      break;
    }
    // The first query was ended by the break: a new one may start, and gets the next step.
    expect((await agent.prompt("Again")).subtype).toBe("success");
  });

  it("calls return() on a plain async iterable's iterator too", async () => {
    let returned = false;
    const source: AsyncIterable<SDKMessage> = {
      [Symbol.asyncIterator]() {
        let index = 0;
        return {
          next: async () => ({
            done: false,
            value: {
              type: "assistant",
              message: { role: "assistant", content: [{ type: "text", text: `t${index++}` }] },
            },
          }),
          return: async () => {
            returned = true;
            return { done: true, value: undefined };
          },
        };
      },
    };
    const seen: string[] = [];
    for await (const text of textDeltas(source)) {
      seen.push(text);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(["t0", "t1", "t2"]);
    expect(returned).toBe(true);
  });
});

async function* fromArray(messages: SDKMessage[]): AsyncGenerator<SDKMessage> {
  yield* messages;
}
