/**
 * Subagent tracing: each child's `invoke_agent` span is a child of the parent's `execute_tool`
 * span of the call that started it, and the child's `chat` and `execute_tool` spans are its own
 * children, with the GenAI attributes the parent's spans have. A child without `telemetry` of its
 * own records with the parent's tracer and settings; the nesting holds with and without a context
 * manager, for three children running at once, and over HTTP.
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
import { z } from "zod";
import { createAgent, createAnthropicClient, defineSubagent, defineTool } from "../../src/index";
import { createScriptedClient, startMockAnthropicServer } from "../../src/testing/index";
import { deferred, MODEL, toolUse, within } from "../loop/support";
import { firstPrompt, resultsIn, routedClient } from "./support";

const CHILD_MODEL = "claude-haiku-4-5";

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});

afterEach(async () => {
  await provider.shutdown();
});

function spansNamed(name: string): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((span) => span.name === name);
}

function named(name: string): ReadableSpan {
  const found = spansNamed(name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
}

function isChildOf(child: ReadableSpan, parent: ReadableSpan): boolean {
  return (
    child.parentSpanContext?.spanId === parent.spanContext().spanId &&
    child.spanContext().traceId === parent.spanContext().traceId
  );
}

/** The one span named `name` whose parent is `parent`. */
function childNamed(parent: ReadableSpan, name: string): ReadableSpan {
  const found = spansNamed(name).filter((span) => isChildOf(span, parent));
  expect(found, `${name} under ${parent.name}`).toHaveLength(1);
  return found[0]!;
}

const lookup = defineTool({
  name: "lookup",
  inputSchema: z.object({}),
  readOnly: true,
  execute: () => "looked up",
});

/** A parent that calls `researcher` once; the child calls `lookup`, then answers. */
function oneChildScript() {
  return createScriptedClient([
    {
      content: [toolUse("t1", "researcher", { prompt: "q" })],
      usage: { input_tokens: 50, output_tokens: 5 },
    },
    {
      content: [toolUse("c1", "lookup")],
      model: CHILD_MODEL,
      id: "msg_child_1",
      usage: { input_tokens: 30, output_tokens: 3 },
    },
    { content: "child answer", model: CHILD_MODEL, usage: { input_tokens: 40, output_tokens: 4 } },
    { content: "done", usage: { input_tokens: 60, output_tokens: 6 } },
  ]);
}

/** Checks the tree lead → execute_tool researcher → invoke_agent researcher → chat / execute_tool lookup. */
function expectChildTree(): void {
  const lead = named("invoke_agent lead");
  const call = childNamed(lead, "execute_tool researcher");
  const child = childNamed(call, "invoke_agent researcher");
  const parentChat = spansNamed(`chat ${MODEL}`);
  expect(parentChat).toHaveLength(2);
  for (const span of parentChat) expect(isChildOf(span, lead)).toBe(true);
  const childChats = spansNamed(`chat ${CHILD_MODEL}`);
  expect(childChats).toHaveLength(2);
  for (const span of childChats) expect(isChildOf(span, child)).toBe(true);
  const childTool = childNamed(child, "execute_tool lookup");
  // The GenAI attributes the parent's spans have, on the child's.
  expect(child.attributes).toMatchObject({
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": "researcher",
    "gen_ai.request.model": CHILD_MODEL,
    "agent_lattice.result.subtype": "success",
    "agent_lattice.num_turns": 2,
    "gen_ai.usage.input_tokens": 70,
    "gen_ai.usage.output_tokens": 7,
  });
  expect(Object.keys(child.attributes).sort()).toEqual(Object.keys(lead.attributes).sort());
  expect(Object.keys(childChats[0]!.attributes).sort()).toEqual(
    Object.keys(parentChat[0]!.attributes).sort(),
  );
  expect(childChats[0]!.attributes).toMatchObject({
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": "anthropic",
    "gen_ai.request.model": CHILD_MODEL,
    "gen_ai.response.id": "msg_child_1",
    "gen_ai.usage.input_tokens": 30,
  });
  expect(childTool.attributes).toMatchObject({
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": "lookup",
    "gen_ai.tool.call.id": "c1",
  });
  // The child's work is in the lead's trace.
  for (const span of exporter.getFinishedSpans())
    expect(span.spanContext().traceId).toBe(lead.spanContext().traceId);
}

describe("subagent telemetry, with a context manager", () => {
  beforeEach(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterEach(() => {
    context.disable();
  });

  it("nests a child with telemetry of its own under the parent's execute_tool span", async () => {
    const tracer = provider.getTracer("test");
    const researcher = defineSubagent({
      name: "researcher",
      description: "Researches.",
      model: CHILD_MODEL,
      tools: [lookup],
      telemetry: { tracer, agentName: "researcher" },
    });
    const agent = createAgent({
      model: MODEL,
      client: oneChildScript(),
      tools: [researcher],
      telemetry: { tracer, agentName: "lead" },
    });
    expect((await agent.prompt("go")).result).toBe("done");
    expectChildTree();
  });

  it("traces a child without telemetry of its own with the parent's tracer, under the call's span", async () => {
    const researcher = defineSubagent({
      name: "researcher",
      description: "Researches.",
      model: CHILD_MODEL,
      tools: [lookup],
    });
    const agent = createAgent({
      model: MODEL,
      client: oneChildScript(),
      tools: [researcher],
      telemetry: { tracer: provider.getTracer("test"), agentName: "lead" },
    });
    expect((await agent.prompt("go")).result).toBe("done");
    expectChildTree();
  });

  it("puts each of three children running at once under its own execute_tool span", async () => {
    const barrier = deferred();
    let arrived = 0;
    const client = routedClient({
      "": (request) =>
        resultsIn(request).length === 0
          ? { content: ["a", "b", "c"].map((id) => toolUse(id, "search", { prompt: id })) }
          : { content: resultsIn(request).join(" | ") },
      "Search.": async (request) => {
        if (resultsIn(request).length > 0) return { content: `found ${firstPrompt(request)}` };
        if (++arrived === 3) barrier.resolve();
        await barrier.promise; // a serial run would never open it
        return { content: [toolUse(`look_${firstPrompt(request)}`, "lookup")] };
      },
    });
    const search = defineSubagent({
      name: "search",
      description: "Searches.",
      systemPrompt: "Search.",
      readOnly: true,
      tools: [lookup],
    });
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [search],
      toolConcurrency: 3,
      telemetry: { tracer: provider.getTracer("test"), agentName: "lead" },
    });
    const result = await within(agent.prompt("go"), 5_000);
    expect(result === "still pending" ? result : result.result).toBe("found a | found b | found c");
    const lead = named("invoke_agent lead");
    const calls = spansNamed("execute_tool search");
    expect(calls).toHaveLength(3);
    for (const id of ["a", "b", "c"]) {
      const call = calls.find((span) => span.attributes["gen_ai.tool.call.id"] === id)!;
      expect(isChildOf(call, lead)).toBe(true);
      const child = childNamed(call, "invoke_agent search");
      expect(spansNamed(`chat ${MODEL}`).filter((span) => isChildOf(span, child))).toHaveLength(2);
      const tool = childNamed(child, "execute_tool lookup");
      expect(tool.attributes["gen_ai.tool.call.id"]).toBe(`look_${id}`);
    }
  });

  it("records nothing for a child with telemetry: false", async () => {
    const researcher = defineSubagent({
      name: "researcher",
      description: "Researches.",
      model: CHILD_MODEL,
      tools: [lookup],
      telemetry: false,
    });
    const agent = createAgent({
      model: MODEL,
      client: oneChildScript(),
      tools: [researcher],
      telemetry: { tracer: provider.getTracer("test"), agentName: "lead" },
    });
    await agent.prompt("go");
    expect(spansNamed("invoke_agent researcher")).toHaveLength(0);
    expect(spansNamed(`chat ${CHILD_MODEL}`)).toHaveLength(0);
    expect(spansNamed("execute_tool researcher")).toHaveLength(1);
  });
});

describe("subagent telemetry, without a context manager", () => {
  it("still nests the inherited child under the call's span: the parent span is passed, not looked up", async () => {
    const researcher = defineSubagent({
      name: "researcher",
      description: "Researches.",
      model: CHILD_MODEL,
      tools: [lookup],
    });
    const agent = createAgent({
      model: MODEL,
      client: oneChildScript(),
      tools: [researcher],
      telemetry: { tracer: provider.getTracer("test"), agentName: "lead" },
    });
    expect((await agent.prompt("go")).result).toBe("done");
    expectChildTree();
  });

  it("nests a child with telemetry of its own under the call's span too", async () => {
    const tracer = provider.getTracer("test");
    const researcher = defineSubagent({
      name: "researcher",
      description: "Researches.",
      model: CHILD_MODEL,
      tools: [lookup],
      telemetry: { tracer, agentName: "researcher" },
    });
    const agent = createAgent({
      model: MODEL,
      client: oneChildScript(),
      tools: [researcher],
      telemetry: { tracer, agentName: "lead" },
    });
    expect((await agent.prompt("go")).result).toBe("done");
    expectChildTree();
  });

  it("does not lend the parent's providerName to a child with a client of its own", async () => {
    const childClient = createScriptedClient([{ content: "child answer", model: CHILD_MODEL }]);
    const researcher = defineSubagent({
      name: "researcher",
      description: "Researches.",
      model: CHILD_MODEL,
      client: childClient,
    });
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([
        { content: [toolUse("t1", "researcher", { prompt: "q" })] },
        { content: "done" },
      ]),
      tools: [researcher],
      telemetry: { tracer: provider.getTracer("test"), agentName: "lead", providerName: "gateway" },
    });
    await agent.prompt("go");
    expect(spansNamed(`chat ${MODEL}`)[0]!.attributes["gen_ai.provider.name"]).toBe("gateway");
    expect(named(`chat ${CHILD_MODEL}`).attributes["gen_ai.provider.name"]).toBe("anthropic");
    expect(isChildOf(named("invoke_agent researcher"), named("execute_tool researcher"))).toBe(true);
  });

  it("records no child spans when the parent does not trace", async () => {
    const researcher = defineSubagent({ name: "researcher", description: "Researches.", model: CHILD_MODEL });
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([
        { content: [toolUse("t1", "researcher", { prompt: "q" })] },
        { content: "child answer", model: CHILD_MODEL },
        { content: "done" },
      ]),
      tools: [researcher],
    });
    expect((await agent.prompt("go")).result).toBe("done");
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it("gives a child over HTTP the server attributes of the client it shares with the parent", async () => {
    const server = await startMockAnthropicServer({
      responses: [
        { content: [toolUse("t1", "researcher", { prompt: "q" })] },
        { content: "child answer" },
        { content: "done" },
      ],
    });
    try {
      const researcher = defineSubagent({ name: "researcher", description: "Researches." });
      const agent = createAgent({
        model: MODEL,
        client: createAnthropicClient({ apiKey: "sk-test-spans", baseURL: server.url, stream: true }),
        tools: [researcher],
        telemetry: { tracer: provider.getTracer("test"), agentName: "lead", providerName: "gateway" },
      });
      expect((await agent.prompt("go")).result).toBe("done");
      const call = named("execute_tool researcher");
      const child = childNamed(call, "invoke_agent researcher");
      const chats = spansNamed(`chat ${MODEL}`);
      expect(chats).toHaveLength(3);
      const childChat = chats.find((span) => isChildOf(span, child))!;
      const { port } = new URL(server.url);
      expect(childChat.attributes).toMatchObject({
        "gen_ai.provider.name": "gateway",
        "server.address": "127.0.0.1",
        "server.port": Number(port),
      });
      for (const span of exporter.getFinishedSpans())
        expect(JSON.stringify(span.attributes)).not.toContain("sk-test-spans");
    } finally {
      await server.close();
    }
  });
});
