/**
 * The offline model of the web chat example: a script for the bundled mock Messages API server.
 * "weather in <city>" calls the weather tool, "deploy <target>" calls deploy (which needs
 * approval), "story" streams a long answer slowly (to try stop and reload mid-run), anything else
 * gets a greeting.
 */
import type { MockHandler, MockStep } from "../../src/testing/index";

type WireBlock = { type: string; text?: string; content?: unknown; is_error?: boolean };
type WireMessage = { role: string; content: string | WireBlock[] };

function textOf(content: WireMessage["content"] | unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: WireBlock) => (block.type === "text" ? (block.text ?? "") : textOf(block.content)))
    .join("");
}

/** Answers a request of the example's agent. */
export const demoModel: MockHandler = (body: { messages: WireMessage[] }): MockStep => {
  const last = body.messages.at(-1)!;
  const blocks = typeof last.content === "string" ? [] : last.content;
  const result = blocks.find((block) => block.type === "tool_result");
  if (result) {
    const text = textOf(result.content);
    return {
      content: result.is_error ? `I did not do it: ${text}` : `Done. The tool says: ${text}`,
      eventDelayMs: 40,
    };
  }
  const prompt = textOf(last.content);
  const deploy = /deploy\s+(\w+)/i.exec(prompt);
  if (deploy) {
    return {
      content: [
        { type: "text", text: `I will deploy ${deploy[1]} once you approve.` },
        { type: "tool_use", id: `toolu_deploy_${Date.now()}`, name: "deploy", input: { target: deploy[1] } },
      ],
      eventDelayMs: 40,
    };
  }
  const weather = /weather in\s+([A-Za-z ]+)/i.exec(prompt);
  if (weather) {
    return {
      content: [
        {
          type: "tool_use",
          id: `toolu_weather_${Date.now()}`,
          name: "weather",
          input: { city: weather[1]!.trim() },
        },
      ],
      eventDelayMs: 40,
    };
  }
  if (/story/i.test(prompt)) {
    const chapters = Array.from({ length: 8 }, (_, index) => ({
      type: "text" as const,
      text: `Chapter ${index + 1}. The agent walked a little further along the lattice. `,
    }));
    return { content: chapters, eventDelayMs: 250 };
  }
  return {
    content: `Hello! You said: "${prompt}". Ask me for the weather in a city, a story, or to deploy something.`,
    eventDelayMs: 40,
  };
};
