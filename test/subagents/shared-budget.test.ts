/**
 * The parent's budget shared live across children running at once: each child's responses count
 * against it as they come, so three concurrent children that would each fit the budget on their
 * own are cut together once it is spent — the overshoot bounded by one in-flight response per
 * running child — with scripted clients and over HTTP; and a grandchild cut by the top budget.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createAnthropicClient,
  defineSubagent,
  defineTool,
  type SDKMessage,
  type SDKResultMessage,
} from "../../src/index";
import { collect, deferred, lastResult, MODEL, toolResults, toolUse, within } from "../loop/support";
import { mockServerPerTest } from "../support/mock-server";
import { childOf, own, resultsIn, routedClient } from "./support";

/** $3 per million input tokens on MODEL: each child response costs $0.03. */
const RESPONSE_USAGE = { input_tokens: 10_000, output_tokens: 0 };
const RESPONSE_USD = 0.03;
/** Each child would make four responses ($0.12) — one fits the budget alone; the three ($0.36) do not. */
const CHILD_STEPS = 3;
/** About one and a half children's worth. */
const BUDGET_USD = 0.17;
const CHILDREN = ["a", "b", "c"] as const;

const step = defineTool({
  name: "step",
  inputSchema: z.object({}),
  readOnly: true,
  execute: () => "stepped",
});

/**
 * A barrier per round of child requests for the first two rounds: only all three children
 * together open it, so the three run at once and each has a response in flight when the budget
 * is crossed in round two.
 */
function rounds(count: number) {
  const barriers = Array.from({ length: count }, () => ({ arrived: 0, open: deferred() }));
  return async (round: number): Promise<void> => {
    const barrier = barriers[round];
    if (!barrier) return;
    if (++barrier.arrived === CHILDREN.length) barrier.open.resolve();
    await barrier.open.promise;
  };
}

function searcher() {
  return defineSubagent({
    name: "search",
    description: "Searches.",
    systemPrompt: "Search.",
    readOnly: true,
    tools: [step],
  });
}

/** What every test checks of the ending: the parent, each child, the bound on overshoot. */
function expectCutTogether(
  messages: SDKMessage<unknown>[],
  childRequests: number,
): SDKResultMessage<unknown> {
  const result = lastResult(own(messages));
  expect(result.subtype).toBe("error_max_budget_usd");
  // Spent past the budget, but by at most one in-flight response per running child.
  expect(result.total_cost_usd).toBeGreaterThan(BUDGET_USD);
  expect(result.total_cost_usd).toBeLessThanOrEqual(BUDGET_USD + CHILDREN.length * RESPONSE_USD + 1e-9);
  // Every child response is counted once, in the parent's result.
  expect(result.total_cost_usd).toBeCloseTo(childRequests * RESPONSE_USD, 10);
  // Far fewer than the 12 responses the three would make if each saw the budget as it was at its start.
  expect(childRequests).toBeLessThan(CHILDREN.length * (CHILD_STEPS + 1));
  const endings = CHILDREN.map((id) => childOf(messages, id).at(-1));
  for (const ending of endings) expect(ending?.type).toBe("result");
  const subtypes = endings.map((ending) => (ending?.type === "result" ? ending.subtype : undefined));
  expect(subtypes).toContain("error_max_budget_usd");
  for (const subtype of subtypes) expect(subtype).not.toBe("success");
  return result;
}

describe("the parent's budget shared by concurrent children", () => {
  it("cuts three concurrent children once together they spend it (scripted clients)", async () => {
    const round = rounds(2);
    let childRequests = 0;
    const client = routedClient({
      "": () => ({ content: CHILDREN.map((id) => toolUse(id, "search", { prompt: id })) }),
      "Search.": async (request) => {
        childRequests += 1;
        const done = resultsIn(request).length;
        await round(done);
        return done < CHILD_STEPS
          ? {
              content: [{ type: "text", text: `step ${done}` }, toolUse(`s${done}`, "step")],
              usage: RESPONSE_USAGE,
            }
          : { content: "found", usage: RESPONSE_USAGE };
      },
    });
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [searcher()],
      toolConcurrency: 3,
      maxBudgetUsd: BUDGET_USD,
    });
    const messages = await within(collect(agent.query("go")), 5_000);
    expect(messages).not.toBe("still pending");
    if (messages === "still pending") return;
    const result = expectCutTogether(messages, childRequests);
    expect(result.num_turns).toBe(1);
    // The parent's next request never went out; each child's cut is its error result, in order.
    expect(client.requests.filter((request) => request.system === undefined)).toHaveLength(1);
    const blocks = toolResults(await agent.getHistory());
    expect(blocks.map((block) => block.tool_use_id)).toEqual([...CHILDREN]);
    for (const block of blocks) {
      expect(block.is_error).toBe(true);
      expect(String(block.content)).toContain("error_max_budget_usd");
      expect(String(block.content)).toMatch(/step [12]/);
    }
  });

  it("cuts a grandchild at the top query's budget through a child that has none of its own", async () => {
    let grandchildRequests = 0;
    const client = routedClient({
      "": (request) =>
        resultsIn(request).length === 0
          ? { content: [toolUse("t1", "lead", { prompt: "delegate" })] }
          : { content: "never" },
      Lead: (request) =>
        resultsIn(request).length === 0
          ? { content: [toolUse("t2", "worker", { prompt: "work" })] }
          : { content: `lead saw: ${resultsIn(request)[0]}` },
      Work: () => {
        grandchildRequests += 1;
        return { content: [toolUse(`w${grandchildRequests}`, "step")], usage: RESPONSE_USAGE };
      },
    });
    const worker = defineSubagent({
      name: "worker",
      description: "Works.",
      systemPrompt: "Work",
      tools: [step],
    });
    const lead = defineSubagent({
      name: "lead",
      description: "Leads.",
      systemPrompt: "Lead",
      tools: [worker],
    });
    const agent = createAgent({ model: MODEL, client, tools: [lead], maxBudgetUsd: 0.05 });
    const messages = await collect(agent.query("go"));
    // $0.03, $0.06: the second grandchild response crosses the top budget.
    expect(grandchildRequests).toBe(2);
    const grandchild = childOf(messages, "t2").at(-1);
    expect(grandchild?.type === "result" && grandchild.subtype).toBe("error_max_budget_usd");
    // The child (lead) is over it too once its tool batch ends: it makes no further request.
    const child = childOf(messages, "t1").at(-1);
    expect(child?.type === "result" && child.subtype).toBe("error_max_budget_usd");
    const result = lastResult(own(messages));
    expect(result.subtype).toBe("error_max_budget_usd");
    expect(result.total_cost_usd).toBeCloseTo(2 * RESPONSE_USD, 10);
    expect(client.requests.filter((request) => request.system === "Lead")).toHaveLength(1);
    // Each says whose budget it was: the children the top query's (and what they spent of it), the top its own.
    const errorOf = (message: (typeof messages)[number] | undefined) =>
      message?.type === "result" ? message.error : undefined;
    expect(errorOf(grandchild)).toMatchObject({
      scope: "parent",
      maxBudgetUsd: 0.05,
      ownSpentUsd: 2 * RESPONSE_USD,
    });
    expect(errorOf(grandchild)?.message).toBe(
      "The parent query's budget ran out: it cost $0.0600, over its maxBudgetUsd $0.05; this subagent spent $0.0600 of it.",
    );
    expect(errorOf(child)?.message).toMatch(
      /^The parent query's budget ran out: .* over its maxBudgetUsd \$0\.05;/,
    );
    expect(result.error?.message).toBe("The query cost $0.0600, over maxBudgetUsd $0.05.");
    expect(result.error).toMatchObject({ scope: "own", ownSpentUsd: 2 * RESPONSE_USD });
  });
});

describe("the parent's budget shared by concurrent children, over HTTP", () => {
  const server = mockServerPerTest();
  const systemText = (value: unknown): string =>
    typeof value === "string"
      ? value
      : Array.isArray(value)
        ? value.map((block: { text?: string }) => block.text ?? "").join("")
        : String(value);

  it("cuts three concurrent streamed children once together they spend it", async () => {
    const round = rounds(2);
    let childRequests = 0;
    server.setHandler(async (body) => {
      if (systemText(body.system) !== "Search.")
        return {
          content: CHILDREN.map((id) => toolUse(id, "search", { prompt: id })),
          usage: { input_tokens: 0, output_tokens: 0 },
        };
      childRequests += 1;
      const done = body.messages.filter((message: { role: string }) => message.role === "assistant").length;
      await round(done);
      return done < CHILD_STEPS
        ? {
            content: [{ type: "text", text: `step ${done}` }, toolUse(`s${done}`, "step")],
            usage: RESPONSE_USAGE,
          }
        : { content: "found", usage: RESPONSE_USAGE };
    });
    const client = createAnthropicClient({ apiKey: "sk-test-budget", baseURL: server.url, stream: true });
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [searcher()],
      toolConcurrency: 3,
      maxBudgetUsd: BUDGET_USD,
    });
    const messages = await within(collect(agent.query("go")), 10_000);
    expect(messages).not.toBe("still pending");
    if (messages === "still pending") return;
    expectCutTogether(messages, childRequests);
    expect(server.requests).toHaveLength(1 + childRequests);
    await agent.close();
  });
});
