/**
 * Handoffs together with what exists, over the mock Messages API server: usage and cost by agent
 * (`agent_usage`), spans naming the answering agent, `maxTurns` and `maxBudgetUsd` counted across
 * agents, a specialist's subagents and skills, and faults — a specialist whose model answers 500
 * and 429, an abort while the specialist's request runs.
 */
import { SpanKind } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import {
  createAgent,
  defineHandoff,
  defineSkill,
  defineSubagent,
  type HandoffDefinition,
  isWellFormedHistory,
  type SDKMessage,
} from "../../src/index";
import { createAnthropicClient } from "../../src/model/anthropic";
import { collect, MODEL, toolUse, until } from "../loop/support";
import { mockServerPerTest } from "../support/mock-server";

const SPECIALIST_MODEL = "claude-haiku-4-5";
type Body = { model: string; system?: Array<{ text: string }>; tools?: Array<{ name: string }> };
const systemOf = (body: Body) => (body.system ?? []).map((block) => block.text).join("");

describe("handoffs with the rest of the SDK", () => {
  const server = mockServerPerTest();
  const client = () =>
    createAnthropicClient({ apiKey: "sk-ant-handoffs-together-0123456789", baseURL: server.url });
  const bodies = () => server.requests.map((request) => request.body as Body);
  const billing = (extra: Partial<HandoffDefinition> = {}) =>
    defineHandoff({
      name: "billing",
      description: "Invoices.",
      systemPrompt: "Billing.",
      model: SPECIALIST_MODEL,
      ...extra,
    });

  it("reports usage and cost by agent, then model, in agent_usage; model_usage stays by model", async () => {
    server.enqueue(
      { content: [toolUse("h1", "transfer_to_billing")], usage: { input_tokens: 1000, output_tokens: 10 } },
      { content: "Paid.", usage: { input_tokens: 2000, output_tokens: 20 } },
    );
    const agent = createAgent({ model: MODEL, client: client(), name: "triage", handoffs: [billing()] });
    const result = await agent.prompt("invoice?");
    expect(Object.keys(result.agent_usage ?? {})).toEqual(["triage", "billing"]);
    expect(result.agent_usage!.triage![MODEL]).toMatchObject({ input_tokens: 1000, output_tokens: 10 });
    expect(result.agent_usage!.billing![SPECIALIST_MODEL]).toMatchObject({
      input_tokens: 2000,
      output_tokens: 20,
    });
    const byAgent = Object.values(result.agent_usage!).flatMap((models) => Object.values(models));
    const total = byAgent.reduce((sum, entry) => sum + entry.cost_usd, 0);
    expect(total).toBeCloseTo(result.total_cost_usd, 12);
    expect(result.total_cost_usd).toBeGreaterThan(0);
    expect(Object.keys(result.model_usage).sort()).toEqual([SPECIALIST_MODEL, MODEL].sort());
    // Without handoffs there is no agent_usage.
    server.enqueue({ content: "plain" });
    const plain = await createAgent({ model: MODEL, client: client() }).prompt("hi");
    expect(plain.agent_usage).toBeUndefined();
  });

  it("names the answering agent on each request's span", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    server.enqueue({ content: [toolUse("h1", "transfer_to_billing")] }, { content: "Paid." });
    const agent = createAgent({
      model: MODEL,
      client: client(),
      name: "triage",
      handoffs: [billing()],
      telemetry: { tracer: provider.getTracer("test") },
    });
    await agent.prompt("invoice?");
    const chats = exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.CLIENT);
    expect(chats.map((span) => [span.name, span.attributes["gen_ai.agent.name"]])).toEqual([
      [`chat ${MODEL}`, "triage"],
      [`chat ${SPECIALIST_MODEL}`, "billing"],
    ]);
    await provider.shutdown();
  });

  it("counts maxTurns across agents", async () => {
    server.enqueue(
      { content: [toolUse("h1", "transfer_to_billing")] },
      { content: [toolUse("h2", "transfer_to_triage")] },
      { content: "never" },
    );
    const agent = createAgent({
      model: MODEL,
      client: client(),
      name: "triage",
      maxTurns: 2,
      handoffs: [billing()],
    });
    const result = await agent.prompt("loop");
    expect(result).toMatchObject({ subtype: "error_max_turns", num_turns: 2 });
    expect(server.requests).toHaveLength(2);
    expect(isWellFormedHistory(await agent.getHistory())).toBe(true);
  });

  it("counts maxBudgetUsd across agents", async () => {
    const million = { input_tokens: 1_000_000, output_tokens: 0 };
    server.enqueue(
      { content: [toolUse("h1", "transfer_to_billing")], usage: million },
      { content: [toolUse("h2", "transfer_to_triage")], usage: million },
      { content: "never", usage: million },
    );
    const agent = createAgent({
      model: MODEL,
      client: client(),
      name: "triage",
      maxBudgetUsd: 3.5, // one sonnet million ($3) is under it, with the haiku million over it
      handoffs: [billing()],
    });
    const result = await agent.prompt("spend");
    expect(result.subtype).toBe("error_max_budget_usd");
    expect(server.requests).toHaveLength(2);
    expect(Object.keys(result.agent_usage!)).toEqual(["triage", "billing"]);
  });

  it("runs a specialist's subagent and offers its skills, not the root's", async () => {
    const researcher = defineSubagent({
      name: "researcher",
      description: "Looks things up.",
      systemPrompt: "Research.",
    });
    const policy = defineSkill({
      name: "refund-policy",
      description: "The refund policy. Use for refund questions.",
      instructions: "Refunds within 30 days.",
    });
    server.enqueue(
      { content: [toolUse("h1", "transfer_to_billing")] },
      { content: [toolUse("s1", "researcher", { prompt: "find invoice A7" })] },
      { content: "A7 is paid." },
      { content: "Researched: paid." },
    );
    const agent = createAgent({
      model: MODEL,
      client: client(),
      name: "triage",
      handoffs: [billing({ tools: [researcher], skills: [policy] })],
    });
    const messages = await collect(agent.query("invoice A7?"));
    const result = messages.at(-1) as Extract<SDKMessage, { type: "result" }>;
    expect(result).toMatchObject({ subtype: "success", result: "Researched: paid." });
    const [root, specialist, child] = bodies();
    expect((root!.tools ?? []).map((tool) => tool.name)).toEqual(["transfer_to_billing"]);
    expect((specialist!.tools ?? []).map((tool) => tool.name).sort()).toEqual(
      ["researcher", "skill", "transfer_to_triage"].sort(),
    );
    expect(systemOf(specialist!)).toContain("refund-policy");
    expect(systemOf(root!)).not.toContain("refund-policy");
    expect(systemOf(child!)).toBe("Research.");
    expect(messages.some((m) => m.parent_tool_use_id === "s1")).toBe(true);
  });

  it("a specialist whose model answers 500 then 429 is retried as usual; history stays well-formed", async () => {
    server.enqueue(
      { content: [toolUse("h1", "transfer_to_billing")] },
      { fault: "status", status: 500 },
      { fault: "status", status: 429, headers: { "retry-after": "0" } },
      { content: "Paid." },
    );
    const agent = createAgent({
      model: MODEL,
      client: client(),
      name: "triage",
      retry: { maxRetries: 2, initialDelayMs: 0, maxDelayMs: 0 },
      handoffs: [billing()],
    });
    const messages = await collect(agent.query("invoice?"));
    expect(messages.filter((m) => m.type === "system" && m.subtype === "api_retry")).toHaveLength(2);
    expect(messages.at(-1)).toMatchObject({ type: "result", subtype: "success", result: "Paid." });
    expect(
      bodies()
        .slice(1)
        .every((body) => body.model === SPECIALIST_MODEL),
    ).toBe(true);
    expect(isWellFormedHistory(await agent.getHistory())).toBe(true);
  });

  it("an abort right after the handoff ends error_abort before the specialist's request; it answers the next prompt", async () => {
    server.enqueue({ content: [toolUse("h1", "transfer_to_billing")] }, { content: "Billing back." });
    const agent = createAgent({ model: MODEL, client: client(), name: "triage", handoffs: [billing()] });
    const controller = new AbortController();
    const seen: SDKMessage[] = [];
    for await (const message of agent.query("invoice?", { signal: controller.signal })) {
      seen.push(message);
      if (message.type === "system" && message.subtype === "handoff") controller.abort();
    }
    expect(seen.at(-1)).toMatchObject({ type: "result", subtype: "error_abort" });
    expect(server.requests).toHaveLength(1);
    expect(isWellFormedHistory(await agent.getHistory())).toBe(true);
    expect(agent.activeAgent).toBe("billing");
    expect((await agent.prompt("still there?")).result).toBe("Billing back.");
    expect(bodies().at(-1)!.model).toBe(SPECIALIST_MODEL);
  });

  it("an abort while the specialist's request hangs ends error_abort; history stays well-formed", async () => {
    server.enqueue(
      { content: [toolUse("h1", "transfer_to_billing")] },
      { fault: "hang" },
      { content: "Back." },
    );
    const agent = createAgent({ model: MODEL, client: client(), name: "triage", handoffs: [billing()] });
    const controller = new AbortController();
    const running = agent.prompt("invoice?", { signal: controller.signal });
    await until(() => server.requests.length === 2);
    controller.abort();
    expect((await running).subtype).toBe("error_abort");
    expect(isWellFormedHistory(await agent.getHistory())).toBe(true);
    expect((await agent.prompt("again")).result).toBe("Back.");
    expect(bodies().at(-1)!.model).toBe(SPECIALIST_MODEL);
  });
});
