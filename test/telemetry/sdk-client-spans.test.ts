/**
 * The spans an injected Anthropic SDK client makes (`anthropic.messages.create`): with `telemetry`
 * on, children of the agent's `chat` span — never orphan roots, never a second `chat` — with or
 * without an OpenTelemetry context manager; with it off, what the SDK emits on its own.
 */
import Anthropic from "@anthropic-ai/sdk";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, createAnthropicClient, defineTool } from "../../src/index";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing/index";

const MODEL = "claude-sonnet-4-6";

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;
let mock: MockAnthropicServer;

const lookup = defineTool({
  name: "lookup",
  description: "Looks a word up",
  inputSchema: z.object({ word: z.string() }),
  readOnly: true,
  execute: async ({ word }) => `${word}: a word`,
});

beforeEach(async () => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  // The SDK client traces with the global provider, as an application's setup registers it.
  trace.setGlobalTracerProvider(provider);
  mock = await startMockAnthropicServer({
    responses: [
      { content: [{ type: "tool_use", id: "toolu_1", name: "lookup", input: { word: "lattice" } }] },
      { content: "A lattice is a grid." },
    ],
  });
});

afterEach(async () => {
  await mock.close();
  await provider.shutdown();
  trace.disable();
  context.disable();
});

function sdk(options: ConstructorParameters<typeof Anthropic>[0] = {}) {
  return new Anthropic({ apiKey: "sdk-span-test-key", baseURL: mock.url, ...options });
}

async function run(client: Anthropic, telemetry: boolean): Promise<ReadableSpan[]> {
  const agent = createAgent({
    model: MODEL,
    client: createAnthropicClient({ anthropic: client }),
    tools: [lookup],
    telemetry: telemetry ? { tracer: provider.getTracer("agent") } : false,
  });
  const result = await agent.prompt("What is a lattice?");
  expect(result.subtype).toBe("success");
  return exporter.getFinishedSpans();
}

const named = (spans: ReadableSpan[], prefix: string) => spans.filter((span) => span.name.startsWith(prefix));
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe.each([
  { setup: "without a context manager", contextManager: false },
  { setup: "with a context manager", contextManager: true },
])("telemetry on, an injected SDK client ($setup)", ({ contextManager }) => {
  beforeEach(() => {
    if (contextManager) context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });

  it("puts each anthropic.messages.create span under its own chat span, and adds no chat span", async () => {
    const spans = await run(sdk(), true);
    const chats = named(spans, "chat ");
    const calls = named(spans, "anthropic.messages.create");
    expect(chats).toHaveLength(2);
    expect(calls).toHaveLength(2);
    // Ordered by start: the i-th SDK span belongs to the i-th chat span.
    const byStart = (a: ReadableSpan, b: ReadableSpan) =>
      a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1];
    chats.sort(byStart);
    calls.sort(byStart);
    calls.forEach((call, index) => {
      expect(parentOf(call)).toBe(chats[index]!.spanContext().spanId);
      expect(call.spanContext().traceId).toBe(chats[index]!.spanContext().traceId);
    });
    const roots = spans.filter((span) => parentOf(span) === undefined);
    expect(roots.map((span) => span.name)).toEqual(["invoke_agent"]);
  });

  it("a client with its own spans off (openTelemetry: false) adds none", async () => {
    const spans = await run(sdk({ openTelemetry: false }), true);
    expect(named(spans, "anthropic.")).toEqual([]);
    expect(named(spans, "chat ")).toHaveLength(2);
  });
});

describe("telemetry off, an injected SDK client", () => {
  it("the SDK traces on its own: its spans are roots, as the docs say", async () => {
    const spans = await run(sdk(), false);
    const calls = named(spans, "anthropic.messages.create");
    expect(calls).toHaveLength(2);
    for (const call of calls) expect(parentOf(call)).toBeUndefined();
    expect(named(spans, "chat ")).toEqual([]);
  });

  it("openTelemetry: false silences it", async () => {
    expect(await run(sdk({ openTelemetry: false }), false)).toEqual([]);
  });
});

describe("the built-in client (no SDK)", () => {
  it("makes no span of its own: one chat span per request, nothing under it", async () => {
    const agent = createAgent({
      model: MODEL,
      client: createAnthropicClient({ apiKey: "k-1234", baseURL: mock.url }),
      tools: [lookup],
      telemetry: { tracer: provider.getTracer("agent") },
    });
    expect((await agent.prompt("What is a lattice?")).subtype).toBe("success");
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name).sort()).toEqual(
      ["chat claude-sonnet-4-6", "chat claude-sonnet-4-6", "execute_tool lookup", "invoke_agent"].sort(),
    );
  });
});
