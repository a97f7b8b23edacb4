/**
 * What works inside a child as in any agent — retries and the fallback model over HTTP, automatic
 * compaction, the child's own hooks — each notice reaching the parent's consumer tagged; and over
 * HTTP, the parent's toolTimeoutMs on a hanging child and subagents nested at and past the depth
 * limit.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createAnthropicClient,
  defineSubagent,
  defineTool,
  MAX_SUBAGENT_DEPTH,
  type SDKMessage,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { collect, lastResult, MODEL, toolResults, toolUse } from "../loop/support";
import { mockServerPerTest } from "../support/mock-server";
import { childOf, own } from "./support";

const CHILD_MODEL = "claude-haiku-4-5";
const FALLBACK = "claude-sonnet-4-5";
const fastRetry = { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1 };

const step = defineTool({ name: "step", inputSchema: z.object({}), execute: () => "stepped" });

function systemOf(messages: SDKMessage<unknown>[], subtype: string) {
  return messages.filter((message) => message.type === "system" && message.subtype === subtype);
}

const systemText = (value: unknown): string =>
  typeof value === "string"
    ? value
    : Array.isArray(value)
      ? value.map((block: { text?: string }) => block.text ?? "").join("")
      : String(value);

describe("inside a child, over HTTP", () => {
  const server = mockServerPerTest();
  const client = () => createAnthropicClient({ apiKey: "sk-test-child", baseURL: server.url, stream: true });

  it("retries a transient failure of the child's request; the retry notice is tagged", async () => {
    server.enqueue(
      { content: [toolUse("toolu_1", "worker", { prompt: "q" })] },
      { fault: "status", status: 529 },
      { content: "answered after a retry" },
      { content: "done" },
    );
    const worker = defineSubagent({ name: "worker", description: "Works.", retry: fastRetry });
    const agent = createAgent({ model: MODEL, client: client(), tools: [worker] });
    const messages = await collect(agent.query("go"));
    expect(lastResult(own(messages)).result).toBe("done");
    const retries = systemOf(messages, "api_retry");
    expect(retries).toHaveLength(1);
    expect(retries[0]!.parent_tool_use_id).toBe("toolu_1");
    expect(String(toolResults(await agent.getHistory())[0]!.content)).toBe("answered after a retry");
    expect(server.requests).toHaveLength(4);
    await agent.close();
  });

  it("falls back to the child's fallbackModel once its retries are spent; the notice is tagged", async () => {
    server.setHandler((body) => {
      if (systemText(body.system) !== "Child.") {
        const answered = JSON.stringify(body.messages).includes("tool_result");
        return { content: answered ? "done" : [toolUse("toolu_1", "worker", { prompt: "q" })] };
      }
      if (body.model === CHILD_MODEL) return { fault: "status", status: 529 };
      return { content: `answered by ${body.model}` };
    });
    const worker = defineSubagent({
      name: "worker",
      description: "Works.",
      systemPrompt: "Child.",
      model: CHILD_MODEL,
      fallbackModel: FALLBACK,
      retry: fastRetry,
    });
    const agent = createAgent({ model: MODEL, client: client(), tools: [worker] });
    const messages = await collect(agent.query("go"));
    const result = lastResult(own(messages));
    expect(result.result).toBe("done");
    const fallbacks = systemOf(messages, "model_fallback");
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toMatchObject({ from: CHILD_MODEL, to: FALLBACK, parent_tool_use_id: "toolu_1" });
    expect(String(toolResults(await agent.getHistory())[0]!.content)).toBe(`answered by ${FALLBACK}`);
    // The fallback model's cost is the parent's too, under its own key.
    expect(result.model_usage[FALLBACK]?.cost_usd ?? 0).toBeGreaterThan(0);
    await agent.close();
  });

  it("bounds a hanging child with the parent's toolTimeoutMs; the parent goes on", async () => {
    server.enqueue(
      { content: [toolUse("toolu_1", "worker", { prompt: "q" })] },
      { fault: "hang" },
      { content: "moved on" },
    );
    const worker = defineSubagent({ name: "worker", description: "Works." });
    const agent = createAgent({ model: MODEL, client: client(), tools: [worker], toolTimeoutMs: 200 });
    const result = await agent.prompt("go");
    expect(result.result).toBe("moved on");
    const [block] = toolResults(await agent.getHistory());
    expect(block!.is_error).toBe(true);
    expect(String(block!.content)).toContain("did not finish within 200 ms");
    await agent.close();
  });

  it(`nests subagents ${MAX_SUBAGENT_DEPTH} deep; a call one level deeper gets an error result`, async () => {
    const levels = MAX_SUBAGENT_DEPTH + 1;
    const names = Array.from({ length: levels + 1 }, (_, index) => (index === 0 ? "top" : `level${index}`));
    let tools: ReturnType<typeof defineSubagent>[] = [];
    for (let depth = levels; depth >= 1; depth--) {
      const name = names[depth]!;
      tools = [defineSubagent({ name, description: `Level ${depth}.`, systemPrompt: name, tools })];
    }
    server.setHandler((body) => {
      const system = systemText(body.system ?? "") || "top";
      const depth = names.indexOf(system);
      const results = (body.messages.at(-1)?.content ?? []) as Array<{ type: string; content?: unknown }>;
      const result = Array.isArray(results)
        ? results.find((block) => block.type === "tool_result")
        : undefined;
      if (!result && depth < levels)
        return { content: [toolUse(`call_${depth + 1}`, names[depth + 1]!, { prompt: "deeper" })] };
      const inner =
        typeof result?.content === "string" ? result.content : JSON.stringify(result?.content ?? "");
      return { content: `${system}<${inner}>` };
    });
    const agent = createAgent({ model: MODEL, client: client(), tools });
    const messages = await collect(agent.query("go"));
    expect(lastResult(own(messages)).result).toMatch(
      /^top<level1<level2<level3<.*The subagent \\?"level4\\?" was not run: subagents nest at most 3 deep/,
    );
    const systems = server.requests.map((request) => systemText(request.body.system));
    expect(systems).not.toContain("level4");
    for (let depth = 1; depth <= MAX_SUBAGENT_DEPTH; depth++)
      expect(childOf(messages, `call_${depth}`).at(-1)).toMatchObject({ type: "result", subtype: "success" });
    await agent.close();
  });
});

describe("inside a child, scripted", () => {
  it("compacts a child's history automatically; the compaction notice is tagged", async () => {
    const childClient = createScriptedClient([
      { content: [toolUse("c1", "step")], usage: { input_tokens: 100, output_tokens: 5 } },
      { content: [toolUse("c2", "step")], usage: { input_tokens: 1_500, output_tokens: 5 } },
      { content: "Summary: two steps taken." }, // the summarising request
      { content: "child done" },
    ]);
    const parent = createScriptedClient([
      { content: [toolUse("t1", "worker", { prompt: "work" })] },
      { content: "done" },
    ]);
    const worker = defineSubagent({
      name: "worker",
      description: "Works.",
      client: childClient,
      tools: [step],
      autoCompact: { thresholdTokens: 1_000, keepRecentMessages: 2 },
    });
    const agent = createAgent({ model: MODEL, client: parent, tools: [worker] });
    const messages = await collect(agent.query("go"));
    expect(lastResult(own(messages)).result).toBe("done");
    const compactions = systemOf(messages, "compaction");
    expect(compactions).toHaveLength(1);
    expect(compactions[0]!.parent_tool_use_id).toBe("t1");
    expect(childClient.callCount).toBe(4);
    expect(String(toolResults(await agent.getHistory())[0]!.content)).toBe("child done");
  });

  it("runs the child's own hooks on the child's tool calls, not the parent's", async () => {
    const seen: string[] = [];
    const childClient = createScriptedClient([
      { content: [toolUse("c1", "step")] },
      { content: "child went on" },
    ]);
    const parent = createScriptedClient([
      { content: [toolUse("t1", "worker", { prompt: "work" })] },
      { content: "done" },
    ]);
    const worker = defineSubagent({
      name: "worker",
      description: "Works.",
      client: childClient,
      tools: [step],
      hooks: {
        preToolUse: [
          {
            handler: (input) => {
              seen.push(`child:${input.toolName}`);
              return { block: true, message: "not in the child" };
            },
          },
        ],
      },
    });
    const agent = createAgent({
      model: MODEL,
      client: parent,
      tools: [worker],
      hooks: { preToolUse: [{ handler: (input) => void seen.push(`parent:${input.toolName}`) }] },
    });
    const result = await agent.prompt("go");
    expect(result.result).toBe("done");
    expect(seen).toEqual(["parent:worker", "child:step"]);
    const childResults = toolResults(childClient.requests[1]!.messages);
    expect(childResults[0]!.is_error).toBe(true);
    expect(String(childResults[0]!.content)).toContain("not in the child");
  });
});
