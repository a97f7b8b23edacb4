/**
 * Guardrails: a support agent that refuses off-topic prompts before the model is called, keeps a
 * customer's personal data out of what the model reads (a tool result redacted) and out of its
 * answers (a tripwire), with every verdict recorded in history.
 *
 *   npx tsx examples/guardrails.ts
 *
 * Without ANTHROPIC_API_KEY it runs offline: the bundled mock Messages API server answers, with a
 * small function standing in for the model. With ANTHROPIC_API_KEY set, the same agent talks to the
 * real API. In your own project, import from "agent-lattice" and "agent-lattice/testing".
 */
import { z } from "zod";
import { createAgent, defineGuardrail, defineTool, piiGuardrail, type SDKResultMessage } from "../src/index";
import { type MockHandler, startMockAnthropicServer } from "../src/testing/index";

const lookupCustomer = defineTool({
  name: "lookup_customer",
  description: "A customer's account by id: plan, balance, contact",
  inputSchema: z.object({ id: z.string() }),
  readOnly: true,
  execute: ({ id }) => `Customer ${id}: plan Pro, balance $42.00, contact ada@example.com, +44 20 7946 0958`,
});

/** Blocking input guardrail: billing questions only; anything else is answered without the model. */
const billingOnly = defineGuardrail({
  name: "billing-only",
  stage: "input",
  check: ({ text }) =>
    /invoice|bill|balance|plan|refund/i.test(text)
      ? { verdict: "allow" }
      : { verdict: "reject", message: "I can help with billing questions only." },
});

/** The offline stand-in for a model: looks the customer up, then answers from the (redacted) result. */
const offlineModel: MockHandler = (body) => {
  const last = body.messages.at(-1);
  const result = Array.isArray(last?.content)
    ? last.content.find((block: { type: string }) => block.type === "tool_result")
    : undefined;
  const prompt = JSON.stringify(last?.content ?? "");
  if (!result && prompt.includes("email")) return { content: "Sure: write to ada@example.com." };
  if (!result)
    return {
      content: [{ type: "tool_use", id: "toolu_lookup", name: "lookup_customer", input: { id: "c-7" } }],
    };
  return { content: `Your balance is $42.00 on the Pro plan. (I saw: ${String(result.content)})` };
};

function report(label: string, result: SDKResultMessage): void {
  const guardrail = result.guardrail ? ` · ${result.guardrail.name} at ${result.guardrail.stage}` : "";
  console.log(`${label}: ${result.subtype}${guardrail}\n  ${result.result}`);
}

async function main(): Promise<void> {
  const live = Boolean(process.env.ANTHROPIC_API_KEY);
  const server = live ? undefined : await startMockAnthropicServer({ handler: offlineModel });
  const agent = createAgent({
    model: process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-6",
    ...(server ? { apiKey: "offline", baseURL: server.url } : {}),
    tools: [lookupCustomer],
    guardrails: [
      billingOnly,
      piiGuardrail({ name: "pii-in-results", stage: "tool_output", action: "redact" }),
      piiGuardrail({ name: "pii-in-answers", stage: "output" }),
    ],
  });
  console.log(live ? "Using the real API." : `Offline, against the mock server at ${server!.url}.`);
  try {
    report("Off topic", await agent.prompt("What's the weather like?"));
    report("Billing", await agent.prompt("What is my balance?"));
    report("Personal data", await agent.prompt("What email is on my plan?"));
    const history = await agent.getHistory();
    const verdicts = new Set<string>();
    for (const message of history) {
      const verdict = message.meta?.guardrail;
      if (verdict) verdicts.add(`${verdict.name} ${verdict.verdict} (${verdict.stage})`);
    }
    console.log(`Recorded in history: ${[...verdicts].join("; ")}`);
  } finally {
    await agent.close();
    await server?.close();
  }
}

await main();
