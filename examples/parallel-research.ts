/**
 * Parallel research: a lead agent hands three questions to three read-only researcher subagents,
 * which run at the same time, each in a fresh conversation of its own; the lead writes the summary.
 *
 *   npx tsx examples/parallel-research.ts
 *
 * Without ANTHROPIC_API_KEY it runs offline: the bundled mock Messages API server answers, with a
 * small function standing in for the model (the lead asks three questions, each researcher answers
 * its own, the lead sums up). With ANTHROPIC_API_KEY set, the same agents talk to the real API
 * (ANTHROPIC_MODEL picks the model). In your own project, import from "agent-lattice" and
 * "agent-lattice/testing".
 */
import { createAgent, defineSubagent, type SDKMessage } from "../src/index";
import { type MockHandler, startMockAnthropicServer } from "../src/testing/index";

const LEAD_PROMPT =
  "You lead a research team. Split the question, hand each part to a researcher, then sum up.";
const RESEARCHER_PROMPT = "You research one question and answer it in one sentence.";

const researcher = defineSubagent({
  name: "researcher",
  description: "Researches one question and answers it in one sentence.",
  systemPrompt: RESEARCHER_PROMPT,
  readOnly: true, // read-only calls of one response run at the same time
  maxTurns: 10,
});

const QUESTIONS = ["the history of TypeScript", "how ES modules load", "what a Messages API stream carries"];

/** Text of a system prompt or message content: a string, or text blocks (as prompt caching sends them). */
const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((block: { text?: string }) => block.text ?? "").join("")
      : "";

/** The offline stand-in for the model: by system prompt, the lead or a researcher. */
const offlineModel: MockHandler = (body) => {
  const first = textOf(body.messages[0]?.content);
  const last = body.messages.at(-1);
  const results: Array<{ content: unknown }> = Array.isArray(last?.content)
    ? last.content.filter((block: { type: string }) => block.type === "tool_result")
    : [];
  if (textOf(body.system) === RESEARCHER_PROMPT)
    return { content: `On ${String(first)}: the short answer, with sources.` };
  if (results.length === 0) {
    return {
      content: [
        { type: "text", text: "Three questions, three researchers." },
        ...QUESTIONS.map((prompt, index) => ({
          type: "tool_use" as const,
          id: `toolu_research_${index + 1}`,
          name: "researcher",
          input: { prompt },
        })),
      ],
    };
  }
  return {
    content: `Summary of ${results.length} findings:\n${results.map((r) => `- ${textOf(r.content)}`).join("\n")}`,
  };
};

/** One line per message; a child's lines are indented under the call that started it. */
function show(message: SDKMessage<unknown>): void {
  const indent = message.parent_tool_use_id ? `    [${message.parent_tool_use_id}] ` : "";
  if (message.type === "assistant") {
    for (const block of message.message.content) {
      if (block.type === "text") console.log(`${indent}${block.text}`);
      if (block.type === "tool_use") console.log(`${indent}→ ${block.name}(${JSON.stringify(block.input)})`);
    }
  }
  if (message.type === "result") {
    const cost = `$${message.total_cost_usd.toFixed(4)}`;
    console.log(`${indent}${message.subtype} · ${message.num_turns} turns · ${cost}`);
    if (!message.parent_tool_use_id && message.is_error) process.exitCode = 1;
  }
}

async function main(): Promise<void> {
  const live = Boolean(process.env.ANTHROPIC_API_KEY);
  const server = live ? undefined : await startMockAnthropicServer({ handler: offlineModel });
  const lead = createAgent({
    model: process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-6",
    // Offline: the local mock server (any key will do). Live: ANTHROPIC_API_KEY and the real API.
    ...(server ? { apiKey: "offline", baseURL: server.url } : {}),
    systemPrompt: LEAD_PROMPT,
    tools: [researcher],
    maxBudgetUsd: 1, // the researchers' cost counts in it too
  });
  console.log(live ? "Using the real API." : `Offline, against the mock server at ${server!.url}.`);
  try {
    for await (const message of lead.query(`Research these: ${QUESTIONS.join("; ")}.`)) show(message);
  } finally {
    await lead.close();
    await server?.close();
  }
}

await main();
