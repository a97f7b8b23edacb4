/**
 * Property: whatever a store does — answer at once, answer late, fail — and whenever a query is
 * aborted, the agent's history stays well-formed, and once the store is healthy again one more
 * query and `close()` leave the store holding exactly the agent's history (failed appends and
 * replaces are caught up by a whole replace; nothing is duplicated or lost).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAgent, type HistoryStore, type ModelMessage, type Tool } from "../../src/index";
import { createScriptedClient, type ScriptedResponse } from "../../src/testing/index";
import { expectWellFormed, toolUse } from "../loop/support";

type Behaviour = { kind: "ok" } | { kind: "late"; ms: number } | { kind: "fail" };

const behaviourArbitrary: fc.Arbitrary<Behaviour> = fc.oneof(
  { weight: 5, arbitrary: fc.constant({ kind: "ok" as const }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 8 }).map((ms) => ({ kind: "late" as const, ms })) },
  { weight: 2, arbitrary: fc.constant({ kind: "fail" as const }) },
);

interface QueryPlan {
  /** Tool turns before the final answer. */
  toolTurns: number;
  /** Abort the query this many ms after it starts, if set. */
  abortAfterMs: number | undefined;
}

const queryArbitrary: fc.Arbitrary<QueryPlan> = fc.record({
  toolTurns: fc.integer({ min: 0, max: 3 }),
  abortAfterMs: fc.option(fc.integer({ min: 0, max: 15 }), { nil: undefined }),
});

/** A store acting out `behaviours` in turn (then healthy), on its own copy of the messages. */
function faultyStore(behaviours: Behaviour[]) {
  let saved: ModelMessage[] = [];
  let healthy = false;
  const act = async () => {
    const behaviour = healthy ? undefined : behaviours.shift();
    if (!behaviour || behaviour.kind === "ok") return;
    if (behaviour.kind === "late") await new Promise((resolve) => setTimeout(resolve, behaviour.ms));
    else throw new Error("store down");
  };
  const store: HistoryStore = {
    async load() {
      await act();
      return structuredClone(saved);
    },
    async append(message) {
      await act();
      saved.push(structuredClone(message));
    },
    async replace(messages) {
      await act();
      saved = structuredClone(messages);
    },
  };
  return { store, saved: () => saved, heal: () => (healthy = true) };
}

const slowTool: Tool = {
  name: "step",
  inputSchema: { type: "object" },
  readOnly: true,
  parseInput: (input: unknown) => ({ ok: true as const, value: input }),
  execute: (_input, { signal }) =>
    new Promise<string>((resolve) => {
      const timer = setTimeout(() => resolve("stepped"), 2);
      signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve("stopped");
      });
    }),
};

function scriptFor(queries: QueryPlan[]): ScriptedResponse[] {
  const steps: ScriptedResponse[] = [];
  let id = 0;
  for (const query of queries) {
    for (let turn = 0; turn < query.toolTurns; turn++) steps.push({ content: [toolUse(`c${id++}`, "step")] });
    steps.push({ content: "done" });
  }
  return steps;
}

describe("history under store faults and aborts", () => {
  it("stays well-formed, and the store catches up with memory once it is healthy (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(behaviourArbitrary, { maxLength: 30 }),
        fc.array(queryArbitrary, { minLength: 1, maxLength: 4 }),
        async (behaviours, queries) => {
          const faulty = faultyStore([...behaviours]);
          // An aborted query leaves part of its script unused: steps are taken as requests come.
          let steps = scriptFor(queries);
          const agent = createAgent({
            model: "m",
            client: createScriptedClient(async () => steps.shift() ?? { content: "done" }),
            historyStore: faulty.store,
            tools: [slowTool],
          });
          for (const query of queries) {
            const controller = new AbortController();
            const timer =
              query.abortAfterMs === undefined
                ? undefined
                : setTimeout(() => controller.abort(new Error("user left")), query.abortAfterMs);
            await agent.prompt("next", { signal: controller.signal });
            clearTimeout(timer);
            expectWellFormed(await agent.getHistory());
          }
          faulty.heal();
          steps = [{ content: [toolUse("final", "step")] }, { content: "all done" }];
          const last = await agent.prompt("finish");
          expect(last.subtype).toBe("success");
          await agent.close();
          const history = await agent.getHistory();
          expectWellFormed(history);
          expect(faulty.saved()).toEqual(history);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});
