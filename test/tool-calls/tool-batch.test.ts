/**
 * Execution order of one batch: consecutive read-only calls run concurrently, at most
 * `toolConcurrency` at once; any other call runs alone, after every call before it and before every
 * call after it; results reach history in the model's order, whatever order the calls finished in.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  DEFAULT_TOOL_CONCURRENCY,
  defineTool,
  InvalidOptionError,
  type Tool,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { deferred, expectWellFormed, MODEL, toolResults, toolUse } from "../loop/support";
import { LIVENESS_FLOOR_MS, within } from "../support/promises";

/** Counts calls in flight and remembers the highest count. */
function inFlightMeter() {
  const meter = { current: 0, max: 0 };
  return {
    meter,
    /** Stays in flight for `ms`, then returns `value`. */
    async hold<T>(value: T, ms: number): Promise<T> {
      meter.current += 1;
      meter.max = Math.max(meter.max, meter.current);
      await pause(ms);
      meter.current -= 1;
      return value;
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runBatch(tools: Tool[], calls: ReturnType<typeof toolUse>[], toolConcurrency?: number) {
  const client = createScriptedClient([{ content: calls }, { content: "done" }]);
  const agent = createAgent({ model: MODEL, client, tools, toolConcurrency });
  const result = await agent.prompt("go");
  const history = await agent.getHistory();
  return { result, history };
}

describe("read-only calls run concurrently, bounded by toolConcurrency", () => {
  it("never runs more than toolConcurrency at once, and does reach it", async () => {
    const { meter, hold } = inFlightMeter();
    const read = defineTool({
      name: "read",
      readOnly: true,
      inputSchema: z.object({ i: z.number() }),
      execute: ({ i }) => hold(`read ${i}`, 3),
    });
    const calls = Array.from({ length: 7 }, (_, i) => toolUse(`t${i}`, "read", { i }));

    const { history } = await runBatch([read], calls, 3);

    expect(meter.max).toBe(3);
    expect(toolResults(history).map((block) => block.content)).toEqual(calls.map((_, i) => `read ${i}`));
  });

  it("defaults to 10 at once", async () => {
    expect(DEFAULT_TOOL_CONCURRENCY).toBe(10);
    const { meter, hold } = inFlightMeter();
    const read = defineTool({
      name: "read",
      readOnly: true,
      inputSchema: z.object({}),
      execute: () => hold("ok", 3),
    });

    await runBatch(
      [read],
      Array.from({ length: 14 }, (_, i) => toolUse(`t${i}`, "read")),
    );

    expect(meter.max).toBe(10);
  });

  it("calls that are not read-only never overlap", async () => {
    const { meter, hold } = inFlightMeter();
    const write = defineTool({
      name: "write",
      inputSchema: z.object({}),
      execute: () => hold("written", 2),
    });

    await runBatch([write], [toolUse("w1", "write"), toolUse("w2", "write"), toolUse("w3", "write")], 10);

    expect(meter.max).toBe(1);
  });

  it("rejects an invalid toolConcurrency", () => {
    for (const toolConcurrency of [0, -1, 1.5, Number.NaN]) {
      expect(() => createAgent({ model: MODEL, client: createScriptedClient([]), toolConcurrency })).toThrow(
        InvalidOptionError,
      );
    }
  });
});

describe("a write runs alone, between the calls before and after it", () => {
  it("orders reads and writes as the model issued them, and records results in the model's order", async () => {
    const events: string[] = [];
    let file = "old";
    const ended = new Map(["r1", "r2", "r3", "r4"].map((id) => [id, deferred()]));
    const read = defineTool({
      name: "read",
      readOnly: true,
      inputSchema: z.object({ id: z.string(), after: z.string().optional() }),
      execute: async ({ id, after }) => {
        events.push(`${id}:start`);
        const seen = file;
        // Finish only after another read of the same group ended (bounded, so a serial run fails
        // instead of hanging; the bound is long, so a concurrent run under load never meets it).
        if (after) await within(ended.get(after)!.promise, LIVENESS_FLOOR_MS);
        events.push(`${id}:end`);
        ended.get(id)!.resolve();
        return `${id} saw ${seen}`;
      },
    });
    const write = defineTool({
      name: "write",
      inputSchema: z.object({ id: z.string() }),
      execute: async ({ id }) => {
        events.push(`${id}:start`);
        await pause(1);
        file = "new";
        events.push(`${id}:end`);
        return `${id} wrote`;
      },
    });
    const calls = [
      toolUse("r1", "read", { id: "r1", after: "r2" }),
      toolUse("r2", "read", { id: "r2" }),
      toolUse("w", "write", { id: "w" }),
      toolUse("r3", "read", { id: "r3", after: "r4" }),
      toolUse("r4", "read", { id: "r4" }),
    ];

    const { history, result } = await runBatch([read, write], calls);

    const at = (event: string) => events.indexOf(event);
    // r1 and r2 overlap; r2 finishes first.
    expect(at("r2:start")).toBeLessThan(at("r1:end"));
    expect(at("r2:end")).toBeLessThan(at("r1:end"));
    // The write starts after both reads before it ended, and ends before the reads after it start.
    expect(at("w:start")).toBeGreaterThan(at("r1:end"));
    expect(at("w:start")).toBeGreaterThan(at("r2:end"));
    expect(at("w:end")).toBeLessThan(at("r3:start"));
    expect(at("w:end")).toBeLessThan(at("r4:start"));
    // r3 and r4 overlap; r4 finishes first.
    expect(at("r4:start")).toBeLessThan(at("r3:end"));
    expect(at("r4:end")).toBeLessThan(at("r3:end"));

    expect(toolResults(history)).toEqual([
      { type: "tool_result", tool_use_id: "r1", content: "r1 saw old" },
      { type: "tool_result", tool_use_id: "r2", content: "r2 saw old" },
      { type: "tool_result", tool_use_id: "w", content: "w wrote" },
      { type: "tool_result", tool_use_id: "r3", content: "r3 saw new" },
      { type: "tool_result", tool_use_id: "r4", content: "r4 saw new" },
    ]);
    expect(history).toHaveLength(4);
    expectWellFormed(history);
    expect(result.subtype).toBe("success");
  });
});

describe("tool context", () => {
  it("gives every call a live signal, its tool_use id and its name", async () => {
    const contexts: Array<{ aborted: boolean; isSignal: boolean; toolUseId: string; toolName: string }> = [];
    const inspect = defineTool({
      name: "inspect",
      readOnly: true,
      inputSchema: z.object({}),
      execute: (_input, context) => {
        contexts.push({
          aborted: context.signal.aborted,
          isSignal: context.signal instanceof AbortSignal,
          toolUseId: context.toolUseId,
          toolName: context.toolName,
        });
        return "ok";
      },
    });

    await runBatch([inspect], [toolUse("call_a", "inspect"), toolUse("call_b", "inspect")]);

    expect(contexts).toEqual([
      { aborted: false, isSignal: true, toolUseId: "call_a", toolName: "inspect" },
      { aborted: false, isSignal: true, toolUseId: "call_b", toolName: "inspect" },
    ]);
  });
});
