/**
 * defineSubagent with scripted clients: the child's text as the tool result, its messages tagged
 * and live, the parent's accounting, concurrency of read-only subagents (a barrier only all three
 * children together open), failures, the parent's budget, abort, interrupt, toolTimeoutMs, nesting
 * at and past the depth limit, a persisted child, partial messages and the parent's hooks.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  defineSubagent,
  defineTool,
  MAX_SUBAGENT_DEPTH,
  type ModelMessage,
  type SDKMessage,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import {
  collect,
  createMemoryStore,
  deferred,
  lastResult,
  MODEL,
  toolResults,
  toolUse,
  within,
} from "../loop/support";
import { childOf, firstPrompt, own, resultsIn, routedClient } from "./support";

const CHILD_MODEL = "claude-haiku-4-5";

describe("defineSubagent", () => {
  it("runs a fresh child on the parent's client and model; its text is the result, its messages tagged", async () => {
    const client = createScriptedClient([
      {
        content: [toolUse("t1", "researcher", { prompt: "Where is X?" })],
        usage: { input_tokens: 100, output_tokens: 10 },
      },
      { content: "X is in a.ts", usage: { input_tokens: 50, output_tokens: 5 } },
      { content: "Done: a.ts", usage: { input_tokens: 200, output_tokens: 20 } },
    ]);
    const researcher = defineSubagent({
      name: "researcher",
      description: "Finds things.",
      systemPrompt: "You research.",
    });
    const agent = createAgent({ model: MODEL, client, tools: [researcher] });
    const messages = await collect(agent.query("go"));

    const childRequest = client.requests[1]!;
    expect(childRequest.model).toBe(MODEL);
    expect(childRequest.system).toBe("You research.");
    expect(childRequest.messages).toHaveLength(1); // a fresh conversation
    expect(firstPrompt(childRequest)).toBe("Where is X?");
    expect(childRequest.tools ?? []).toHaveLength(0); // none of the parent's tools
    expect(resultsIn(client.requests[2]!)).toEqual(["X is in a.ts"]);

    const result = lastResult(own(messages));
    expect(result.result).toBe("Done: a.ts");
    expect(result.num_turns).toBe(2); // the parent's own requests
    expect(result.usage.input_tokens).toBe(350);
    expect(result.usage.output_tokens).toBe(35);
    expect(result.model_usage[MODEL]!.input_tokens).toBe(350);
    const child = childOf(messages, "t1");
    expect(child.map((message) => message.type)).toEqual(["system", "assistant", "result"]);
    // Live: the child's messages come before the parent's tool results.
    const results = messages.findIndex((message) => message.type === "user" && !message.parent_tool_use_id);
    expect(messages.indexOf(child[2]!)).toBeLessThan(results);
    expect(messages.filter((message) => message.type === "result").at(-1)).toBe(result);
  });

  it("uses its own model, client and tools; model_usage and cost include the child's under its model", async () => {
    const parent = createScriptedClient([
      {
        content: [toolUse("t1", "reviewer", { prompt: "review" })],
        usage: { input_tokens: 1000, output_tokens: 0 },
      },
      { content: "ok", usage: { input_tokens: 1000, output_tokens: 0 } },
    ]);
    const lookup = defineTool({ name: "lookup", inputSchema: z.object({}), execute: () => "found it" });
    const childClient = createScriptedClient([
      { content: [toolUse("c1", "lookup")], usage: { input_tokens: 1_000_000, output_tokens: 0 } },
      { content: "LGTM", usage: { input_tokens: 0, output_tokens: 0 } },
    ]);
    const reviewer = defineSubagent({
      name: "reviewer",
      description: "Reviews.",
      model: CHILD_MODEL,
      client: childClient,
      tools: [lookup],
    });
    const agent = createAgent({ model: MODEL, client: parent, tools: [reviewer] });
    const messages = await collect(agent.query("go"));
    const result = lastResult(own(messages));
    expect(childClient.requests[0]!.model).toBe(CHILD_MODEL);
    expect(childClient.requests[0]!.tools?.map((tool) => tool.name)).toEqual(["lookup"]);
    expect(resultsIn(parent.requests[1]!)).toEqual(["LGTM"]);
    expect(Object.keys(result.model_usage).sort()).toEqual([CHILD_MODEL, MODEL].sort());
    const childResult = childOf(messages, "t1").at(-1)!;
    expect(childResult.type).toBe("result");
    const childCost = childResult.type === "result" ? childResult.total_cost_usd : Number.NaN;
    expect(childCost).toBeGreaterThan(0);
    expect(result.model_usage[CHILD_MODEL]!.cost_usd).toBeCloseTo(childCost, 10);
    expect(result.total_cost_usd).toBeCloseTo(childCost + result.model_usage[MODEL]!.cost_usd, 10);
    expect(result.num_turns).toBe(2);
  });

  it("runs three read-only subagents at once (each child waits for all three) and keeps the model's order", async () => {
    const barrier = deferred();
    let arrived = 0;
    const client = routedClient({
      "": (request) =>
        resultsIn(request).length === 0
          ? {
              content: [
                toolUse("a", "search", { prompt: "alpha" }),
                toolUse("b", "search", { prompt: "beta" }),
                toolUse("c", "search", { prompt: "gamma" }),
              ],
            }
          : { content: resultsIn(request).join(" | ") },
      "Search.": async (request) => {
        if (++arrived === 3) barrier.resolve();
        await barrier.promise; // a serial run would never open it
        return { content: `found ${firstPrompt(request)}` };
      },
    });
    const search = defineSubagent({
      name: "search",
      description: "Searches.",
      systemPrompt: "Search.",
      readOnly: true,
    });
    const agent = createAgent({ model: MODEL, client, tools: [search], toolConcurrency: 3 });
    const result = await within(agent.prompt("go"), 5_000);
    expect(result).not.toBe("still pending");
    if (result === "still pending") return;
    expect(result.result).toBe("found alpha | found beta | found gamma");
    expect(toolResults(await agent.getHistory()).map((block) => block.tool_use_id)).toEqual(["a", "b", "c"]);
  });

  it("gives an error result saying how a failed child ended, with its partial text; the parent goes on", async () => {
    const step = defineTool({ name: "step", inputSchema: z.object({}), execute: () => "stepped" });
    const childClient = createScriptedClient([
      { content: [{ type: "text", text: "Halfway there." }, toolUse("c1", "step")] },
      new Error("the provider broke"),
    ]);
    const parent = createScriptedClient([
      { content: [toolUse("t1", "worker", { prompt: "work" })] },
      { content: "recovered" },
    ]);
    const worker = defineSubagent({
      name: "worker",
      description: "Works.",
      client: childClient,
      tools: [step],
    });
    const agent = createAgent({ model: MODEL, client: parent, tools: [worker] });
    const result = await agent.prompt("go");
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("recovered");
    const [block] = toolResults(await agent.getHistory());
    expect(block!.is_error).toBe(true);
    expect(String(block!.content)).toContain(
      'The subagent "worker" failed: it ended with error_during_execution',
    );
    expect(String(block!.content)).toContain("the provider broke");
    expect(String(block!.content)).toContain("Halfway there.");
  });

  it("counts the child's cost in the parent's budget: the child is cut, then the parent ends over budget", async () => {
    const step = defineTool({ name: "step", inputSchema: z.object({}), execute: () => "stepped" });
    // $3 per million input tokens: the child's first response costs $0.03, over the $0.01 left.
    const childClient = createScriptedClient([
      {
        content: [{ type: "text", text: "Reading…" }, toolUse("c1", "step")],
        usage: { input_tokens: 10_000, output_tokens: 0 },
      },
    ]);
    const parent = createScriptedClient([
      {
        content: [toolUse("t1", "spender", { prompt: "spend" })],
        usage: { input_tokens: 1000, output_tokens: 0 },
      },
    ]);
    const spender = defineSubagent({
      name: "spender",
      description: "Spends.",
      client: childClient,
      tools: [step],
    });
    const agent = createAgent({ model: MODEL, client: parent, tools: [spender], maxBudgetUsd: 0.013 });
    const messages = await collect(agent.query("go"));
    const childResult = childOf(messages, "t1").at(-1)!;
    expect(childResult.type === "result" && childResult.subtype).toBe("error_max_budget_usd");
    expect(childClient.callCount).toBe(1);
    const result = lastResult(own(messages));
    expect(result.subtype).toBe("error_max_budget_usd");
    expect(result.total_cost_usd).toBeCloseTo(0.003 + 0.03, 10);
    expect(parent.callCount).toBe(1);
    const [block] = toolResults(await agent.getHistory());
    expect(block!.is_error).toBe(true);
    expect(String(block!.content)).toContain("error_max_budget_usd");
    expect(String(block!.content)).toContain("Reading…");
  });

  it("aborts a running child with the parent's signal", async () => {
    const childClient = createScriptedClient([{ content: "never", hang: true }]);
    const parent = createScriptedClient([{ content: [toolUse("t1", "slow", { prompt: "wait" })] }]);
    const slow = defineSubagent({ name: "slow", description: "Slow.", client: childClient });
    const agent = createAgent({ model: MODEL, client: parent, tools: [slow] });
    const controller = new AbortController();
    const running = collect(agent.query("go", { signal: controller.signal }));
    const request = await childClient.waitForRequest(1);
    controller.abort();
    const messages = await running;
    expect(request.signal.aborted).toBe(true);
    expect(lastResult(own(messages)).subtype).toBe("error_abort");
    const childResult = childOf(messages, "t1").at(-1);
    expect(childResult?.type === "result" && childResult.subtype).toBe("error_abort");
  });

  it("interrupts a running child with the parent: its partial text is the result, the parent ends interrupted", async () => {
    const started = deferred();
    const release = deferred();
    const step = defineTool({
      name: "step",
      inputSchema: z.object({}),
      execute: async () => {
        started.resolve();
        await release.promise;
        return "stepped";
      },
    });
    const childClient = createScriptedClient([
      { content: [{ type: "text", text: "Partial findings." }, toolUse("c1", "step")] },
    ]);
    const parent = createScriptedClient([{ content: [toolUse("t1", "worker", { prompt: "work" })] }]);
    const worker = defineSubagent({
      name: "worker",
      description: "Works.",
      client: childClient,
      tools: [step],
    });
    const agent = createAgent({ model: MODEL, client: parent, tools: [worker] });
    const running = agent.prompt("go");
    await started.promise;
    agent.interrupt();
    release.resolve();
    const result = await running;
    expect(result.subtype).toBe("interrupted");
    expect(parent.callCount).toBe(1);
    expect(childClient.callCount).toBe(1);
    const [block] = toolResults(await agent.getHistory());
    expect(block!.is_error).toBeFalsy();
    expect(String(block!.content)).toBe("Partial findings.");
  });

  it("bounds a child call with the parent's toolTimeoutMs", async () => {
    const childClient = createScriptedClient([{ content: "never", hang: true }]);
    const parent = createScriptedClient([
      { content: [toolUse("t1", "slow", { prompt: "wait" })] },
      { content: "moved on" },
    ]);
    const slow = defineSubagent({ name: "slow", description: "Slow.", client: childClient });
    const agent = createAgent({ model: MODEL, client: parent, tools: [slow], toolTimeoutMs: 20 });
    const result = await agent.prompt("go");
    expect(result.result).toBe("moved on");
    expect(childClient.requests[0]!.signal.aborted).toBe(true);
    const [block] = toolResults(await agent.getHistory());
    expect(String(block!.content)).toContain("did not finish within 20 ms");
  });

  it(`nests subagents ${MAX_SUBAGENT_DEPTH} deep; a call one level deeper gets an error result`, async () => {
    const levels = MAX_SUBAGENT_DEPTH + 1;
    const routes: Parameters<typeof routedClient>[0] = {};
    const names = Array.from({ length: levels + 1 }, (_, index) => (index === 0 ? "" : `level${index}`));
    let tools: ReturnType<typeof defineSubagent>[] = [];
    for (let depth = levels; depth >= 1; depth--) {
      const name = names[depth]!;
      tools = [defineSubagent({ name, description: `Level ${depth}.`, systemPrompt: name, tools })];
    }
    for (let depth = 0; depth <= levels; depth++) {
      const next = names[depth + 1];
      routes[names[depth]!] = (request) => {
        const results = resultsIn(request);
        if (next && results.length === 0)
          return { content: [toolUse(`call_${depth + 1}`, next, { prompt: "deeper" })] };
        return { content: `${names[depth] || "top"}<${results.join("")}>` };
      };
    }
    const client = routedClient(routes);
    const agent = createAgent({ model: MODEL, client, tools });
    const messages = await collect(agent.query("go"));
    const result = lastResult(own(messages));
    expect(result.result).toMatch(
      /^top<level1<level2<level3<The subagent "level4" was not run: subagents nest at most 3 deep/,
    );
    // No level-4 child ever ran.
    expect(client.requests.some((request) => request.system === "level4")).toBe(false);
    // Each child's messages carry the id of the call that started it.
    for (let depth = 1; depth <= MAX_SUBAGENT_DEPTH; depth++) {
      const child = childOf(messages, `call_${depth}`);
      expect(child[0]).toMatchObject({ type: "system", subtype: "init" });
      expect(child.at(-1)).toMatchObject({ type: "result", subtype: "success" });
    }
  });

  it("persists each child in the store its historyStore factory returns for the call", async () => {
    const stores = new Map<string, ReturnType<typeof createMemoryStore>>();
    const client = createScriptedClient([
      { content: [toolUse("t1", "noter", { prompt: "note this" })] },
      { content: "noted" },
      { content: "all done" },
    ]);
    const noter = defineSubagent({
      name: "noter",
      description: "Takes notes.",
      historyStore: ({ toolUseId }) => {
        const store = createMemoryStore();
        stores.set(toolUseId, store);
        return store;
      },
    });
    const agent = createAgent({ model: MODEL, client, tools: [noter] });
    await agent.prompt("go");
    const saved: ModelMessage[] = await stores.get("t1")!.load();
    expect(saved.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(saved[0]!.content).toEqual("note this");
    expect(saved[1]!.content).toEqual([{ type: "text", text: "noted" }]);
  });

  it("yields the children's stream events, tagged, only with includePartialMessages on the parent", async () => {
    const script = () =>
      createScriptedClient([
        { content: [toolUse("t1", "helper", { prompt: "help" })] },
        { content: "helped" },
        { content: "fine" },
      ]);
    const helper = defineSubagent({ name: "helper", description: "Helps." });
    const streamed = await collect(
      createAgent({ model: MODEL, client: script(), tools: [helper], includePartialMessages: true }).query(
        "go",
      ),
    );
    expect(childOf(streamed, "t1").some((message) => message.type === "stream_event")).toBe(true);
    const quiet = await collect(createAgent({ model: MODEL, client: script(), tools: [helper] }).query("go"));
    expect(quiet.some((message) => message.type === "stream_event")).toBe(false);
  });

  it("delivers a child's messages live, while the child still runs", async () => {
    const release = deferred();
    const step = defineTool({
      name: "step",
      inputSchema: z.object({}),
      execute: async () => {
        await release.promise;
        return "stepped";
      },
    });
    const childClient = createScriptedClient([
      { content: [{ type: "text", text: "On it." }, toolUse("c1", "step")] },
      { content: "finished" },
    ]);
    const parent = createScriptedClient([
      { content: [toolUse("t1", "worker", { prompt: "work" })] },
      { content: "ok" },
    ]);
    const worker = defineSubagent({
      name: "worker",
      description: "Works.",
      client: childClient,
      tools: [step],
    });
    const agent = createAgent({ model: MODEL, client: parent, tools: [worker] });
    const seen: SDKMessage[] = [];
    const consuming = (async () => {
      for await (const message of agent.query("go")) {
        seen.push(message);
        // The child's first answer arrives while its tool is still held: only then is it let go.
        if (message.parent_tool_use_id === "t1" && message.type === "assistant") release.resolve();
      }
    })();
    expect(await within(consuming, 5_000)).not.toBe("still pending");
    expect(lastResult(own(seen)).result).toBe("ok");
  });

  it("applies the parent's hooks to the subagent call: a blocked call never starts the child", async () => {
    const childClient = createScriptedClient([]);
    const parent = createScriptedClient([
      { content: [toolUse("t1", "worker", { prompt: "work" })] },
      { content: "ok" },
    ]);
    const worker = defineSubagent({ name: "worker", description: "Works.", client: childClient });
    const agent = createAgent({
      model: MODEL,
      client: parent,
      tools: [worker],
      hooks: { preToolUse: [{ matcher: "worker", handler: () => ({ block: true, message: "not now" }) }] },
    });
    const result = await agent.prompt("go");
    expect(result.result).toBe("ok");
    expect(childClient.callCount).toBe(0);
    expect(String(toolResults(await agent.getHistory())[0]!.content)).toContain("not now");
  });

  it("returns a child's structured result as JSON with an outputSchema, and renders a custom input as JSON", async () => {
    const client = routedClient({
      "": (request) =>
        resultsIn(request).length === 0
          ? { content: [toolUse("t1", "rater", { file: "a.ts", strict: true })] }
          : { content: resultsIn(request)[0]! },
      "Rate.": (request) =>
        resultsIn(request).length === 0
          ? {
              content: [
                toolUse("s1", "submit_output", { score: 7, input: JSON.parse(firstPrompt(request)) }),
              ],
            }
          : { content: "submitted" },
    });
    const rater = defineSubagent({
      name: "rater",
      description: "Rates a file.",
      systemPrompt: "Rate.",
      inputSchema: z.object({ file: z.string(), strict: z.boolean() }),
      outputSchema: z.object({ score: z.number(), input: z.unknown() }),
    });
    const agent = createAgent({ model: MODEL, client, tools: [rater] });
    const result = await agent.prompt("go");
    expect(JSON.parse(result.result)).toEqual({ score: 7, input: { file: "a.ts", strict: true } });
  });
});
