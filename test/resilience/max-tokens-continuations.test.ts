/**
 * `maxTokensContinuations`: a text-only response cut at max_tokens is continued up to N times and
 * the texts joined; the default (0) keeps the truncated answer; a truncated tool call is never run.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  defineTool,
  InvalidOptionError,
  isWellFormedHistory,
  type SDKMessage,
  type SDKResultMessage,
  type Usage,
} from "../../src/index";
import { createScriptedClient, type ScriptedResponse } from "../../src/testing/index";

const USAGE: Usage = { input_tokens: 100, output_tokens: 50 };
const cut = (text: string): ScriptedResponse => ({ content: text, stop_reason: "max_tokens", usage: USAGE });
const done = (text: string): ScriptedResponse => ({ content: text, stop_reason: "end_turn", usage: USAGE });

async function run(agent: ReturnType<typeof createAgent>, prompt: string) {
  const messages: SDKMessage[] = [];
  for await (const message of agent.query(prompt)) messages.push(message);
  expect(messages.filter((message) => message.type === "result")).toHaveLength(1);
  expect(isWellFormedHistory(await agent.getHistory())).toBe(true);
  const continuations = messages.filter(
    (message) => message.type === "system" && message.subtype === "max_tokens_continuation",
  );
  return { messages, continuations, result: messages.at(-1) as SDKResultMessage };
}

describe("maxTokensContinuations", () => {
  it("defaults to 0: a truncated answer ends the query as a success with stop_reason max_tokens", async () => {
    const client = createScriptedClient([cut("Once upon a ti"), done("never requested")]);
    const agent = createAgent({ model: "claude-sonnet-4-6", client });
    const { result, continuations } = await run(agent, "Tell a story");
    expect(client.callCount).toBe(1);
    expect(continuations).toEqual([]);
    expect(result.subtype).toBe("success");
    expect(result.stop_reason).toBe("max_tokens");
    expect(result.result).toBe("Once upon a ti");
  });

  it("continues a cut text up to N times and joins the pieces", async () => {
    const client = createScriptedClient([
      cut("Once upon a ti"),
      cut("me there was a "),
      done("small agent."),
    ]);
    const agent = createAgent({ model: "claude-sonnet-4-6", client, maxTokensContinuations: 2 });
    const { result, continuations } = await run(agent, "Tell a story");

    expect(client.callCount).toBe(3);
    expect(continuations.map((message) => (message as { continuation: number }).continuation)).toEqual([
      1, 2,
    ]);
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("Once upon a time there was a small agent.");
    expect(result.stop_reason).toBe("end_turn");
    expect(result.num_turns).toBe(3);
    expect(result.usage).toMatchObject({ input_tokens: 300, output_tokens: 150 });
    // Each continuation request ends with the instruction to go on, after the cut answer.
    const second = client.requests[1]!.messages;
    expect(second.at(-2)).toMatchObject({
      role: "assistant",
      content: [{ type: "text", text: "Once upon a ti" }],
    });
    expect(second.at(-1)!.role).toBe("user");
    expect(JSON.stringify(second.at(-1)!.content)).toMatch(/continue/i);
    const history = await agent.getHistory();
    expect(history.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
  });

  it("stops continuing after N, keeping the joined text and stop_reason max_tokens", async () => {
    const client = createScriptedClient([cut("a"), cut("b"), cut("c"), done("never requested")]);
    const agent = createAgent({ model: "claude-sonnet-4-6", client, maxTokensContinuations: 2 });
    const { result, continuations } = await run(agent, "Go");
    expect(client.callCount).toBe(3);
    expect(continuations).toHaveLength(2);
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("abc");
    expect(result.stop_reason).toBe("max_tokens");
  });

  it("counts continuations per query", async () => {
    const client = createScriptedClient([cut("one-"), done("A"), cut("two-"), done("B")]);
    const agent = createAgent({ model: "claude-sonnet-4-6", client, maxTokensContinuations: 1 });
    expect((await run(agent, "First")).result.result).toBe("one-A");
    expect((await run(agent, "Second")).result.result).toBe("two-B");
    expect(client.callCount).toBe(4);
  });

  it("never runs a tool call from a truncated response, and does not spend a continuation on it", async () => {
    const calls: unknown[] = [];
    const write = defineTool({
      name: "write_file",
      inputSchema: z.object({ path: z.string(), text: z.string() }),
      execute: async (input) => {
        calls.push(input);
        return "written";
      },
    });
    const client = createScriptedClient([
      {
        content: [
          { type: "text", text: "Writing the file." },
          { type: "tool_use", id: "toolu_1", name: "write_file", input: { path: "a.txt", text: "partial" } },
        ],
        stop_reason: "max_tokens",
        usage: USAGE,
      },
      cut("Sorry, let me "),
      done("answer in text instead."),
    ]);
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client,
      tools: [write],
      maxTokensContinuations: 1,
    });
    const { result, continuations } = await run(agent, "Write a.txt");

    expect(calls).toEqual([]);
    const history = await agent.getHistory();
    expect(history[2]!.content).toEqual([
      expect.objectContaining({ type: "tool_result", tool_use_id: "toolu_1", is_error: true }),
    ]);
    expect(JSON.stringify(history[2]!.content)).toContain("max_tokens");
    expect(continuations).toHaveLength(1);
    expect(result.result).toBe("Sorry, let me answer in text instead.");
    expect(client.callCount).toBe(3);
  });

  it("rejects a negative or fractional count", () => {
    const client = createScriptedClient([]);
    expect(() => createAgent({ model: "m", client, maxTokensContinuations: -1 })).toThrow(InvalidOptionError);
    expect(() => createAgent({ model: "m", client, maxTokensContinuations: 1.5 })).toThrow(
      InvalidOptionError,
    );
  });
});
