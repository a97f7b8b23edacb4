/**
 * Subagents over real HTTP against the mock Messages API server (streaming): three read-only
 * children at once (a barrier only all three open), a child the provider fails, the parent's
 * budget cutting a child, an abort and an interrupt mid-child, and a child persisted to JSONL.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  createAgent,
  createAnthropicClient,
  createJsonlHistoryStore,
  defineSubagent,
  type SDKMessage,
} from "../../src/index";
import { collect, deferred, lastResult, MODEL, toolResults, toolUse, until, within } from "../loop/support";
import { mockServerPerTest } from "../support/mock-server";
import { temporaryFolder } from "../support/temporary-folders";
import { childOf, own } from "./support";

/** A system prompt or message content as text: prompt caching sends strings as marked text blocks. */
const systemText = (value: unknown): string =>
  typeof value === "string"
    ? value
    : Array.isArray(value)
      ? value.map((block: { text?: string }) => block.text ?? "").join("")
      : String(value);

const CHILD = "You research one thing.";

/** Tool results of the last message of a request body, as text. */
function resultsOf(body: { messages: Array<{ content: unknown }> }): string[] {
  const last = body.messages.at(-1)?.content;
  if (!Array.isArray(last)) return [];
  return last
    .filter((block: { type: string }) => block.type === "tool_result")
    .map((block: { content: unknown }) =>
      typeof block.content === "string" ? block.content : JSON.stringify(block.content),
    );
}

describe("subagents over HTTP", () => {
  const server = mockServerPerTest();
  const client = () =>
    createAnthropicClient({ apiKey: "sk-test-subagents", baseURL: server.url, stream: true });
  const researcher = (extra: Partial<Parameters<typeof defineSubagent>[0]> = {}) =>
    defineSubagent({
      name: "researcher",
      description: "Researches.",
      systemPrompt: CHILD,
      readOnly: true,
      ...extra,
    });

  it("runs three read-only children at once and returns their answers in the model's order", async () => {
    const barrier = deferred();
    let arrived = 0;
    server.setHandler(async (body) => {
      if (systemText(body.system) === CHILD) {
        if (++arrived === 3) barrier.resolve();
        await barrier.promise;
        return { content: `answer to ${systemText(body.messages[0].content)}` };
      }
      const results = resultsOf(body);
      if (results.length > 0) return { content: results.join(" | ") };
      return { content: ["x", "y", "z"].map((q) => toolUse(`toolu_${q}`, "researcher", { prompt: q })) };
    });
    const agent = createAgent({ model: MODEL, client: client(), tools: [researcher()] });
    const result = await within(agent.prompt("go"), 10_000);
    expect(result).not.toBe("still pending");
    if (result === "still pending") return;
    expect(result.result).toBe("answer to x | answer to y | answer to z");
    expect(result.num_turns).toBe(2);
    expect(result.usage.input_tokens).toBeGreaterThan(0);
    await agent.close();
  });

  it("turns a child the provider fails into an error result; the parent goes on", async () => {
    server.enqueue(
      { content: [toolUse("toolu_1", "researcher", { prompt: "q" })] },
      { fault: "status", status: 400 },
      { content: "went on" },
    );
    const agent = createAgent({ model: MODEL, client: client(), tools: [researcher()] });
    const result = await agent.prompt("go");
    expect(result.result).toBe("went on");
    const [block] = toolResults(await agent.getHistory());
    expect(block!.is_error).toBe(true);
    expect(String(block!.content)).toContain("ended with error_during_execution");
    expect(String(block!.content)).not.toContain("sk-test-subagents");
    await agent.close();
  });

  it("cuts a child at the parent's remaining budget", async () => {
    server.enqueue(
      {
        content: [toolUse("toolu_1", "researcher", { prompt: "q" })],
        usage: { input_tokens: 1000, output_tokens: 0 },
      },
      {
        content: [
          { type: "text", text: "Spent a lot." },
          toolUse("toolu_c", "researcher", { prompt: "more" }),
        ],
        usage: { input_tokens: 10_000, output_tokens: 0 },
      },
    );
    const agent = createAgent({ model: MODEL, client: client(), tools: [researcher()], maxBudgetUsd: 0.013 });
    const messages = await collect(agent.query("go"));
    const child = childOf(messages, "toolu_1").at(-1)!;
    expect(child.type === "result" && child.subtype).toBe("error_max_budget_usd");
    const result = lastResult(own(messages));
    expect(result.subtype).toBe("error_max_budget_usd");
    expect(result.total_cost_usd).toBeCloseTo(0.033, 10);
    expect(server.requests).toHaveLength(2);
    await agent.close();
  });

  it("aborts a child mid-response with the parent's signal", async () => {
    server.enqueue({ content: [toolUse("toolu_1", "researcher", { prompt: "q" })] }, { fault: "hang" });
    const agent = createAgent({ model: MODEL, client: client(), tools: [researcher()] });
    const controller = new AbortController();
    const running = collect(agent.query("go", { signal: controller.signal }));
    await until(() => server.requests.length === 2);
    controller.abort();
    const messages = await running;
    expect(lastResult(own(messages)).subtype).toBe("error_abort");
    await agent.close();
  });

  it("interrupts a child mid-response: its partial text is the result, the parent ends interrupted", async () => {
    server.enqueue(
      { content: [toolUse("toolu_1", "researcher", { prompt: "q" })] },
      { fault: "hang", afterEvents: 4, response: { content: "Partial answer" } },
    );
    const agent = createAgent({
      model: MODEL,
      client: client(),
      tools: [researcher()],
      includePartialMessages: true,
    });
    const seen: SDKMessage[] = [];
    const running = (async () => {
      for await (const message of agent.query("go")) {
        seen.push(message);
        // The child's first text delta has arrived: interrupt the parent.
        if (
          message.type === "stream_event" &&
          message.parent_tool_use_id === "toolu_1" &&
          message.event.type === "content_block_delta"
        )
          agent.interrupt();
      }
    })();
    expect(await within(running, 10_000)).not.toBe("still pending");
    expect(lastResult(own(seen)).subtype).toBe("interrupted");
    const [block] = toolResults(await agent.getHistory());
    expect(block!.is_error).toBeFalsy();
    const partial = String(block!.content); // the text streamed before the interrupt
    expect(partial.length).toBeGreaterThan(0);
    expect("Partial answer".startsWith(partial)).toBe(true);
    expect(server.requests).toHaveLength(2);
    await agent.close();
  });

  it("persists each child to the JSONL store its factory names after the call id", async () => {
    const folder = temporaryFolder("subagents-jsonl");
    server.enqueue(
      { content: [toolUse("toolu_1", "researcher", { prompt: "remember" })] },
      { content: "remembered" },
      { content: "done" },
    );
    const agent = createAgent({
      model: MODEL,
      client: client(),
      tools: [
        researcher({
          historyStore: ({ toolUseId }) =>
            createJsonlHistoryStore({ path: path.join(folder, `${toolUseId}.jsonl`) }),
        }),
      ],
    });
    await agent.prompt("go");
    await agent.close();
    const lines = readFileSync(path.join(folder, "toolu_1.jsonl"), "utf8").trim().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const reopened = await createJsonlHistoryStore({ path: path.join(folder, "toolu_1.jsonl") }).load();
    expect(reopened.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(reopened[1]!.content).toEqual([{ type: "text", text: "remembered" }]);
  });
});
