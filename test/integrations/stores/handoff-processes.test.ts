/**
 * Handoffs across processes, over a JSONL file, a real SQLite file, PostgreSQL and Redis: one
 * process's root agent hands the conversation to the billing specialist and is killed (SIGKILL)
 * once it answered; a new process over the same store is answered by the specialist — its system
 * prompt and its tools (with the way back, `transfer_to_main`) — and the history it reads records
 * the handoff and who answered each turn.
 */
import { describe, expect, it } from "vitest";
import type { ModelMessage } from "../../../src/messages/types";
import { expectWellFormed } from "../../loop/support";
import { startChild } from "./child-runner";
import {
  PROCESS_TEST_TIMEOUT_MS,
  storeLocations,
  useProcessTestEnvironment,
} from "./process-test-environment";

const env = useProcessTestEnvironment("handoff", "test/fixtures/stores/handoff-child.ts");

interface Report {
  result: string;
  activeAgent: string;
  system: string;
  tools: string[];
  history?: ModelMessage[];
}

async function run(location: unknown, phase: "handoff" | "next"): Promise<Report> {
  const child = startChild(env.childScript, { location, phase });
  const line = await child.waitForLine((text) => text.startsWith("{"));
  await child.exited;
  return JSON.parse(line) as Report;
}

describe("a handoff across processes", () => {
  for (const kind of ["jsonl", "sqlite", "postgres", "redis"] as const) {
    it(
      `${kind}: the next process is answered by the specialist the killed one handed to`,
      async () => {
        const location = storeLocations(env)[kind](`handoff-${kind}`);
        const first = await run(location, "handoff");
        expect(first).toMatchObject({ result: "Billing here.", activeAgent: "billing" });
        expect(first.system).toContain("You are billing.");

        const next = await run(location, "next");
        expect(next).toMatchObject({ result: "Still billing.", activeAgent: "billing" });
        expect(next.system).toContain("You are billing.");
        expect(next.system).not.toContain("You are triage.");
        expect(next.tools).toContain("transfer_to_main");
        expect(next.tools).not.toContain("transfer_to_billing");
        const history = next.history!;
        expectWellFormed(history);
        expect(history.map((message) => message.meta?.handoff).filter(Boolean)).toEqual([
          { from: "main", to: "billing" },
        ]);
        const answeredBy = history.filter((m) => m.role === "assistant").map((m) => m.meta?.agent);
        expect(answeredBy).toEqual(["main", "billing", "billing"]);
      },
      PROCESS_TEST_TIMEOUT_MS,
    );
  }
});
