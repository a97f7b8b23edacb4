/**
 * A fleet job whose turn a guardrail tripped, retried after its worker failed before the job's
 * result was recorded (issue 41 item 3): the retry — on the real Redis, through BullMQ — ends with
 * the recorded verdict and never re-runs the blocked turn as if it had been allowed, even when the
 * guardrail would now allow it (a flaky judge): no new model request, no tool run, history as the
 * first run left it.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type Agent,
  createAgent,
  defineGuardrail,
  defineTool,
  isWellFormedHistory,
  type ModelMessage,
} from "../../src/index";
import type { AgentJobContext } from "../../src/queue/index";
import { createScriptedClient } from "../../src/testing/index";
import { toolUse } from "../support/content";
import { fleetKit } from "./fleet";
import { uniqueName } from "./helpers";

const { fleet, historyOf, historyStore } = fleetKit();

/** Fast retries: BullMQ's backoff, a short fixed delay. */
const quickRetries = { defaultJobOptions: { attempts: 3, backoff: { type: "fixed", delay: 50 } } };

/**
 * `agent`, whose query fails where a worker would crash: after everything of the query was
 * recorded, before its result reaches the job.
 */
function crashingBeforeResult(agent: Agent<any>): Agent<any> {
  return new Proxy(agent, {
    get(target, property) {
      if (property === "query")
        return (input: unknown, options: unknown) =>
          (async function* () {
            for await (const message of target.query(input as never, options as never)) {
              if (message.type === "result") throw new Error("the worker stopped before the job's result");
              yield message;
            }
          })();
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A guardrail that trips on its first check only: a judge that would let the turn through on a re-run. */
function flakyGuardrail(stage: "output" | "tool_input") {
  let checks = 0;
  const guardrail = defineGuardrail({
    name: "judge",
    stage,
    check: () =>
      ++checks === 1 ? { verdict: "tripwire", message: "blocked", info: { run: 1 } } : { verdict: "allow" },
  });
  return { guardrail, checks: () => checks };
}

describe("a fleet job retried after a guardrail tripped its turn", () => {
  it.each(["output", "tool_input"] as const)(
    "%s tripwire: the retry ends with the recorded verdict; no request, no tool run, history untouched",
    async (stage) => {
      const runs: number[] = [];
      const refunds: string[] = [];
      const refund = defineTool({
        name: "refund",
        description: "Refunds an order",
        inputSchema: z.object({ order: z.string() }),
        execute: ({ order }) => {
          refunds.push(order);
          return `refunded ${order}`;
        },
      });
      const first =
        stage === "output"
          ? { content: "Card 4111 1111 1111 1111 is yours." }
          : { content: [toolUse("t1", "refund", { order: "A-1" })] };
      const client = createScriptedClient([
        first,
        { content: "allowed on a re-run" },
        { content: "and again" },
      ]);
      const judge = flakyGuardrail(stage);
      const { queue } = fleet({
        createAgent: ({ conversationId, run }: AgentJobContext) => {
          runs.push(run);
          const agent = createAgent({
            model: "claude-sonnet-4-6",
            client,
            tools: [refund],
            historyStore: historyStore(conversationId),
            guardrails: [judge.guardrail],
          });
          // The first job's first run stops before its result; every other run goes through.
          return runs.length === 1 ? crashingBeforeResult(agent) : agent;
        },
        queueOptions: quickRetries,
      });
      const conversationId = uniqueName(`tripped-${stage}`);
      const job = await queue.enqueue({ conversationId, input: "refund order A-1" });
      const result = await queue.waitForResult(job.id, { timeoutMs: 20_000 });

      expect(runs).toEqual([1, 2]);
      expect(result).toMatchObject({
        subtype: "guardrail_tripwire",
        is_error: true,
        result: "blocked",
        num_turns: 0,
        guardrail: { name: "judge", stage, message: "blocked", info: { run: 1 } },
      });
      expect(await queue.getJob(job.id)).toMatchObject({ state: "completed", attemptsMade: 2 });
      // The blocked turn was not sent again, nor its tool run, nor the guardrail asked again.
      expect(client.requests).toHaveLength(1);
      expect(refunds).toEqual([]);
      expect(judge.checks()).toBe(1);
      const history: ModelMessage[] = await historyOf(conversationId);
      expect(history[0]).toMatchObject({
        role: "user",
        content: "refund order A-1",
        meta: { withdrawn: "guardrail" },
      });
      expect(history.every((message) => message.meta?.withdrawn === "guardrail")).toBe(true);
      expect(history.some((message) => message.meta?.guardrail?.verdict === "tripwire")).toBe(true);
      expect(isWellFormedHistory(history)).toBe(true);

      // The conversation goes on: the next job sends none of the blocked turn.
      const next = await queue.enqueue({ conversationId, input: "what else?" });
      expect((await queue.waitForResult(next.id, { timeoutMs: 20_000 })).subtype).toBe("success");
      expect(client.requests).toHaveLength(2);
      expect(client.requests[1]!.messages.map(({ role, content }) => ({ role, content }))).toEqual([
        { role: "user", content: "what else?" },
      ]);
    },
  );
});
