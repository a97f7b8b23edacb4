/**
 * Subagent tracing: the child's `invoke_agent` span is a child of the parent's `execute_tool` span
 * of the call that started it, and the child's `chat` spans are its own children.
 */
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent, defineSubagent } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { MODEL, toolUse } from "../loop/support";

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;
let contextManager: AsyncLocalStorageContextManager;

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
});

afterEach(async () => {
  context.disable();
  await provider.shutdown();
});

function named(name: string): ReadableSpan {
  const found = exporter.getFinishedSpans().filter((span) => span.name === name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
}

function isChildOf(child: ReadableSpan, parent: ReadableSpan): boolean {
  return (
    child.parentSpanContext?.spanId === parent.spanContext().spanId &&
    child.spanContext().traceId === parent.spanContext().traceId
  );
}

describe("subagent telemetry", () => {
  it("nests the child's invoke_agent span under the parent's execute_tool span", async () => {
    const client = createScriptedClient([
      { content: [toolUse("t1", "researcher", { prompt: "q" })] },
      { content: "child answer", model: "claude-haiku-4-5" },
      { content: "done" },
    ]);
    const tracer = provider.getTracer("test");
    const researcher = defineSubagent({
      name: "researcher",
      description: "Researches.",
      model: "claude-haiku-4-5",
      telemetry: { tracer, agentName: "researcher" },
    });
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [researcher],
      telemetry: { tracer, agentName: "lead" },
    });
    expect((await agent.prompt("go")).result).toBe("done");
    const lead = named("invoke_agent lead");
    const call = named("execute_tool researcher");
    const child = named("invoke_agent researcher");
    expect(isChildOf(call, lead)).toBe(true);
    expect(isChildOf(child, call)).toBe(true);
    expect(child.attributes["gen_ai.operation.name"]).toBe("invoke_agent");
    expect(isChildOf(named("chat claude-haiku-4-5"), child)).toBe(true);
  });
});
