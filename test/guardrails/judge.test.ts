/**
 * `judgeGuardrail`: a model decides against a rubric — on its own client or the agent's — and its
 * request's usage counts in the query's usage, cost and `model_usage`; an answer it cannot read is
 * a failed check (a tripwire unless `onError: "allow"`).
 */
import { describe, expect, it } from "vitest";
import { createAgent, InvalidOptionError, judgeGuardrail } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { MODEL } from "../loop/support";

const JUDGE_MODEL = "claude-haiku-4-5";

describe("judgeGuardrail", () => {
  it("allows, and its usage counts in the query's cost and model_usage", async () => {
    const judge = createScriptedClient([
      { content: '{"allowed": true}', usage: { input_tokens: 1000, output_tokens: 10 } },
    ]);
    const client = createScriptedClient([
      { content: "Your invoice is paid.", usage: { input_tokens: 10, output_tokens: 5 } },
    ]);
    const agent = createAgent({
      model: MODEL,
      client,
      guardrails: [
        judgeGuardrail({
          client: judge,
          model: JUDGE_MODEL,
          rubric: "Billing questions only.",
          stage: "input",
        }),
      ],
    });
    const result = await agent.prompt("Is my invoice paid?");
    expect(result.subtype).toBe("success");
    expect(Object.keys(result.model_usage).sort()).toEqual([JUDGE_MODEL, MODEL].sort());
    expect(result.model_usage[JUDGE_MODEL]!.input_tokens).toBe(1000);
    expect(result.model_usage[JUDGE_MODEL]!.cost_usd).toBeGreaterThan(0);
    expect(result.total_cost_usd).toBeCloseTo(
      result.model_usage[JUDGE_MODEL]!.cost_usd + result.model_usage[MODEL]!.cost_usd,
      10,
    );
    const sent = judge.requests[0]!;
    expect(sent.model).toBe(JUDGE_MODEL);
    expect(JSON.stringify(sent.messages)).toContain("Billing questions only.");
    expect(JSON.stringify(sent.messages)).toContain("Is my invoice paid?");
  });

  it("a violation trips with the judge's reason; by default the agent's client and model judge", async () => {
    const client = createScriptedClient([
      {
        content: '{"allowed": false, "reason": "Not about billing."}',
        usage: { input_tokens: 50, output_tokens: 9 },
      },
    ]);
    const agent = createAgent({
      model: MODEL,
      client,
      guardrails: [judgeGuardrail({ rubric: "Billing only.", stage: "input" })],
    });
    const result = await agent.prompt("Tell me a joke");
    expect(result).toMatchObject({
      subtype: "guardrail_tripwire",
      guardrail: { name: "judge", stage: "input", message: "Not about billing." },
    });
    expect(client.requests).toHaveLength(1); // the judge's, never the main request
    expect(Object.keys(result.model_usage)).toHaveLength(1); // the judge request, counted
  });

  it("a reject answers with the reason; an unreadable answer or a failed request trips", async () => {
    const reject = createScriptedClient([{ content: 'Sure: {"allowed": false, "reason": "Off topic."}' }]);
    const rejecting = createAgent({
      model: MODEL,
      client: createScriptedClient([]),
      guardrails: [judgeGuardrail({ client: reject, rubric: "r", stage: "input", onViolation: "reject" })],
    });
    expect(await rejecting.prompt("x")).toMatchObject({ subtype: "success", result: "Off topic." });
    const garbled = createScriptedClient([{ content: "I think it is fine" }]);
    const tripped = await createAgent({
      model: MODEL,
      client: createScriptedClient([]),
      guardrails: [judgeGuardrail({ client: garbled, rubric: "r", stage: "input" })],
    }).prompt("x");
    expect(tripped.subtype).toBe("guardrail_tripwire");
    expect(tripped.guardrail?.message).toContain('not {"allowed"');
    const failing = createScriptedClient([Object.assign(new Error("overloaded"), { status: 529 })]);
    const open = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: "answer" }]),
      guardrails: [judgeGuardrail({ client: failing, rubric: "r", stage: "output", onError: "allow" })],
    });
    expect(await open.prompt("x")).toMatchObject({ subtype: "success", result: "answer" });
  });

  it("refuses malformed options", () => {
    expect(() => judgeGuardrail({ rubric: "", stage: "input" })).toThrow(InvalidOptionError);
    expect(() => judgeGuardrail({ rubric: "r", stage: "everywhere" as never })).toThrow(InvalidOptionError);
    expect(() => judgeGuardrail({ rubric: "r", stage: "output", mode: "parallel" })).toThrow(
      InvalidOptionError,
    );
  });
});
