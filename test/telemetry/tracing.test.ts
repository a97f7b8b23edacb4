/**
 * OpenTelemetry tracing, read back through the SDK's in-memory exporter: one `invoke_agent` span per
 * query, a `chat <model>` span per model request attempt and an `execute_tool <name>` span per tool
 * call as its children, a `compaction` span whose summarising request is its child; GenAI
 * semantic-convention attributes; errors recorded on the spans that failed.
 */
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type AgentOptions,
  createAgent,
  createAnthropicClient,
  DEFAULT_COMPACTION_PROMPT,
  DEFAULT_TOOL_RESULT_SUMMARY_PROMPT,
  defineHistoryStore,
  defineTool,
  HistoryStoreError,
  type ModelMessage,
  type ModelRequest,
} from "../../src/index";
import {
  createScriptedClient,
  type ScriptedResponse,
  type ScriptedStep,
  startMockAnthropicServer,
} from "../../src/testing/index";
import { collect, lastResult, toolUse } from "../loop/support";

const MODEL = "claude-sonnet-4-6";

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});

afterEach(async () => {
  await provider.shutdown();
});

const weather = defineTool({
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: z.object({ city: z.string() }),
  readOnly: true,
  async execute({ city }) {
    return `18°C and clear in ${city}`;
  },
});

const broken = defineTool({
  name: "broken",
  description: "Always throws",
  inputSchema: z.object({}),
  async execute() {
    throw new Error("disk on fire");
  },
});

/** An agent that traces into the in-memory exporter, with retries that do not wait. */
function tracedAgent(
  script: ScriptedStep[] | ((request: ModelRequest) => ScriptedResponse | Error),
  options: Partial<AgentOptions> = {},
) {
  const client = createScriptedClient(script);
  const agent = createAgent({
    model: MODEL,
    client,
    tools: [weather, broken],
    telemetry: { tracer: provider.getTracer("test"), agentName: "forecaster" },
    _internal: { sleep: async () => {} },
    ...options,
  });
  return { agent, client };
}

function spans(): ReadableSpan[] {
  return exporter.getFinishedSpans();
}

function spansNamed(name: string): ReadableSpan[] {
  return spans().filter((span) => span.name === name);
}

function onlySpan(name: string): ReadableSpan {
  const found = spansNamed(name);
  expect(found, `spans named "${name}"`).toHaveLength(1);
  return found[0]!;
}

function isChildOf(child: ReadableSpan, parent: ReadableSpan): boolean {
  return (
    child.parentSpanContext?.spanId === parent.spanContext().spanId &&
    child.spanContext().traceId === parent.spanContext().traceId
  );
}

function exceptionMessages(span: ReadableSpan): unknown[] {
  return span.events
    .filter((event) => event.name === "exception")
    .map((event) => event.attributes?.["exception.message"]);
}

const usage = {
  input_tokens: 120,
  output_tokens: 30,
  cache_creation_input_tokens: 40,
  cache_read_input_tokens: 500,
};

describe("tracing a tool-using query", () => {
  it("emits invoke_agent with chat and execute_tool spans as its children", async () => {
    const { agent } = tracedAgent([
      {
        content: [
          toolUse("call_1", "get_weather", { city: "Lisbon" }),
          toolUse("call_2", "get_weather", { city: "Porto" }),
        ],
        usage,
        id: "msg_first",
        model: "claude-sonnet-4-6-20260101",
      },
      { content: "Wear a light jacket.", usage: { input_tokens: 200, output_tokens: 8 }, id: "msg_second" },
    ]);

    const result = lastResult(await collect(agent.query("What should I wear?")));

    expect(result.subtype).toBe("success");
    expect(
      spans()
        .map((span) => span.name)
        .sort(),
    ).toEqual([
      `chat ${MODEL}`,
      `chat ${MODEL}`,
      "execute_tool get_weather",
      "execute_tool get_weather",
      "invoke_agent forecaster",
    ]);
    const root = onlySpan("invoke_agent forecaster");
    expect(root.parentSpanContext).toBeUndefined();
    for (const span of spans()) if (span !== root) expect(isChildOf(span, root), span.name).toBe(true);
  });

  it("puts the GenAI attributes of request and response on each chat span", async () => {
    const { agent } = tracedAgent(
      [
        {
          content: [toolUse("call_1", "get_weather", { city: "Lisbon" })],
          usage,
          id: "msg_first",
          model: "claude-sonnet-4-6-20260101",
        },
        { content: "Wear a light jacket.", usage: { input_tokens: 200, output_tokens: 8 }, id: "msg_second" },
      ],
      { maxTokens: 1_024 },
    );

    await agent.prompt("What should I wear?");

    // SimpleSpanProcessor exports each span as it ends: the exporter holds them in that order.
    const [first, second] = spansNamed(`chat ${MODEL}`);
    expect(first!.kind).toBe(SpanKind.CLIENT);
    expect(first!.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "anthropic",
      "gen_ai.request.model": MODEL,
      "gen_ai.request.max_tokens": 1_024,
      "gen_ai.response.model": "claude-sonnet-4-6-20260101",
      "gen_ai.response.id": "msg_first",
      "gen_ai.response.finish_reasons": ["tool_use"],
      // input + cache writes + cache reads, as the GenAI conventions for Anthropic count them
      "gen_ai.usage.input_tokens": 660,
      "gen_ai.usage.output_tokens": 30,
      "gen_ai.usage.cache_creation.input_tokens": 40,
      "gen_ai.usage.cache_read.input_tokens": 500,
    });
    expect(second!.attributes["gen_ai.response.id"]).toBe("msg_second");
    expect(second!.attributes["gen_ai.response.finish_reasons"]).toEqual(["end_turn"]);
    // Buckets the response did not report are left out, not recorded as zero.
    expect(second!.attributes).not.toHaveProperty("gen_ai.usage.cache_read.input_tokens");
    expect(first!.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it("names the tool and the call on execute_tool, and sums the query on invoke_agent", async () => {
    const { agent } = tracedAgent([
      { content: [toolUse("call_7", "get_weather", { city: "Lisbon" })], usage },
      { content: "Sunny.", usage: { input_tokens: 200, output_tokens: 8 } },
    ]);

    await agent.prompt("Weather?");

    const tool = onlySpan("execute_tool get_weather");
    expect(tool.kind).toBe(SpanKind.INTERNAL);
    expect(tool.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "get_weather",
      "gen_ai.tool.call.id": "call_7",
    });
    expect(tool.status.code).not.toBe(SpanStatusCode.ERROR);
    const root = onlySpan("invoke_agent forecaster");
    expect(root.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "forecaster",
      "gen_ai.request.model": MODEL,
      "agent_lattice.result.subtype": "success",
      "agent_lattice.num_turns": 2,
      // 120 + 40 + 500 for the first response, 200 for the second: cache buckets counted in
      "gen_ai.usage.input_tokens": 860,
      "gen_ai.usage.output_tokens": 38,
      "gen_ai.usage.cache_creation.input_tokens": 40,
      "gen_ai.usage.cache_read.input_tokens": 500,
    });
    expect(typeof root.attributes["agent_lattice.cost_usd"]).toBe("number");
    expect(root.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it("ends every span, the query span last", async () => {
    const { agent } = tracedAgent([
      { content: [toolUse("call_1", "get_weather", { city: "Lisbon" })] },
      { content: "Sunny." },
    ]);

    await agent.prompt("Weather?");

    for (const span of spans()) expect(span.ended, span.name).toBe(true);
    // The exporter receives each span as it ends.
    expect(spans().map((span) => span.name)).toEqual([
      `chat ${MODEL}`,
      "execute_tool get_weather",
      `chat ${MODEL}`,
      "invoke_agent forecaster",
    ]);
  });

  it("names the query span invoke_agent without an agent name, and keeps one trace per query", async () => {
    const { agent } = tracedAgent(
      [
        { content: [toolUse("call_1", "get_weather", { city: "Lisbon" })] },
        { content: "Sunny." },
        { content: "Still sunny." },
      ],
      { telemetry: { tracer: provider.getTracer("test") } },
    );

    await agent.prompt("Weather?");
    await agent.prompt("And now?");

    const roots = spansNamed("invoke_agent");
    expect(roots).toHaveLength(2);
    expect(roots[0]!.attributes).not.toHaveProperty("gen_ai.agent.name");
    expect(roots[0]!.spanContext().traceId).not.toBe(roots[1]!.spanContext().traceId);
    const secondChats = spansNamed(`chat ${MODEL}`).filter((span) => isChildOf(span, roots[1]!));
    expect(secondChats).toHaveLength(1);
  });
});

describe("errors on spans", () => {
  it("marks a throwing tool's span as failed, while the query still succeeds", async () => {
    const { agent } = tracedAgent([
      { content: [toolUse("call_1", "broken"), toolUse("call_2", "get_weather", { city: "Lisbon" })] },
      { content: "The broken tool failed; Lisbon is sunny." },
    ]);

    const result = await agent.prompt("Try both.");

    expect(result.subtype).toBe("success");
    const failed = onlySpan("execute_tool broken");
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed.status.message).toContain("disk on fire");
    expect(exceptionMessages(failed).join(" ")).toContain("disk on fire");
    expect(failed.attributes["error.type"]).toBe("Error");
    expect(onlySpan("execute_tool get_weather").status.code).not.toBe(SpanStatusCode.ERROR);
    expect(onlySpan("invoke_agent forecaster").status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it("keeps the agent's key out of a failed span's status and recorded exception", async () => {
    const apiKey = "agent-key-for-spans-0123456789";
    const leaky = defineTool({
      name: "leaky",
      inputSchema: z.object({}),
      readOnly: true,
      execute: () => {
        throw new Error(`refused with x-api-key=${apiKey}`);
      },
    });
    const { agent } = tracedAgent([{ content: [toolUse("call_1", "leaky")] }, { content: "ok" }], {
      apiKey,
      tools: [leaky],
    });

    await agent.prompt("Try it.");

    const failed = onlySpan("execute_tool leaky");
    expect(failed.status.message).toContain("refused with x-api-key=");
    expect(JSON.stringify([failed.status, failed.events, failed.attributes])).not.toContain(apiKey);
  });

  it("types a tool's span with the name of the error it threw, and a failed chat as ProviderError", async () => {
    const ranged = defineTool({
      name: "ranged",
      inputSchema: z.object({}),
      execute: () => {
        throw new RangeError("index out of range");
      },
    });
    const { agent } = tracedAgent(
      [{ content: [toolUse("call_1", "ranged")] }, Object.assign(new Error("Bad request"), { status: 400 })],
      { tools: [ranged] },
    );

    const result = await agent.prompt("Go.");

    expect(onlySpan("execute_tool ranged").attributes["error.type"]).toBe("RangeError");
    expect(result.error?.name).toBe("ProviderError");
    const [, failedChat] = spansNamed(`chat ${MODEL}`);
    expect(failedChat!.status.code).toBe(SpanStatusCode.ERROR);
    expect(failedChat!.attributes["error.type"]).toBe("ProviderError"); // what the query reports
  });

  it("marks an unknown tool's and an invalid input's span as failed", async () => {
    const { agent } = tracedAgent([
      { content: [toolUse("call_1", "no_such_tool"), toolUse("call_2", "get_weather", { town: "Lisbon" })] },
      { content: "Sorry." },
    ]);

    await agent.prompt("Go.");

    const unknown = onlySpan("execute_tool no_such_tool");
    expect(unknown.status.code).toBe(SpanStatusCode.ERROR);
    expect(unknown.status.message).toContain('Unknown tool "no_such_tool"');
    const invalid = onlySpan("execute_tool get_weather");
    expect(invalid.status.code).toBe(SpanStatusCode.ERROR);
    expect(invalid.status.message).toContain("Invalid input");
  });

  it("gives every retried attempt its own chat span, the failed ones in error", async () => {
    const overloaded = () => Object.assign(new Error("Overloaded"), { status: 529 });
    const { agent, client } = tracedAgent([overloaded(), overloaded(), { content: "Finally." }]);

    const result = await agent.prompt("Hello?");

    expect(result.subtype).toBe("success");
    expect(client.callCount).toBe(3);
    const attempts = spansNamed(`chat ${MODEL}`);
    expect(attempts).toHaveLength(3);
    expect(attempts.map((span) => span.status.code)).toEqual([
      SpanStatusCode.ERROR,
      SpanStatusCode.ERROR,
      SpanStatusCode.UNSET,
    ]);
    expect(exceptionMessages(attempts[0]!).join(" ")).toContain("Overloaded");
    const root = onlySpan("invoke_agent forecaster");
    for (const attempt of attempts) expect(isChildOf(attempt, root)).toBe(true);
    expect(root.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(root.attributes["agent_lattice.num_turns"]).toBe(1);
  });

  it("names the fallback model on its own chat span after the primary's retries are spent", async () => {
    const overloaded = () => Object.assign(new Error("Overloaded"), { status: 529 });
    const { agent } = tracedAgent([overloaded(), { content: "From the fallback." }], {
      fallbackModel: "claude-haiku-4-5",
      retry: { maxRetries: 0 },
    });

    await agent.prompt("Hello?");

    expect(onlySpan(`chat ${MODEL}`).status.code).toBe(SpanStatusCode.ERROR);
    const fallback = onlySpan("chat claude-haiku-4-5");
    expect(fallback.attributes["gen_ai.request.model"]).toBe("claude-haiku-4-5");
    expect(fallback.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it("fails the chat span and the query span when the model call fails for good", async () => {
    const rejected = Object.assign(new Error("invalid x-api-key"), { status: 401 });
    const { agent } = tracedAgent([rejected]);

    const result = await agent.prompt("Hello?");

    expect(result.subtype).toBe("error_during_execution");
    const chat = onlySpan(`chat ${MODEL}`);
    expect(chat.status.code).toBe(SpanStatusCode.ERROR);
    expect(chat.status.message).toContain("invalid x-api-key");
    expect(chat.attributes).not.toHaveProperty("gen_ai.response.id");
    const root = onlySpan("invoke_agent forecaster");
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.attributes["agent_lattice.result.subtype"]).toBe("error_during_execution");
    expect(exceptionMessages(root).join(" ")).toContain("invalid x-api-key");
  });

  it("fails the query span of an error result, with the subtype recorded", async () => {
    const { agent } = tracedAgent(
      [
        { content: [toolUse("call_1", "get_weather", { city: "Lisbon" })] },
        { content: [toolUse("call_2", "get_weather", { city: "Porto" })] },
      ],
      { maxTurns: 2 },
    );

    const result = await agent.prompt("Loop.");

    expect(result.subtype).toBe("error_max_turns");
    const root = onlySpan("invoke_agent forecaster");
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.attributes["agent_lattice.result.subtype"]).toBe("error_max_turns");
    expect(root.attributes["error.type"]).toBe(result.error!.name);
  });

  it("fails a chat span cut by the request deadline with the TimeoutError", async () => {
    const { agent } = tracedAgent([{ content: "late", hang: true }], { requestTimeoutMs: 20 });

    const result = await agent.prompt("Hello?");

    expect(result.subtype).toBe("error_timeout");
    const chat = onlySpan(`chat ${MODEL}`);
    expect(chat.status.code).toBe(SpanStatusCode.ERROR);
    expect(chat.attributes["error.type"]).toBe("TimeoutError");
  });

  it("leaves an interrupted query span unfailed", async () => {
    const { agent } = tracedAgent([{ content: "never", hang: true }]);

    const pending = agent.prompt("Hello?");
    agent.interrupt();
    const result = await pending;

    expect(result.subtype).toBe("interrupted");
    const root = onlySpan("invoke_agent forecaster");
    expect(root.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(root.attributes["agent_lattice.result.subtype"]).toBe("interrupted");
  });

  it("ends the query span when the consumer stops reading early", async () => {
    const { agent } = tracedAgent(
      [{ content: [toolUse("call_1", "get_weather", { city: "Lisbon" })] }, { content: "Sunny." }],
      { streamingToolExecution: false }, // the call would start while the response streams
    );

    for await (const message of agent.query("Weather?")) if (message.type === "assistant") break;

    const root = onlySpan("invoke_agent forecaster");
    expect(root.ended).toBe(true);
    expect(spansNamed("execute_tool get_weather")).toHaveLength(0);
  });
});

describe("tracing compaction", () => {
  const isCompactionRequest = (request: ModelRequest) =>
    request.messages.some(
      (message) =>
        typeof message.content !== "string" &&
        message.content.some((block) => block.type === "text" && block.text === DEFAULT_COMPACTION_PROMPT),
    );

  it("opens a compaction span under the query span, with the summarising chat as its child", async () => {
    const main: ScriptedResponse[] = [
      {
        content: [toolUse("t1", "get_weather", { city: "Lisbon" })],
        usage: { input_tokens: 100, output_tokens: 5 },
      },
      {
        content: [toolUse("t2", "get_weather", { city: "Porto" })],
        usage: { input_tokens: 1_500, output_tokens: 5 },
      },
      { content: "Done.", usage: { input_tokens: 300, output_tokens: 5 } },
    ];
    const { agent } = tracedAgent(
      (request) =>
        isCompactionRequest(request)
          ? { content: "SUMMARY", usage: { input_tokens: 1_400, output_tokens: 50 } }
          : main.shift()!,
      { autoCompact: { thresholdTokens: 1_000, keepRecentMessages: 2 } },
    );

    const messages = await collect(agent.query("Collect the forecasts."));

    expect(messages.some((message) => message.type === "system" && message.subtype === "compaction")).toBe(
      true,
    );
    const root = onlySpan("invoke_agent forecaster");
    const compaction = onlySpan("compaction");
    expect(isChildOf(compaction, root)).toBe(true);
    expect(compaction.attributes).toMatchObject({
      "agent_lattice.compaction.trigger": "auto",
      "agent_lattice.compaction.outcome": "compacted",
      "agent_lattice.compaction.messages": 3,
    });
    const chats = spansNamed(`chat ${MODEL}`);
    expect(chats).toHaveLength(4);
    const summarising = chats.filter((span) => isChildOf(span, compaction));
    expect(summarising).toHaveLength(1);
    expect(summarising[0]!.attributes["gen_ai.usage.input_tokens"]).toBe(1_400);
    expect(chats.filter((span) => isChildOf(span, root))).toHaveLength(3);
  });

  it("fails the compaction span when the summary call fails, and the query goes on", async () => {
    const main: ScriptedResponse[] = [
      {
        content: [toolUse("t1", "get_weather", { city: "Lisbon" })],
        usage: { input_tokens: 100, output_tokens: 5 },
      },
      {
        content: [toolUse("t2", "get_weather", { city: "Porto" })],
        usage: { input_tokens: 1_500, output_tokens: 5 },
      },
      { content: "Done.", usage: { input_tokens: 300, output_tokens: 5 } },
    ];
    const { agent } = tracedAgent(
      (request) =>
        isCompactionRequest(request)
          ? Object.assign(new Error("summary refused"), { status: 400 })
          : main.shift()!,
      { autoCompact: { thresholdTokens: 1_000, keepRecentMessages: 2 } },
    );

    const result = await agent.prompt("Collect the forecasts.");

    expect(result.subtype).toBe("success");
    const compaction = onlySpan("compaction");
    expect(compaction.status.code).toBe(SpanStatusCode.ERROR);
    expect(compaction.attributes["agent_lattice.compaction.outcome"]).toBe("failed");
    const summarising = spansNamed(`chat ${MODEL}`).filter((span) => isChildOf(span, compaction));
    expect(summarising).toHaveLength(1);
    expect(summarising[0]!.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("fails the compaction span when the store throws the rewrite (failOnError), as the query span", async () => {
    const stored: ModelMessage[] = [];
    const store = defineHistoryStore({
      failOnError: true,
      load: async () => stored,
      append: async (message) => void stored.push(message),
      replace: async () => {
        throw new Error("disk full");
      },
    });
    const main: ScriptedResponse[] = [
      {
        content: [toolUse("t1", "get_weather", { city: "Lisbon" })],
        usage: { input_tokens: 1_500, output_tokens: 5 },
      },
    ];
    const { agent } = tracedAgent(
      (request) => (isCompactionRequest(request) ? { content: "SUMMARY" } : main.shift()!),
      { autoCompact: { thresholdTokens: 1_000, keepRecentMessages: 1 }, historyStore: store },
    );

    await expect(agent.prompt("Collect the forecasts.")).rejects.toBeInstanceOf(HistoryStoreError);

    const compaction = onlySpan("compaction");
    expect(compaction.status.code).toBe(SpanStatusCode.ERROR);
    expect(compaction.attributes["error.type"]).toBe("HistoryStoreError");
    expect(compaction.attributes["agent_lattice.compaction.outcome"]).toBe("failed");
    expect(onlySpan("invoke_agent forecaster").status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe("tracing the summary of a huge tool result", () => {
  const isToolResultSummaryRequest = (request: ModelRequest) =>
    request.messages.some(
      (message) =>
        typeof message.content !== "string" &&
        message.content.some(
          (block) => block.type === "text" && block.text === DEFAULT_TOOL_RESULT_SUMMARY_PROMPT,
        ),
    );
  const dump = defineTool({
    name: "dump",
    description: "Returns a huge text",
    inputSchema: z.object({}),
    readOnly: true,
    async execute() {
      return "x".repeat(500);
    },
  });

  it("opens a tool_result compaction span under the call's span, with the summarising chat as its child", async () => {
    const main: ScriptedResponse[] = [{ content: [toolUse("call_1", "dump")] }, { content: "Done." }];
    const { agent } = tracedAgent(
      (request) => (isToolResultSummaryRequest(request) ? { content: "A short summary." } : main.shift()!),
      { tools: [dump], compactToolResults: { thresholdChars: 100 } },
    );

    const messages = await collect(agent.query("Dump it."));

    expect(
      messages.some((message) => message.type === "system" && message.subtype === "tool_result_compaction"),
    ).toBe(true);
    const tool = onlySpan("execute_tool dump");
    const compaction = onlySpan("compaction");
    expect(isChildOf(compaction, tool)).toBe(true);
    expect(compaction.attributes).toMatchObject({
      "agent_lattice.compaction.trigger": "tool_result",
      "agent_lattice.compaction.outcome": "compacted",
    });
    const summarising = spansNamed(`chat ${MODEL}`).filter((span) => isChildOf(span, compaction));
    expect(summarising).toHaveLength(1);
    expect(
      spansNamed(`chat ${MODEL}`).filter((span) => isChildOf(span, onlySpan("invoke_agent forecaster"))),
    ).toHaveLength(2);
  });

  it("fails the span and records that the original was kept when the summary call fails", async () => {
    const main: ScriptedResponse[] = [{ content: [toolUse("call_1", "dump")] }, { content: "Done." }];
    const { agent } = tracedAgent(
      (request) =>
        isToolResultSummaryRequest(request)
          ? Object.assign(new Error("summary refused"), { status: 400 })
          : main.shift()!,
      { tools: [dump], compactToolResults: { thresholdChars: 100 } },
    );

    await agent.prompt("Dump it.");

    const compaction = onlySpan("compaction");
    expect(compaction.attributes["agent_lattice.compaction.outcome"]).toBe("kept_original");
    expect(compaction.status.code).toBe(SpanStatusCode.ERROR);
    expect(compaction.status.message).toContain("summary refused");
    const [summarising] = spansNamed(`chat ${MODEL}`).filter((span) => isChildOf(span, compaction));
    expect(summarising!.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe("the provider and server on chat spans", () => {
  it("come from the built-in client's base URL", async () => {
    const server = await startMockAnthropicServer({ responses: [{ content: "Hi." }] });
    try {
      const agent = createAgent({
        model: MODEL,
        client: createAnthropicClient({ apiKey: "sk-test", baseURL: server.url }),
        telemetry: { tracer: provider.getTracer("test") },
      });
      await agent.prompt("Hello");
      const { port } = new URL(server.url);
      expect(onlySpan(`chat ${MODEL}`).attributes).toMatchObject({
        "gen_ai.provider.name": "anthropic",
        "server.address": "127.0.0.1",
        "server.port": Number(port),
      });
    } finally {
      await server.close();
    }
  });

  it("come from a custom client's endpoint, and providerName overrides the name", async () => {
    const scripted = createScriptedClient([{ content: "Hi." }, { content: "Hi again." }]);
    const client = {
      createMessage: scripted.createMessage.bind(scripted),
      endpoint: { providerName: "deepseek", address: "api.deepseek.com", port: 443 },
    };
    const named = createAgent({ model: MODEL, client, telemetry: { tracer: provider.getTracer("test") } });
    await named.prompt("Hello");
    expect(onlySpan(`chat ${MODEL}`).attributes).toMatchObject({
      "gen_ai.provider.name": "deepseek",
      "server.address": "api.deepseek.com",
      "server.port": 443,
    });
    exporter.reset();

    const renamed = createAgent({
      model: MODEL,
      client,
      telemetry: { tracer: provider.getTracer("test"), providerName: "deepseek-via-gateway" },
    });
    await renamed.prompt("Hello");
    expect(onlySpan(`chat ${MODEL}`).attributes["gen_ai.provider.name"]).toBe("deepseek-via-gateway");
  });

  it("a client without an endpoint is named anthropic, without server attributes", async () => {
    const { agent } = tracedAgent([{ content: "Hi." }]);
    await agent.prompt("Hello");
    const attributes = onlySpan(`chat ${MODEL}`).attributes;
    expect(attributes["gen_ai.provider.name"]).toBe("anthropic");
    expect(attributes).not.toHaveProperty("server.address");
    expect(attributes).not.toHaveProperty("server.port");
  });
});

describe("spans started inside a tool or a model request", () => {
  let contextManager: AsyncLocalStorageContextManager;
  beforeEach(() => {
    // What an OpenTelemetry Node setup registers: async context follows awaits and callbacks.
    contextManager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(contextManager);
  });
  afterEach(() => {
    context.disable();
  });

  it("nest under execute_tool and chat: the call's span is active while it runs", async () => {
    const server = await startMockAnthropicServer({
      responses: [
        { content: [toolUse("call_1", "fetch_page", { url: "https://example.com" })] },
        { content: "Fetched." },
      ],
    });
    try {
      const tracer = provider.getTracer("test");
      // Stands in for HTTP instrumentation: a span per outgoing request, under the active span.
      const instrumentedFetch: typeof fetch = (input, init) =>
        tracer.startActiveSpan("HTTP POST", async (span) => {
          try {
            return await fetch(input, init);
          } finally {
            span.end();
          }
        });
      const fetchPage = defineTool({
        name: "fetch_page",
        inputSchema: z.object({ url: z.string() }),
        async execute({ url }) {
          await new Promise((resolve) => setTimeout(resolve, 5)); // context survives awaits
          return tracer.startActiveSpan("tool's own work", (span) => {
            span.end();
            return `fetched ${url}`;
          });
        },
      });
      const agent = createAgent({
        model: MODEL,
        client: createAnthropicClient({ apiKey: "sk-test", baseURL: server.url, fetch: instrumentedFetch }),
        tools: [fetchPage],
        telemetry: { tracer },
      });

      await agent.prompt("Fetch it");

      const tool = onlySpan("execute_tool fetch_page");
      expect(isChildOf(onlySpan("tool's own work"), tool)).toBe(true);
      const chats = spansNamed(`chat ${MODEL}`);
      const requests = spansNamed("HTTP POST");
      expect(chats).toHaveLength(2);
      expect(requests).toHaveLength(2);
      for (const [index, request] of requests.entries()) expect(isChildOf(request, chats[index]!)).toBe(true);
      // Nothing leaks: the query span is a root, and the context after the query is the outer one.
      expect(onlySpan("invoke_agent").parentSpanContext).toBeUndefined();
      expect(trace.getActiveSpan()).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});

describe("the tracer", () => {
  afterEach(() => {
    trace.disable();
  });

  it("uses the global tracer provider with telemetry: true", async () => {
    trace.setGlobalTracerProvider(provider);
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: "Hi." }]),
      telemetry: true,
    });

    await agent.prompt("Hello?");

    expect(
      spans()
        .map((span) => span.name)
        .sort(),
    ).toEqual([`chat ${MODEL}`, "invoke_agent"]);
    expect(onlySpan("invoke_agent").instrumentationScope.name).toBe("agent-lattice");
  });

  it("records nothing without telemetry, even with a global tracer provider registered", async () => {
    trace.setGlobalTracerProvider(provider);
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([
        { content: [toolUse("call_1", "get_weather", { city: "Lisbon" })] },
        { content: "Hi." },
      ]),
      tools: [weather],
    });

    const result = await agent.prompt("Hello?");

    expect(result.subtype).toBe("success");
    expect(spans()).toEqual([]);
  });

  it("records nothing with telemetry: false", async () => {
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: "Hi." }]),
      telemetry: false,
    });
    trace.setGlobalTracerProvider(provider);

    await agent.prompt("Hello?");

    expect(spans()).toEqual([]);
  });
});
