/**
 * Parallel input guardrails over real HTTP against the mock Messages API: the first request races
 * the check. A trip aborts the request and nothing starts — not even a read-only call streaming
 * tool execution would have started early — and no assistant turn is recorded, whatever the
 * timings (a property over 200 randomized runs). An allow lets the turn go on as without it; a
 * process that stops mid-check leaves a prompt marked unchecked, which no later request sends.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createAnthropicClient,
  defineGuardrail,
  defineTool,
  type GuardrailVerdict,
  isWellFormedHistory,
  type ModelMessage,
} from "../../../src/index";
import { mockServerPerTest } from "../../support/mock-server";
import { collect, createMemoryStore, MODEL, toolUse } from "../support";

const API_KEY = "sk-ant-test-0123456789-secret";

function readTool(started: string[]) {
  return defineTool({
    name: "read",
    readOnly: true,
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      started.push(path);
      return `contents of ${path}`;
    },
  });
}

function delayedGuardrail(delayMs: number, verdict: GuardrailVerdict) {
  return defineGuardrail({
    name: "racer",
    stage: "input",
    mode: "parallel",
    check: ({ signal }) =>
      new Promise<GuardrailVerdict>((resolve, reject) => {
        const timer = setTimeout(() => resolve(verdict), delayMs);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      }),
  });
}

/** A small deterministic generator, so a failing run can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe("parallel input guardrails over HTTP", () => {
  const server = mockServerPerTest();
  const client = () => createAnthropicClient({ apiKey: API_KEY, baseURL: server.url, stream: true });

  it("200 of 200 randomized runs with a tripping guardrail start no tool and record no assistant turn", async () => {
    const next = random(41);
    for (let run = 0; run < 200; run++) {
      const started: string[] = [];
      const guardDelay = Math.floor(next() * 60);
      server.enqueue({
        content: [toolUse(`r${run}`, "read", { path: `p${run}` }), { type: "text", text: "and more prose" }],
        delayMs: Math.floor(next() * 6),
        eventDelayMs: next() < 0.5 ? 0 : Math.floor(next() * 3),
      });
      const store = createMemoryStore();
      const agent = createAgent({
        model: MODEL,
        client: client(),
        tools: [readTool(started)],
        historyStore: store,
        includePartialMessages: next() < 0.5,
        guardrails: [delayedGuardrail(guardDelay, { verdict: "tripwire", message: "no" })],
      });
      const messages = await collect(agent.query("go"));
      const result = messages.at(-1)!;
      const context = `run ${run} (guard ${guardDelay} ms)`;
      expect(result, context).toMatchObject({ type: "result", subtype: "guardrail_tripwire" });
      expect(started, context).toEqual([]);
      expect(
        messages.filter((m) => m.type === "assistant" || m.type === "stream_event"),
        context,
      ).toEqual([]);
      expect(
        store.saved.filter((m) => m.role === "assistant"),
        context,
      ).toEqual([]);
      expect(store.saved[0]!.meta?.withdrawn, context).toBe("guardrail");
      // Give a late tool start (there must be none) a chance to show.
      await new Promise((resolve) => setTimeout(resolve, 2));
      expect(started, context).toEqual([]);
    }
  }, 120_000);

  it("an allow lets the turn go on: the tool runs, the answer is recorded, the unchecked mark is taken back", async () => {
    const started: string[] = [];
    server.enqueue({ content: [toolUse("r1", "read", { path: "a" })] }, { content: "done" });
    const store = createMemoryStore();
    const agent = createAgent({
      model: MODEL,
      client: client(),
      tools: [readTool(started)],
      historyStore: store,
      guardrails: [delayedGuardrail(30, { verdict: "allow" })],
    });
    const result = await agent.prompt("go");
    expect(result.subtype).toBe("success");
    expect(started).toEqual(["a"]);
    expect(store.saved[0]!.meta?.withdrawn).toBeUndefined();
    expect(store.saved).toHaveLength(4);
    expect(isWellFormedHistory(store.saved)).toBe(true);
  });

  it("a prompt left unchecked by a process that stopped mid-check is never sent by a later request", async () => {
    const unchecked: ModelMessage = {
      role: "user",
      content: "secret plan",
      meta: { withdrawn: "unchecked" },
    };
    const store = createMemoryStore([unchecked]);
    server.enqueue({ content: "hello" });
    const agent = createAgent({ model: MODEL, client: client(), historyStore: store });
    expect((await agent.prompt("hi")).subtype).toBe("success");
    expect(JSON.stringify(server.requests[0]!.body.messages)).not.toContain("secret plan");
  });
});
