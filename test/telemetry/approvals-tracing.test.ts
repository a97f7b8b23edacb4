/** The agent span records a pause for approval and the resume that follows it (inside a subagent too). */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, defineSubagent, defineTool } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { toolUse } from "../loop/support";
import { resultsIn, routedClient } from "../subagents/support";

/** An OpenTelemetry `[seconds, nanoseconds]` time as one number of nanoseconds. */
const nanoseconds = ([seconds, nanos]: [number, number]): bigint =>
  BigInt(seconds) * 1_000_000_000n + BigInt(nanos);

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});

afterEach(async () => {
  await provider.shutdown();
});

it("the invoke_agent span of the pause and of the resume say so", async () => {
  const deploy = defineTool({
    name: "deploy",
    inputSchema: z.object({}),
    needsApproval: true,
    execute: () => "deployed",
  });
  const client = createScriptedClient([{ content: [toolUse("d1", "deploy")] }, { content: "done" }]);
  const agent = createAgent({
    model: "claude-sonnet-4-6",
    client,
    tools: [deploy],
    telemetry: { tracer: provider.getTracer("test") },
  });
  await agent.prompt("deploy");
  await agent.prompt({ approvals: { d1: { approved: true } } });
  const agents = exporter.getFinishedSpans().filter((span) => span.name.startsWith("invoke_agent"));
  expect(agents).toHaveLength(2);
  expect(agents[0]!.attributes).toMatchObject({
    "agent_lattice.result.subtype": "requires_approval",
    "agent_lattice.approvals.paused": true,
    "agent_lattice.approvals.pending": 1,
    "agent_lattice.approvals.pending_ids": ["d1"],
  });
  expect(agents[0]!.status.code).not.toBe(2); // not an error
  expect(agents[1]!.attributes).toMatchObject({
    "agent_lattice.result.subtype": "success",
    "agent_lattice.approvals.resumed": true,
    "agent_lattice.approvals.approved": 1,
    "agent_lattice.approvals.denied": 0,
  });
  const tools = exporter.getFinishedSpans().filter((span) => span.name.startsWith("execute_tool"));
  expect(tools.map((span) => span.attributes["agent_lattice.tool.awaiting_approval"])).toEqual([
    true,
    undefined,
  ]);
});

it("the pause and the resume are events on the invoke_agent span, with their attributes", async () => {
  const deploy = defineTool({
    name: "deploy",
    inputSchema: z.object({}),
    needsApproval: true,
    execute: () => "deployed",
  });
  const client = createScriptedClient([
    { content: [toolUse("d1", "deploy"), toolUse("d2", "deploy")] },
    { content: "one deployed" },
  ]);
  const agent = createAgent({
    model: "claude-sonnet-4-6",
    client,
    tools: [deploy],
    telemetry: { tracer: provider.getTracer("test") },
  });
  await agent.prompt("deploy twice");
  await agent.prompt({ approvals: { d1: { approved: true }, d2: { approved: false, message: "no" } } });
  const [pause, resume] = exporter.getFinishedSpans().filter((span) => span.name.startsWith("invoke_agent"));
  expect(pause!.events.map((event) => event.name)).toEqual(["agent_lattice.approvals.paused"]);
  expect(pause!.events[0]!.attributes).toEqual({
    "agent_lattice.approvals.pending": 2,
    "agent_lattice.approvals.pending_ids": ["d1", "d2"],
    "agent_lattice.approvals.tool_names": ["deploy", "deploy"],
  });
  expect(resume!.events.map((event) => event.name)).toEqual(["agent_lattice.approvals.resumed"]);
  expect(resume!.events[0]!.attributes).toEqual({
    "agent_lattice.approvals.approved": 1,
    "agent_lattice.approvals.denied": 1,
    "agent_lattice.approvals.approved_ids": ["d1"],
    "agent_lattice.approvals.denied_ids": ["d2"],
  });
  // The resume event comes before the tool spans of the resumed batch start.
  const toolStart = exporter
    .getFinishedSpans()
    .filter((span) => span.name === "execute_tool deploy")
    .map((span) => nanoseconds(span.startTime))
    .at(-1)!;
  // Tool spans are started at a millisecond timestamp, events at a finer one: compare milliseconds.
  expect(nanoseconds(resume!.events[0]!.time) / 1_000_000n).toBeLessThanOrEqual(toolStart / 1_000_000n);
});

it("a plain prompt over a pause records a superseded event; a query that does not pause records none", async () => {
  const deploy = defineTool({
    name: "deploy",
    inputSchema: z.object({}),
    needsApproval: true,
    execute: () => "deployed",
  });
  const client = createScriptedClient([
    { content: [toolUse("d1", "deploy")] },
    { content: "fine, not deploying" },
    { content: "hello" },
  ]);
  const agent = createAgent({
    model: "claude-sonnet-4-6",
    client,
    tools: [deploy],
    telemetry: { tracer: provider.getTracer("test") },
  });
  await agent.prompt("deploy");
  await agent.prompt("never mind");
  await agent.prompt("hi");
  const spans = exporter.getFinishedSpans().filter((span) => span.name.startsWith("invoke_agent"));
  expect(spans.map((span) => span.events.map((event) => event.name))).toEqual([
    ["agent_lattice.approvals.paused"],
    ["agent_lattice.approvals.superseded"],
    [],
  ]);
  expect(spans[1]!.events[0]!.attributes).toEqual({
    "agent_lattice.approvals.denied": 1,
    "agent_lattice.approvals.denied_ids": ["d1"],
  });
});

it("a pause inside a subagent: the parent's paused and resumed events list the child's call ids", async () => {
  const deploy = defineTool({
    name: "deploy",
    inputSchema: z.object({}),
    needsApproval: true,
    execute: () => "deployed",
  });
  const releaser = defineSubagent({
    name: "releaser",
    description: "Releases",
    systemPrompt: "You release.",
    tools: [deploy],
  });
  const client = routedClient({
    "": (request) =>
      resultsIn(request).length === 0
        ? { content: [toolUse("p1", "releaser", { prompt: "Ship" })] }
        : { content: "released" },
    "You release.": (request) =>
      resultsIn(request).length === 0 ? { content: [toolUse("c1", "deploy")] } : { content: "deployed" },
  });
  const agent = createAgent({
    model: "claude-sonnet-4-6",
    client,
    tools: [releaser],
    telemetry: { tracer: provider.getTracer("test") },
  });
  await agent.prompt("release");
  await agent.prompt({ approvals: { c1: { approved: true } } });
  // The parent's own query spans: the roots (a child's spans nest under its execute_tool span).
  const roots = exporter
    .getFinishedSpans()
    .filter((span) => span.name.startsWith("invoke_agent") && span.parentSpanContext === undefined);
  expect(roots).toHaveLength(2);
  const event = (index: number, name: string) =>
    roots[index]!.events.find((candidate) => candidate.name === name)?.attributes;
  expect(roots[0]!.attributes).toMatchObject({
    "agent_lattice.result.subtype": "requires_approval",
    "agent_lattice.approvals.pending_ids": ["c1"],
  });
  expect(event(0, "agent_lattice.approvals.paused")).toEqual({
    "agent_lattice.approvals.pending": 1,
    "agent_lattice.approvals.pending_ids": ["c1"],
    "agent_lattice.approvals.tool_names": ["deploy"],
  });
  expect(event(1, "agent_lattice.approvals.resumed")).toMatchObject({
    "agent_lattice.approvals.approved": 1,
    "agent_lattice.approvals.approved_ids": ["c1"],
  });
  expect(roots[1]!.attributes["agent_lattice.result.subtype"]).toBe("success");
});
