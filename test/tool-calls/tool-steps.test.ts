/**
 * Durable tool steps (issue 43): `ToolContext.idempotencyKey` and `ToolContext.step` inside an
 * agent's query — the journal in history while the call runs, the steps in the results' meta after
 * it, replay after a crash (a stored history that ends in step records), the rules for plain JSON
 * and secrets, and rewind.
 */
import { describe, expect, it } from "vitest";
import { INTERRUPTED_STEPS_TOOL_RESULT_TEXT, UNRECORDED_TOOL_RESULT_TEXT } from "../../src/history/repair";
import { isToolStepRecord, toolStepRecord } from "../../src/history/tool-steps";
import {
  createAgent,
  createToolContext,
  defineTool,
  type ModelMessage,
  type ToolContext,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { createMemoryStore, expectWellFormed, MODEL, toolResults, toolUse, until } from "../loop/support";

type Effects = Array<{ step: string; key: string }>;

/** A `charge` tool of three steps (reserve, charge, receipt); each run of a step is pushed to `effects`. */
function chargeTool(effects: Effects, options: { during?: (context: ToolContext) => Promise<void> } = {}) {
  return defineTool({
    name: "charge",
    inputSchema: {
      parse: (input: unknown) => input as { cents: number },
      jsonSchema: { type: "object", properties: { cents: { type: "number" } } },
    },
    execute: async ({ cents }, context) => {
      const reserved = await context.step("reserve", () => {
        effects.push({ step: "reserve", key: context.idempotencyKey });
        return { hold: `h-${cents}` };
      });
      await options.during?.(context);
      const charged = await context.step("charge", async () => {
        effects.push({ step: "charge", key: context.idempotencyKey });
        return { id: `ch-${reserved.hold}` };
      });
      const receipt = await context.step("receipt", () => {
        effects.push({ step: "receipt", key: context.idempotencyKey });
        return undefined;
      });
      return `charged ${charged.id} ${String(receipt)}`;
    },
  });
}

const chargeCall = (id = "c1", cents = 500) => ({ content: [toolUse(id, "charge", { cents })] });

describe("ToolContext.step inside a query", () => {
  it("records each step after the assistant message while the call runs, then only in the results' meta", async () => {
    const store = createMemoryStore();
    const effects: Effects = [];
    let seenWhileRunning: ModelMessage[] = [];
    const tool = chargeTool(effects, {
      during: async () => {
        seenWhileRunning = structuredClone(store.saved);
      },
    });
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([chargeCall(), { content: "done" }]),
      tools: [tool],
      historyStore: store,
    });
    await agent.prompt("Charge 5 USD.");
    // While the call ran, the first step's record was stored, right after the call.
    expect(seenWhileRunning.at(-2)?.role).toBe("assistant");
    const record = seenWhileRunning.at(-1)!;
    expect(isToolStepRecord(record) && record.tool_step).toEqual({
      tool_use_id: "c1",
      name: "reserve",
      result: { hold: "h-500" },
      input: { cents: 500 },
    });
    // Afterwards: no record left, the steps in the results' meta, the store equal to memory.
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(history.some(isToolStepRecord)).toBe(false);
    const results = history.find((message) => message.meta?.tool_steps)!;
    expect(results.meta!.tool_steps).toEqual({
      c1: [
        { name: "reserve", result: { hold: "h-500" } },
        { name: "charge", result: { id: "ch-h-500" } },
        { name: "receipt" },
      ],
    });
    expect(toolResults(history)[0]!.content).toBe("charged ch-h-500 undefined");
    expect(store.saved).toEqual(history);
    expect(effects.map((effect) => effect.step)).toEqual(["reserve", "charge", "receipt"]);
  });

  it("gives every call its own idempotency key — the prompt's checkpoint and the tool_use id", async () => {
    const effects: Effects = [];
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([
        { content: [toolUse("a", "charge", { cents: 1 }), toolUse("b", "charge", { cents: 2 })] },
        { content: "ok" },
        chargeCall("a"), // the same tool_use id under the next prompt is another call
        { content: "ok" },
      ]),
      tools: [chargeTool(effects)],
    });
    const first = await agent.prompt("Two charges.");
    const second = await agent.prompt("Again.");
    const keys = [...new Set(effects.map((effect) => effect.key))];
    expect(keys).toHaveLength(3);
    const checkpoints = (await agent.getHistory())
      .filter((m) => m.meta?.checkpoint_id)
      .map((m) => m.meta!.checkpoint_id);
    expect(keys).toEqual([`${checkpoints[0]}/a`, `${checkpoints[0]}/b`, `${checkpoints[1]}/a`]);
    expect(first.subtype).toBe("success");
    expect(second.subtype).toBe("success");
  });

  it("refuses a result that is not plain JSON, naming the step; the call fails, history stays well-formed", async () => {
    const tool = defineTool({
      name: "weird",
      inputSchema: { parse: (input: unknown) => input as object, jsonSchema: { type: "object" } },
      execute: async (_input, context) => {
        await context.step("make", () => new Map([["a", 1]]));
        return "never";
      },
    });
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: [toolUse("w", "weird", {})] }, { content: "ok" }]),
      tools: [tool],
      historyStore: createMemoryStore(),
    });
    await agent.prompt("Go.");
    const history = await agent.getHistory();
    expectWellFormed(history);
    const [result] = toolResults(history);
    expect(result!.is_error).toBe(true);
    expect(String(result!.content)).toContain(
      'ToolContext.step("make"): the step\'s result must be plain JSON',
    );
  });

  it("returns a step's result as recorded: the agent's secrets redacted, on the first run as on a replay", async () => {
    const secret = "sk-ant-api03-steps-secret-0123456789";
    let returned: unknown;
    const tool = defineTool({
      name: "leak",
      inputSchema: { parse: (input: unknown) => input as object, jsonSchema: { type: "object" } },
      execute: async (_input, context) => {
        returned = await context.step("token", () => ({ token: secret }));
        return "ok";
      },
    });
    const store = createMemoryStore();
    const agent = createAgent({
      model: MODEL,
      apiKey: secret,
      client: createScriptedClient([{ content: [toolUse("l", "leak", {})] }, { content: "ok" }]),
      tools: [tool],
      historyStore: store,
    });
    await agent.prompt("Go.");
    expect(returned).toEqual({ token: "[redacted]" });
    expect(JSON.stringify(store.saved)).not.toContain(secret);
  });
});

describe("a call interrupted after it recorded steps", () => {
  /** A stored history as a process killed inside the `charge` step leaves it: the call, one step record. */
  function crashedHistory(): ModelMessage[] {
    return [
      {
        role: "user",
        content: "Charge 5 USD.",
        meta: { checkpoint_id: "cp_00000000000000000000000000000001" },
      },
      { role: "assistant", content: [toolUse("c1", "charge", { cents: 500 })], stop_reason: "tool_use" },
      toolStepRecord("c1", "reserve", { hold: "h-500" }, { cents: 500 }),
    ];
  }

  it("is answered for the time being on load, then run again before the next request: recorded steps replay", async () => {
    const store = createMemoryStore(crashedHistory());
    const effects: Effects = [];
    const client = createScriptedClient([{ content: "Charged." }]);
    const agent = createAgent({ model: MODEL, client, tools: [chargeTool(effects)], historyStore: store });
    const loaded = await agent.getHistory();
    expectWellFormed(loaded);
    expect(toolResults(loaded)[0]!.content).toBe(INTERRUPTED_STEPS_TOOL_RESULT_TEXT);
    expect(loaded.at(-1)!.meta?.interrupted_calls).toEqual([{ tool_use_id: "c1", input: { cents: 500 } }]);

    const result = await agent.prompt("Are you done?");
    expect(result.subtype).toBe("success");
    // reserve was recorded: it did not run again; the others ran once, with the call's key.
    expect(effects.map((effect) => effect.step)).toEqual(["charge", "receipt"]);
    expect(effects[0]!.key).toBe("cp_00000000000000000000000000000001/c1");
    const history = await agent.getHistory();
    expectWellFormed(history);
    const results = history[2]!;
    expect(toolResults([results])[0]!.content).toBe("charged ch-h-500 undefined");
    expect(results.meta?.rerun_calls).toEqual(["c1"]);
    expect(results.meta?.interrupted_calls).toBeUndefined();
    expect(results.meta?.tool_steps?.c1?.map((step) => step.name)).toEqual(["reserve", "charge", "receipt"]);
    // The model saw the real result before the new prompt.
    const sent = client.requests[0]!.messages;
    expect(JSON.stringify(sent)).toContain("charged ch-h-500");
    expect(JSON.stringify(sent)).not.toContain(INTERRUPTED_STEPS_TOOL_RESULT_TEXT);
    expect(store.saved).toEqual(history);
  });

  it("keeps the steps a re-run recorded when it crashes too: the next run replays all of them", async () => {
    const effects: Effects = [];
    const first = createMemoryStore(crashedHistory());
    const crashing = createAgent({
      model: MODEL,
      client: createScriptedClient([]),
      tools: [
        chargeTool(effects, {
          during: async () => {
            await new Promise<never>(() => {}); // the process "dies" here: we copy the store below
          },
        }),
      ],
      historyStore: first,
    });
    // Let the re-run record nothing new but wait: then simulate a crash after a "charge" record.
    void crashing.prompt("Go on.").catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stored = [...first.saved, toolStepRecord("c1", "charge", { id: "ch-h-500" })];
    const store = createMemoryStore(stored);
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: "ok" }]),
      tools: [chargeTool(effects)],
      historyStore: store,
    });
    await agent.prompt("Go on.");
    expect(effects.map((effect) => effect.step)).toEqual(["receipt"]);
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(history[2]!.meta?.tool_steps?.c1?.map((step) => step.name)).toEqual([
      "reserve",
      "charge",
      "receipt",
    ]);
  });

  it("stays 'effect unverified' for a call that recorded no step", async () => {
    const history = crashedHistory().slice(0, 2);
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: "ok" }]),
      tools: [chargeTool([])],
      historyStore: createMemoryStore(history),
    });
    await agent.prompt("Go on.");
    const [result] = toolResults(await agent.getHistory());
    expect(result!.content).toBe(UNRECORDED_TOOL_RESULT_TEXT);
  });
});

describe("steps with approvals and checkpoints", () => {
  it("a call approved, then crashed inside it, runs only its unrecorded steps — with the approved input", async () => {
    const effects: Effects = [];
    const approvedTool = (during?: (context: ToolContext) => Promise<void>) => {
      const tool = chargeTool(effects, { during });
      return { ...tool, needsApproval: true } as typeof tool;
    };
    const first = createMemoryStore();
    const asking = createAgent({
      model: MODEL,
      client: createScriptedClient([chargeCall("c1", 500)]),
      tools: [approvedTool()],
      historyStore: first,
    });
    expect((await asking.prompt("Charge 5 USD.")).subtype).toBe("requires_approval");
    // Another process approves with a smaller amount, records "reserve", and dies inside the call.
    let snapshot: ModelMessage[] = [];
    const dying = createAgent({
      model: MODEL,
      client: createScriptedClient([]),
      tools: [
        approvedTool(async () => {
          snapshot = structuredClone(first.saved);
          await new Promise<never>(() => {});
        }),
      ],
      historyStore: first,
    });
    void dying
      .prompt({ approvals: { c1: { approved: true, updatedInput: { cents: 300 } } } })
      .catch(() => {});
    await until(() => snapshot.length > 0);
    expect(effects.map((effect) => effect.step)).toEqual(["reserve"]);
    // A third process takes over the stored conversation.
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: "Charged 3 USD." }]),
      tools: [approvedTool()],
      historyStore: createMemoryStore(snapshot),
    });
    const result = await agent.prompt("Did it go through?");
    expect(result.subtype).toBe("success");
    expect(effects.map((effect) => effect.step)).toEqual(["reserve", "charge", "receipt"]);
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(toolResults(history)[0]!.content).toBe("charged ch-h-300 undefined");
  });

  it("rewind() to before a call forgets its steps: the call made again is a new call with a new key", async () => {
    const effects: Effects = [];
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([chargeCall(), { content: "ok" }, chargeCall(), { content: "ok" }]),
      tools: [chargeTool(effects)],
      historyStore: createMemoryStore(),
    });
    await agent.prompt("Charge 5 USD.");
    const [checkpoint] = await agent.checkpoints();
    await agent.rewind({ to: checkpoint!.id });
    await agent.prompt("Charge 5 USD.");
    expect(effects.map((effect) => effect.step)).toEqual([
      "reserve",
      "charge",
      "receipt",
      "reserve",
      "charge",
      "receipt",
    ]);
    expect(effects[0]!.key).not.toBe(effects[3]!.key);
  });
});

describe("createToolContext", () => {
  it("runs steps without recording them and builds the key as the agent does", async () => {
    const context = createToolContext({ toolUseId: "t1", toolName: "x", checkpointId: "cp_1" });
    expect(context.idempotencyKey).toBe("cp_1/t1");
    let runs = 0;
    expect(await context.step("a", () => ++runs)).toBe(1);
    expect(await context.step("a", () => ++runs)).toBe(2);
    await expect(context.step("", () => 1)).rejects.toThrow("non-empty string");
  });
});
