/**
 * Handoffs: a support desk whose triage agent refuses off-topic prompts (an input guardrail), hands
 * billing and technical questions to two specialists that keep the same conversation, and never
 * lets personal data into an answer (a PII output guardrail, whoever answers).
 *
 *   npx tsx examples/triage.ts
 *
 * Without ANTHROPIC_API_KEY it runs offline: the bundled mock Messages API server answers, with a
 * small function standing in for each agent's model. With ANTHROPIC_API_KEY set, the same agents
 * talk to the real API. In your own project, import from "agent-lattice" and "agent-lattice/testing".
 */
import { z } from "zod";
import {
  createAgent,
  defineGuardrail,
  defineHandoff,
  defineTool,
  piiGuardrail,
  type SDKResultMessage,
} from "../src/index";
import { type MockHandler, startMockAnthropicServer } from "../src/testing/index";

const lookupInvoice = defineTool({
  name: "lookup_invoice",
  description: "An invoice by number: amount and status",
  inputSchema: z.object({ number: z.string() }),
  readOnly: true,
  execute: ({ number }) => `Invoice ${number}: $42.00, paid on 2026-11-30`,
});

const serviceStatus = defineTool({
  name: "service_status",
  description: "The current status of a service",
  inputSchema: z.object({ service: z.string() }),
  readOnly: true,
  execute: ({ service }) => `${service}: degraded since 09:12 UTC, a fix is rolling out`,
});

const billing = defineHandoff({
  name: "billing",
  description: "Invoices, payments and refunds.",
  systemPrompt: "You are the billing specialist. Look invoices up before you answer.",
  tools: [lookupInvoice],
});

const tech = defineHandoff({
  name: "tech",
  description: "Errors, outages and sign-in problems.",
  systemPrompt: "You are the technical specialist. Check the service status before you answer.",
  tools: [serviceStatus],
  history: "summary", // sees a transcript of what came before, then the question it was handed
});

/** Blocking input guardrail: support questions only; anything else is answered without a model. */
const supportOnly = defineGuardrail({
  name: "support-only",
  stage: "input",
  check: ({ text }) =>
    /invoice|bill|refund|error|login|sign in|outage|email|fix/i.test(text)
      ? { verdict: "allow" }
      : { verdict: "reject", message: "I can help with billing and technical questions only." },
});

type Block = { type: string; text?: string; name?: string; content?: unknown };
type Message = { role: string; content: string | Block[] };

/** The offline stand-in for the three models: each reads its own system prompt and tools. */
const offlineModel: MockHandler = (body) => {
  const system = Array.isArray(body.system)
    ? body.system.map((block: Block) => block.text).join("")
    : String(body.system ?? "");
  const messages = body.messages as Message[];
  const last = messages.at(-1)!;
  const blocks = typeof last.content === "string" ? [{ type: "text", text: last.content }] : last.content;
  const calls = (messages.at(-2)?.content ?? []) as Block[];
  const called = Array.isArray(calls) ? calls.find((block) => block.type === "tool_use")?.name : undefined;
  const result = blocks.find((block) => block.type === "tool_result");
  const asked = messages
    .filter((message) => message.role === "user")
    .map((message) => JSON.stringify(message.content))
    .at(-1)!;
  const wantsBilling = /invoice|bill|refund/i.test(asked);
  const call = (name: string, input: object) => ({
    content: [{ type: "tool_use" as const, id: `toolu_${name}_${messages.length}`, name, input }],
  });
  if (system.includes("billing specialist")) {
    if (!wantsBilling && !result) return call("transfer_to_triage", { reason: "not billing" });
    if (called === "transfer_to_billing" || !result) return call("lookup_invoice", { number: "INV-7" });
    return { content: `Invoice INV-7 is paid: ${String(result.content)}.` };
  }
  if (system.includes("technical specialist")) {
    if (/email/i.test(asked)) return { content: "Sure, I'll write to ada@example.com with the fix." };
    if (called === "transfer_to_tech" || !result) return call("service_status", { service: "login" });
    return { content: `Sign-in is affected (${String(result.content)}). Please retry in an hour.` };
  }
  if (wantsBilling) return call("transfer_to_billing", { reason: "an invoice question" });
  return call("transfer_to_tech", { reason: "a technical question" });
};

function report(label: string, result: SDKResultMessage, answeredBy: string): void {
  const guardrail = result.guardrail ? ` · ${result.guardrail.name} at ${result.guardrail.stage}` : "";
  const agents = Object.keys(result.agent_usage ?? {}).join(" → ");
  console.log(
    `${label}: ${result.subtype}${guardrail} · answered by ${answeredBy}${agents ? ` (requests: ${agents})` : ""}`,
  );
  console.log(`  ${result.result}`);
}

async function main(): Promise<void> {
  const live = Boolean(process.env.ANTHROPIC_API_KEY);
  const server = live ? undefined : await startMockAnthropicServer({ handler: offlineModel });
  const agent = createAgent({
    model: process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-6",
    ...(server ? { apiKey: "offline", baseURL: server.url } : {}),
    name: "triage",
    systemPrompt: "You are the support desk's triage agent. Hand each question to the right specialist.",
    handoffs: [billing, tech],
    guardrails: [supportOnly, piiGuardrail({ name: "pii-in-answers", stage: "output" })],
  });
  console.log(live ? "Using the real API." : `Offline, against the mock server at ${server!.url}.`);
  try {
    report("Off topic", await agent.prompt("What's the weather like?"), agent.activeAgent);
    report("Billing", await agent.prompt("Is my invoice INV-7 paid?"), agent.activeAgent);
    report("Technical", await agent.prompt("I get an error when I login."), agent.activeAgent);
    report("Personal data", await agent.prompt("Email me the fix, please."), agent.activeAgent);
    const handoffs = (await agent.getHistory())
      .map((message) => message.meta?.handoff)
      .filter((handoff) => handoff !== undefined)
      .map((handoff) => `${handoff.from} → ${handoff.to}`);
    console.log(`Handoffs recorded in history: ${handoffs.join("; ")}`);
  } finally {
    await agent.close();
    await server?.close();
  }
}

await main();
