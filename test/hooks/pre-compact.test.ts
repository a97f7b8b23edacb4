/**
 * `preCompact`: what it receives, skipping a compaction, custom instructions reaching the summary
 * request, and failures reported while compaction goes on.
 */
import { describe, expect, it } from "vitest";
import {
  ContextWindowExceededError,
  createAgent,
  DEFAULT_COMPACTION_PROMPT,
  type ModelRequest,
  type PreCompactInput,
} from "../../src/index";
import { createScriptedClient, type ScriptedStep } from "../../src/testing";
import { collect, hookErrors, messageText, resultOf, toolUse, workshopTools } from "./support";

const BIG_USAGE = { input_tokens: 5_000, output_tokens: 10 };

/** Whether a request is the summarising one (it carries the compaction prompt verbatim). */
function isSummaryRequest(request: ModelRequest): boolean {
  return JSON.stringify(request.messages).includes(JSON.stringify(DEFAULT_COMPACTION_PROMPT).slice(1, 40));
}

/**
 * A client whose first response calls a tool and reports more input tokens than the threshold, so
 * the loop compacts before the second turn; summary requests are answered with "SUMMARY".
 */
function compactingClient(afterCompaction: ScriptedStep[] = [{ content: "finished" }]) {
  const main: ScriptedStep[] = [
    { content: [toolUse("c1", "read_file", { path: "a" })], usage: BIG_USAGE },
    ...afterCompaction,
  ];
  return createScriptedClient(async (request, callIndex) => {
    if (isSummaryRequest(request))
      return { content: "SUMMARY", usage: { input_tokens: 50, output_tokens: 5 } };
    const step = main.shift();
    if (step === undefined) return new Error(`unexpected request #${callIndex + 1}`);
    return typeof step === "function" ? step(request, callIndex) : step;
  });
}

const autoCompact = { thresholdTokens: 1_000, keepRecentMessages: 2 };

describe("preCompact", () => {
  it("receives the trigger and the history; customInstructions from every hook reach the summary request", async () => {
    const { tools } = workshopTools();
    const seen: PreCompactInput[] = [];
    const client = compactingClient();
    const agent = createAgent({
      model: "m",
      client,
      tools,
      autoCompact,
      hooks: {
        preCompact: [
          {
            handler: (input) => {
              seen.push({ trigger: input.trigger, messages: structuredClone(input.messages) });
              return { customInstructions: "Keep every file path." };
            },
          },
          { handler: () => ({}) },
          { handler: () => ({ customInstructions: "Mention open questions." }) },
        ],
      },
    });
    const messages = await collect(agent.query("start"));
    expect(resultOf(messages).subtype).toBe("success");
    expect(seen).toHaveLength(1);
    expect(seen[0]!.trigger).toBe("auto");
    expect(seen[0]!.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    const summaryRequests = client.requests.filter(isSummaryRequest);
    expect(summaryRequests).toHaveLength(1);
    const summaryText = JSON.stringify(summaryRequests[0]!.messages);
    expect(summaryText).toContain("Keep every file path.\\nMention open questions.");
    expect(messages.some((message) => message.type === "system" && message.subtype === "compaction")).toBe(
      true,
    );
    expect(messageText((await agent.getHistory())[0])).toContain("SUMMARY");
  });

  it("without customInstructions the summary request carries only the compaction prompt", async () => {
    const { tools } = workshopTools();
    const client = compactingClient();
    const agent = createAgent({
      model: "m",
      client,
      tools,
      autoCompact,
      hooks: { preCompact: [{ handler: () => ({ skip: false }) }] },
    });
    await agent.prompt("start");
    const summary = client.requests.filter(isSummaryRequest);
    expect(summary).toHaveLength(1);
    expect(JSON.stringify(summary[0]!.messages)).not.toContain("Additional instructions");
  });

  it("skip leaves history as it was and asks again only after the next response reports usage", async () => {
    const { tools } = workshopTools();
    const triggers: string[] = [];
    let calls = 0;
    const client = compactingClient([
      { content: [toolUse("c2", "read_file", { path: "b" })], usage: BIG_USAGE },
      { content: "finished" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      autoCompact,
      hooks: {
        preCompact: [
          {
            handler: ({ trigger }) => {
              triggers.push(trigger);
              calls += 1;
              // Skips the first time only: a loop asking again before a new response compacts too early.
              return { skip: calls === 1 };
            },
          },
        ],
      },
    });
    const messages = await collect(agent.query("start"));
    expect(resultOf(messages).subtype).toBe("success");
    // Once after the first response (skipped), once after the second (compacted).
    expect(triggers).toEqual(["auto", "auto"]);
    const summary = client.requests.filter(isSummaryRequest);
    expect(summary).toHaveLength(1);
    // The skipped compaction did not change what the second turn sent.
    const mainRequests = client.requests.filter((request) => !isSummaryRequest(request));
    expect(mainRequests[1]!.messages.map(messageText)[0]).toBe("start");
    expect(messageText(mainRequests[2]!.messages[0])).toContain("SUMMARY");
  });

  it("runs with trigger overflow during overflow recovery; skipping it lets the original failure stand", async () => {
    const triggers: string[] = [];
    const client = createScriptedClient([
      { content: "first answer" },
      { content: [], stop_reason: "model_context_window_exceeded" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      autoCompact: { thresholdTokens: 1_000_000, keepRecentMessages: 1 },
      hooks: {
        preCompact: [
          {
            handler: ({ trigger }) => {
              triggers.push(trigger);
              return { skip: true };
            },
          },
        ],
      },
    });
    await agent.prompt("one");
    const result = await agent.prompt("two");
    expect(triggers).toEqual(["overflow"]);
    expect(result.subtype).toBe("error_during_execution");
    expect(result.error).toBeInstanceOf(ContextWindowExceededError);
    expect(client.callCount).toBe(2);
  });

  it("a throwing preCompact hook is reported and ignored: compaction still runs", async () => {
    const { tools } = workshopTools();
    const client = compactingClient();
    const agent = createAgent({
      model: "m",
      client,
      tools,
      autoCompact,
      hooks: {
        preCompact: [
          { handler: () => ({ customInstructions: "From the first hook." }) },
          {
            handler: () => {
              throw new Error("preCompact exploded");
            },
          },
          { handler: () => ({ skip: true }) },
        ],
      },
    });
    const messages = await collect(agent.query("start"));
    expect(resultOf(messages).subtype).toBe("success");
    expect(hookErrors(messages)).toMatchObject([{ hook: "preCompact" }]);
    expect(hookErrors(messages)[0]!.error.message).toMatch(/preCompact hook #2 failed: preCompact exploded/);
    // The chain stopped at the failure: the third hook's skip never applied.
    const summary = client.requests.filter(isSummaryRequest);
    expect(summary).toHaveLength(1);
    expect(JSON.stringify(summary[0]!.messages)).toContain("From the first hook.");
  });

  it("a preCompact hook past its timeout is reported and compaction goes on", async () => {
    const { tools } = workshopTools();
    const client = compactingClient();
    const agent = createAgent({
      model: "m",
      client,
      tools,
      autoCompact,
      hooks: { preCompact: [{ timeoutMs: 20, handler: () => new Promise(() => {}) }] },
    });
    const messages = await collect(agent.query("start"));
    expect(resultOf(messages).subtype).toBe("success");
    expect(hookErrors(messages).map((error) => error.error.message)).toEqual([
      "preCompact hook #1 failed: timed out after 20 ms",
    ]);
    expect(client.requests.filter(isSummaryRequest)).toHaveLength(1);
  });
});
