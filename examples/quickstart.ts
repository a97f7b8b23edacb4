/**
 * Quick start: an agent with two real tools, streamed to the terminal.
 *
 *   npx tsx examples/quickstart.ts
 *
 * Without ANTHROPIC_API_KEY it runs offline: the bundled mock Messages API server answers, with a
 * small function standing in for the model (it asks for both tools, then answers from their
 * results). With ANTHROPIC_API_KEY set, the same agent talks to the real API (ANTHROPIC_MODEL
 * picks the model). In your own project, import from "agent-lattice" and "agent-lattice/testing".
 */
import { z } from "zod";
import { createAgent, defineTool } from "../src/index";
import { type MockHandler, startMockAnthropicServer } from "../src/testing/index";

const currentTime = defineTool({
  name: "current_time",
  description: "The current date and time in an IANA time zone, e.g. Asia/Tokyo",
  inputSchema: z.object({ timeZone: z.string() }),
  readOnly: true,
  execute({ timeZone }) {
    try {
      const format = new Intl.DateTimeFormat("en-GB", { timeZone, dateStyle: "full", timeStyle: "short" });
      return format.format(new Date());
    } catch {
      return { content: `"${timeZone}" is not an IANA time zone.`, isError: true };
    }
  },
});

const celsiusToFahrenheit = defineTool({
  name: "celsius_to_fahrenheit",
  description: "Convert a temperature from degrees Celsius to degrees Fahrenheit",
  inputSchema: z.object({ celsius: z.number() }),
  readOnly: true,
  execute: ({ celsius }) => `${((celsius * 9) / 5 + 32).toFixed(1)} °F`,
});

/** The offline stand-in for a model: first it asks for both tools, then it answers from their results. */
const offlineModel: MockHandler = (body) => {
  const last = body.messages.at(-1);
  const results: Array<{ type: string; content: unknown }> = Array.isArray(last?.content)
    ? last.content.filter((block: { type: string }) => block.type === "tool_result")
    : [];
  if (results.length === 0) {
    return {
      content: [
        { type: "text", text: "Let me check the clock and do the conversion." },
        { type: "tool_use", id: "toolu_time", name: "current_time", input: { timeZone: "Asia/Tokyo" } },
        { type: "tool_use", id: "toolu_temp", name: "celsius_to_fahrenheit", input: { celsius: 21.5 } },
      ],
    };
  }
  const [time, fahrenheit] = results.map((result) => String(result.content));
  return { content: `In Tokyo it is ${time}. And 21.5 °C is ${fahrenheit}.` };
};

async function main(): Promise<void> {
  const live = Boolean(process.env.ANTHROPIC_API_KEY);
  const server = live ? undefined : await startMockAnthropicServer({ handler: offlineModel });
  const agent = createAgent({
    model: process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-6",
    // Offline: the local mock server (any key will do). Live: ANTHROPIC_API_KEY and the real API.
    ...(server ? { apiKey: "offline", baseURL: server.url } : {}),
    tools: [currentTime, celsiusToFahrenheit],
    includePartialMessages: true,
  });
  console.log(live ? "Using the real API." : `Offline, against the mock server at ${server!.url}.`);
  try {
    for await (const message of agent.query("What time is it in Tokyo, and what is 21.5 °C in Fahrenheit?")) {
      if (message.type === "stream_event" && message.event.type === "content_block_delta") {
        const { delta } = message.event; // typed: no cast (docs/en/streaming.md)
        if (delta.type === "text_delta") process.stdout.write(delta.text);
      }
      if (message.type === "assistant") {
        process.stdout.write("\n"); // the streamed text of this response is complete
        for (const block of message.message.content)
          if (block.type === "tool_use") console.log(`  → ${block.name}(${JSON.stringify(block.input)})`);
      }
      if (message.type === "user" && Array.isArray(message.message.content)) {
        for (const block of message.message.content)
          if (block.type === "tool_result") console.log(`  ← ${String(block.content)}`);
      }
      if (message.type === "result") {
        console.log(
          `${message.subtype} · ${message.num_turns} turns · $${message.total_cost_usd.toFixed(4)}`,
        );
        if (message.is_error) process.exitCode = 1;
      }
    }
  } finally {
    await agent.close();
    await server?.close();
  }
}

await main();
