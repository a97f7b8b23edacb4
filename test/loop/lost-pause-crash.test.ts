/**
 * A batch that may pause for approval, killed with SIGKILL before its pause is recorded (issue 33):
 * the record that none of its calls started is in the store, so the restarted agent answers them
 * "not run" — not "effect unverified". Killed once a call has started, the same batch's calls stay
 * "effect unverified". A real child process over a JSONL file, a SQLite file and PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import { UNRECORDED_PAUSE_TOOL_RESULT_TEXT, UNRECORDED_TOOL_RESULT_TEXT } from "../../src/history/repair";
import { createAgent } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { openStore } from "../fixtures/stores/open-store";
import type { StoreLocation } from "../fixtures/stores/store-workload";
import { startChild } from "../integrations/stores/child-runner";
import {
  PROCESS_TEST_TIMEOUT_MS,
  storeLocations,
  useProcessTestEnvironment,
} from "../integrations/stores/process-test-environment";
import { expectWellFormed, toolResults } from "./support";

const env = useProcessTestEnvironment("lostpause", "test/fixtures/stores/lost-pause-child.ts");
const { jsonl, sqlite, postgres } = storeLocations(env);
const locations: Record<string, (conversation: string) => StoreLocation> = { jsonl, sqlite, postgres };

/** Runs the child until it prints `line`, then kills it with SIGKILL. */
async function killAt(location: StoreLocation, phase: "checking" | "running"): Promise<void> {
  const child = startChild(env.childScript, { location, phase });
  await child.waitForLine((text) => text === phase);
  child.process.kill("SIGKILL");
  expect((await child.exited).signal, child.stderr()).toBe("SIGKILL");
}

/** The results the restarted agent's repaired history gives the two calls. */
async function repairedResults(location: StoreLocation): Promise<unknown[]> {
  const store = openStore(location);
  const agent = createAgent({
    model: "claude-sonnet-4-6",
    client: createScriptedClient([]),
    historyStore: store,
  });
  const history = await agent.getHistory();
  expectWellFormed(history);
  await agent.close();
  return toolResults(history).map((result) => result.content);
}

describe.each(Object.keys(locations))("a lost pause over a %s store", (kind) => {
  it(
    "killed while its calls are checked for approval: they are answered 'not run'",
    async () => {
      const location = locations[kind]!("checking");
      await killAt(location, "checking");
      expect(await repairedResults(location)).toEqual([
        UNRECORDED_PAUSE_TOOL_RESULT_TEXT,
        UNRECORDED_PAUSE_TOOL_RESULT_TEXT,
      ]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "killed once a call has started: its calls stay 'effect unverified'",
    async () => {
      const location = locations[kind]!("running");
      await killAt(location, "running");
      expect(await repairedResults(location)).toEqual([
        UNRECORDED_TOOL_RESULT_TEXT,
        UNRECORDED_TOOL_RESULT_TEXT,
      ]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
