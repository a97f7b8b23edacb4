import type { DynamicToolUIPart, UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, defineSubagent, defineTool, type SDKMessage } from "../../src/index";
import { toUIMessageStream } from "../../src/ui/index";
import { mockServerPerTest } from "../support/mock-server";
import { thinking } from "../support/thinking";
import { chunkTypes, finalMessage, readChunks, uiMessages } from "./ui-test-kit";

const server = mockServerPerTest();

const weather = defineTool({
  name: "weather",
  description: "Weather of a city",
  inputSchema: z.object({ city: z.string() }),
  readOnly: true,
  async execute({ city }) {
    return `Sunny in ${city}`;
  },
});

function agentWith(options: Partial<Parameters<typeof createAgent>[0]> = {}) {
  return createAgent({
    model: "claude-test",
    apiKey: "sk-ant-api03-secretsecretsecret",
    baseURL: server.url,
    includePartialMessages: true,
    retry: { maxRetries: 0 },
    ...options,
  });
}

function toolParts(message: UIMessage): DynamicToolUIPart[] {
  return message.parts.filter((part): part is DynamicToolUIPart => part.type === "dynamic-tool");
}

describe("toUIMessageStream", () => {
  it("streams text and thinking as deltas, a tool call through its states, one step per model turn", async () => {
    server.enqueue(
      {
        content: [
          thinking("plan"),
          { type: "text", text: "Let me look that up." },
          { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Paris" } },
        ],
        usage: { input_tokens: 10, output_tokens: 5 },
      },
      { content: "It is sunny in Paris today.", usage: { input_tokens: 20, output_tokens: 7 } },
    );
    const agent = agentWith({ tools: [weather] });
    const chunks = await readChunks(
      toUIMessageStream(agent.query("Weather in Paris?"), { messageId: "m-1" }),
    );

    const types = chunkTypes(chunks);
    expect(types[0]).toBe("start");
    expect(types.at(-1)).toBe("finish");
    expect(types.filter((type) => type === "start-step")).toHaveLength(2);
    expect(types.filter((type) => type === "finish-step")).toHaveLength(2);
    // Deltas that arrive in one network read are joined (chunk-batch.test.ts): each part's deltas make its text.
    const texts = chunks.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : []));
    expect(texts.join("")).toBe("Let me look that up.It is sunny in Paris today.");
    expect(types).toContain("reasoning-delta");
    // The tool part's states, in the order the chunks bring them.
    const toolOrder = types.filter((type) => type.startsWith("tool-"));
    expect(toolOrder[0]).toBe("tool-input-start");
    expect(toolOrder.slice(-2)).toEqual(["tool-input-available", "tool-output-available"]);

    const states = await uiMessages(chunks);
    const seen = states.flatMap((state) => toolParts(state).map((part) => part.state));
    expect([...new Set(seen)]).toEqual(["input-streaming", "input-available", "output-available"]);
    const message = states.at(-1)!;
    expect(message.id).toBe("m-1");
    expect(message.parts.map((part) => part.type)).toEqual([
      "step-start",
      "reasoning",
      "text",
      "dynamic-tool",
      "step-start",
      "text",
    ]);
    const tool = toolParts(message)[0]!;
    expect(tool).toMatchObject({ toolName: "weather", input: { city: "Paris" }, output: "Sunny in Paris" });
    expect(message.parts.at(-1)).toMatchObject({
      type: "text",
      text: "It is sunny in Paris today.",
      state: "done",
    });
    expect(message.metadata).toMatchObject({
      end: "success",
      numTurns: 2,
      usage: { input_tokens: 30, output_tokens: 12 },
    });
    expect((message.metadata as { totalCostUsd: number }).totalCostUsd).toBeGreaterThanOrEqual(0);
    expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
  });

  it("sends each block whole when the agent does not stream partial messages", async () => {
    server.enqueue({ content: "Hello there." });
    const chunks = await readChunks(
      toUIMessageStream(agentWith({ includePartialMessages: false }).query("Hi")),
    );
    expect(chunkTypes(chunks)).toEqual([
      "start",
      "start-step",
      "text-start",
      "text-delta",
      "text-end",
      "message-metadata",
      "finish-step",
      "finish",
    ]);
    const message = await finalMessage(chunks);
    expect(message.parts.at(-1)).toMatchObject({ type: "text", text: "Hello there." });
  });

  it("shows a tool that throws as output-error with its message", async () => {
    const broken = defineTool({
      name: "broken",
      description: "Always fails",
      inputSchema: z.object({}),
      async execute() {
        throw new Error("disk on fire");
      },
    });
    server.enqueue(
      { content: [{ type: "tool_use", id: "toolu_b", name: "broken", input: {} }] },
      { content: "Sorry." },
    );
    const chunks = await readChunks(toUIMessageStream(agentWith({ tools: [broken] }).query("Go")));
    const message = await finalMessage(chunks);
    const tool = toolParts(message)[0]!;
    expect(tool.state).toBe("output-error");
    expect(tool.errorText).toContain("disk on fire");
  });

  it("ends a failed run with a redacted error chunk and its end in the metadata", async () => {
    server.enqueue({
      fault: "status",
      status: 400,
      body: {
        type: "error",
        error: {
          type: "invalid_request_error",
          message: "bad key sk-ant-api03-secretsecretsecret and token hunter2-long-secret",
        },
      },
    });
    const chunks = await readChunks(
      toUIMessageStream(agentWith().query("Hi"), { secrets: ["hunter2-long-secret"] }),
    );
    const text = JSON.stringify(chunks);
    expect(text).not.toContain("secretsecretsecret");
    expect(text).not.toContain("hunter2-long-secret");
    const error = chunks.find((chunk) => chunk.type === "error");
    expect(error).toBeDefined();
    expect((error as { errorText: string }).errorText).toMatch(/failed.*400|400.*/is);
    expect(chunks.at(-1)).toMatchObject({
      type: "finish",
      finishReason: "error",
      messageMetadata: { end: "error_during_execution" },
    });
  });

  it("makes the ends that are not success visible: max turns, interrupted", async () => {
    server.enqueue({
      content: [{ type: "tool_use", id: "toolu_m", name: "weather", input: { city: "Oslo" } }],
    });
    const capped = await readChunks(
      toUIMessageStream(agentWith({ tools: [weather], maxTurns: 1 }).query("Go")),
    );
    expect(capped.at(-1)).toMatchObject({
      type: "finish",
      finishReason: "length",
      messageMetadata: { end: "error_max_turns" },
    });
    expect(capped.find((chunk) => chunk.type === "error")).toMatchObject({
      errorText: expect.stringContaining("turns"),
    });

    server.enqueue({ content: "slow answer", delayMs: 60_000 });
    const agent = agentWith();
    const stream = toUIMessageStream(agent.query("Go"));
    const reading = readChunks(stream);
    await waitForRequests(1);
    agent.interrupt();
    const interrupted = await reading;
    expect(interrupted.find((chunk) => chunk.type === "error")).toBeUndefined();
    expect(interrupted.at(-1)).toMatchObject({
      type: "finish",
      finishReason: "other",
      messageMetadata: { end: "interrupted" },
    });
  });

  it("makes the budget and timeout ends visible, each with its error chunk", async () => {
    server.enqueue({
      content: [{ type: "tool_use", id: "toolu_x", name: "weather", input: { city: "Rome" } }],
      usage: { input_tokens: 1_000, output_tokens: 1_000 },
    });
    const budget = await readChunks(
      toUIMessageStream(
        agentWith({
          tools: [weather],
          maxBudgetUsd: 0.001,
          pricing: { "claude-test": { inputPerMTok: 100, outputPerMTok: 100 } },
        }).query("Go"),
      ),
    );
    expect(budget.at(-1)).toMatchObject({
      type: "finish",
      finishReason: "length",
      messageMetadata: { end: "error_max_budget_usd" },
    });
    expect(budget.find((chunk) => chunk.type === "error")).toMatchObject({
      errorText: expect.stringContaining("budget"),
    });

    server.enqueue({ content: "late", delayMs: 60_000 });
    const timeout = await readChunks(toUIMessageStream(agentWith({ requestTimeoutMs: 300 }).query("Go")));
    expect(timeout.at(-1)).toMatchObject({
      type: "finish",
      finishReason: "error",
      messageMetadata: { end: "error_timeout" },
    });
    expect(timeout.find((chunk) => chunk.type === "error")).toMatchObject({
      errorText: expect.stringContaining("time"),
    });
  });

  it("asks for approval with the protocol's approval request", async () => {
    const deploy = defineTool({
      name: "deploy",
      description: "Deploy",
      inputSchema: z.object({ target: z.string() }),
      needsApproval: true,
      async execute() {
        return "deployed";
      },
    });
    server.enqueue({
      content: [{ type: "tool_use", id: "toolu_d", name: "deploy", input: { target: "prod" } }],
    });
    const chunks = await readChunks(toUIMessageStream(agentWith({ tools: [deploy] }).query("Deploy")));
    expect(chunks).toContainEqual({
      type: "tool-approval-request",
      approvalId: "toolu_d",
      toolCallId: "toolu_d",
    });
    const message = await finalMessage(chunks);
    expect(toolParts(message)[0]).toMatchObject({ state: "approval-requested", approval: { id: "toolu_d" } });
    expect(message.metadata).toMatchObject({
      end: "requires_approval",
      pendingApprovals: [{ tool_use_id: "toolu_d" }],
    });
    expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls" });
  });

  it("shows a subagent's progress as a data part beside its tool part", async () => {
    const researcher = defineSubagent({
      name: "researcher",
      description: "Researches",
      systemPrompt: "Research.",
    });
    server.setHandler((body) => {
      const system = JSON.stringify(body.system ?? "");
      if (system.includes("Research.")) return { content: "Found three sources." };
      const last = body.messages.at(-1);
      return Array.isArray(last.content) && last.content[0]?.type === "tool_result"
        ? { content: "Done researching." }
        : { content: [{ type: "tool_use", id: "toolu_s", name: "researcher", input: { prompt: "look" } }] };
    });
    const chunks = await readChunks(toUIMessageStream(agentWith({ tools: [researcher] }).query("Research")));
    const message = await finalMessage(chunks);
    const data = message.parts.find((part) => part.type === "data-subagent") as { id: string; data: unknown };
    expect(data).toMatchObject({
      id: "toolu_s",
      data: { toolCallId: "toolu_s", status: "done", text: "Found three sources.", turns: 1 },
    });
    expect(toolParts(message)[0]).toMatchObject({ toolName: "researcher", state: "output-available" });
  });

  it("ends with an error chunk when the query itself throws", async () => {
    async function* failing(): AsyncGenerator<SDKMessage<unknown>> {
      yield { type: "system", subtype: "init", model: "m", tools: [] };
      throw new Error("store unreachable: Bearer abcdefghijklmnop");
    }
    const chunks = await readChunks(toUIMessageStream(failing()));
    expect(chunks.find((chunk) => chunk.type === "error")).toEqual({
      type: "error",
      errorText: "Error: store unreachable: Bearer [redacted]",
    });
    expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "error" });
  });

  it("returns the query's generator when the consumer cancels", async () => {
    server.enqueue({ content: "a long answer", eventDelayMs: 200 });
    const agent = agentWith();
    const reader = toUIMessageStream(agent.query("Go")).getReader();
    await reader.read(); // start
    await reader.cancel();
    // The conversation is free again: a new query runs.
    server.enqueue({ content: "next" });
    const next = await agent.prompt("Again");
    expect(next.subtype).toBe("success");
  });
});

async function waitForRequests(count: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (server.requests.length < count) {
    if (Date.now() > deadline) throw new Error(`no request #${count}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
