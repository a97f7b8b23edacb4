/** The agent span records a pause for approval and the resume that follows it. */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, defineTool } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { toolUse } from "../loop/support";

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
