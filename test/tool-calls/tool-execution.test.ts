/**
 * The per-call deadline (`toolTimeoutMs`): a call past it gets the documented error result and
 * its context signal aborts with a TimeoutError, whether or not the tool honours the signal; the
 * query's own abort still reads as an abort; a call that finishes in time leaves no deadline behind.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, defineTool, type Tool } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import {
  aborted,
  deferred,
  expectWellFormed,
  MODEL,
  resultText,
  toolResults,
  toolUse,
  within,
} from "../loop/support";

function agentWith(tool: Tool, toolTimeoutMs: number) {
  const client = createScriptedClient([{ content: [toolUse("c1", tool.name)] }, { content: "done" }]);
  return { client, agent: createAgent({ model: MODEL, client, tools: [tool], toolTimeoutMs }) };
}

describe("toolTimeoutMs", () => {
  it("cancels a call past the deadline through its signal, and the loop goes on", async () => {
    const reasons: unknown[] = [];
    const crawl = defineTool({
      name: "crawl",
      inputSchema: z.object({}),
      execute: async (_input, { signal }) => {
        await aborted(signal);
        reasons.push(signal.reason);
        throw new Error("stopped");
      },
    });
    const { agent, client } = agentWith(crawl, 30);

    const result = await agent.prompt("go");

    expect(result.subtype).toBe("success");
    expect(client.callCount).toBe(2);
    const history = await agent.getHistory();
    expectWellFormed(history);
    const [block] = toolResults(history);
    expect(block?.is_error).toBe(true);
    expect(resultText(block!)).toBe('The tool "crawl" did not finish within 30 ms and was cancelled.');
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatchObject({ name: "TimeoutError" });
  });

  it("abandons a tool that ignores its signal at the deadline", async () => {
    const never = deferred<string>();
    const stuck = defineTool({ name: "stuck", inputSchema: z.object({}), execute: () => never.promise });
    const { agent } = agentWith(stuck, 30);

    const result = await within(agent.prompt("go"), 5000);

    expect(result).not.toBe("still pending");
    const [block] = toolResults(await agent.getHistory());
    expect(resultText(block!)).toBe('The tool "stuck" did not finish within 30 ms and was cancelled.');
    never.resolve("too late"); // settles after the call was abandoned: no effect
  });

  it("reports the query's abort as an abort, not as a timeout", async () => {
    const controller = new AbortController();
    const watcher = defineTool({
      name: "watcher",
      inputSchema: z.object({}),
      execute: async (_input, { signal }) => {
        controller.abort(new Error("stop now"));
        await aborted(signal);
        throw signal.reason;
      },
    });
    const { agent } = agentWith(watcher, 60_000);

    const result = await agent.prompt("go", { signal: controller.signal });

    expect(result.subtype).toBe("error_abort");
    const [block] = toolResults(await agent.getHistory());
    expect(resultText(block!)).toBe('The tool "watcher" was cancelled because the query was aborted.');
  });

  it("clears the deadline of a call that finished in time", async () => {
    const signals: AbortSignal[] = [];
    const quick = defineTool({
      name: "quick",
      inputSchema: z.object({}),
      execute: async (_input, { signal }) => {
        signals.push(signal);
        return "quick";
      },
    });
    const { agent } = agentWith(quick, 20);

    await agent.prompt("go");
    await new Promise((resolve) => setTimeout(resolve, 60));

    expect(resultText(toolResults(await agent.getHistory())[0]!)).toBe("quick");
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(false);
  });
});
