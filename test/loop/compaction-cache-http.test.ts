/**
 * What compaction's summary requests cost under prompt caching, against the mock server's cache:
 * a summary request is a transcript sent once, so it carries no cache marker and writes nothing
 * to the cache (a write bills 1.25× the input price, and no later request would read it), while
 * the turns around it keep their markers and read what the turn before them wrote.
 */
import { describe, expect, it } from "vitest";
import { createAgent, createAnthropicClient, type SDKMessage } from "../../src/index";
import { mockServerPerTest } from "../support/mock-server";
import { MODEL } from "./support";

const isSummaryRequest = (body: { messages: unknown }) =>
  JSON.stringify(body.messages).includes("<conversation>");

describe("compaction under prompt caching, over HTTP", () => {
  const server = mockServerPerTest((started) =>
    started.setHandler((body) =>
      isSummaryRequest(body)
        ? { content: "Summary: the user told three long stories." }
        : { content: "Noted." },
    ),
  );

  it("a history summary request carries no cache marker and bills no cache write; the turns keep theirs", async () => {
    const agent = createAgent({
      model: MODEL,
      client: createAnthropicClient({ apiKey: "sk-compaction-cache", baseURL: server.url }),
      systemPrompt: "You keep notes of what the user tells you. ".repeat(40),
      autoCompact: { thresholdTokens: 3_000, keepRecentMessages: 2 },
    });
    const story = (n: number) => `Story ${n}: ${"a long and winding tale about the sea ".repeat(120)}`;
    const messages: SDKMessage[] = [];
    for (let n = 1; n <= 4; n++) for await (const message of agent.query(story(n))) messages.push(message);

    const compactions = messages.filter(
      (message): message is Extract<SDKMessage, { subtype: "compaction" }> =>
        message.type === "system" && message.subtype === "compaction",
    );
    expect(compactions.length).toBeGreaterThan(0);
    const summaries = server.requests.filter((request) => isSummaryRequest(request.body));
    expect(summaries).toHaveLength(compactions.length);
    for (const summary of summaries) expect(JSON.stringify(summary.body)).not.toContain("cache_control");
    for (const compaction of compactions) {
      expect(compaction.usage.cache_creation_input_tokens ?? 0).toBe(0);
      expect(compaction.usage.cache_read_input_tokens ?? 0).toBe(0);
      expect(compaction.usage.input_tokens).toBeGreaterThan(1_024); // long enough to have been cached
    }

    // The main turns still carry markers; the second turn read what the first one wrote.
    const turns = server.requests.filter((request) => !isSummaryRequest(request.body));
    for (const turn of turns) expect(JSON.stringify(turn.body)).toContain("cache_control");
    const results = messages.filter((message) => message.type === "result");
    expect(results[1]!.usage.cache_read_input_tokens).toBeGreaterThan(0);
  });
});
