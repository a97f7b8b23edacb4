/**
 * A rewind is atomic against a crash: a child process rewinds (and rewrites) a conversation again
 * and again and is killed with SIGKILL at a random moment, 50 times per store; each time the stored
 * conversation is a whole state — the old one or the rewound one — never a mix of the two.
 */
import { randomBytes, randomInt } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { ModelMessage } from "../../src/messages/types";
import { allowedStates } from "../fixtures/checkpoints/rewind-workload";
import { openStore } from "../fixtures/stores/open-store";
import type { StoreLocation } from "../fixtures/stores/store-workload";
import { startChild } from "../integrations/stores/child-runner";
import { storeLocations, useProcessTestEnvironment } from "../integrations/stores/process-test-environment";

const env = useProcessTestEnvironment("rewind_crash", "test/fixtures/checkpoints/rewind-child.ts");

/** How many kills per store. */
const KILLS = 50;

const states = allowedStates().map((state) => JSON.stringify(state));

/** Which allowed state `messages` is (its index), or -1 for a mix. Compared whole, meta included. */
function stateOf(messages: ModelMessage[]): number {
  return states.indexOf(JSON.stringify(messages));
}

describe("kill -9 during rewinds", () => {
  it.concurrent.each(["jsonl", "sqlite", "postgres", "redis"] as const)(
    `%s: leaves the old or the rewound conversation, never a mix (${KILLS} kills)`,
    // A liveness bound: 200 child processes (four stores at once) took 290–380 s on a loaded 2-core
    // machine, 83 s for one store alone; the kills wait on events, never on the clock.
    { timeout: 1_800_000 },
    async (kind) => {
      const location = storeLocations(env)[kind](`rewind-${randomBytes(4).toString("hex")}`);
      const seen = new Set<number>();
      // The next child is started while the current one runs, so its start-up is not waited for.
      let next = startChild(env.childScript, { location });
      try {
        for (let kill = 0; kill < KILLS; kill++) {
          const child = next;
          await child.waitForLine((line) => line === "waiting");
          child.process.stdin.write("go\n");
          next = startChild(env.childScript, { location });
          // Waits for the child to be rewinding (an event), then lets it go on for a random while.
          const rounds = randomInt(0, 3);
          await child.waitForLine((line) =>
            rounds === 0 ? line === "ready" : line === `round ${rounds - 1}`,
          );
          await sleep(randomInt(0, 8));
          child.process.kill("SIGKILL");
          const exit = await child.exited;
          expect(exit.signal, child.stderr()).toBe("SIGKILL");
          const stored = await loadFrom(location);
          // Until some child has written, a kill (under load, the first few may land before any write)
          // leaves the conversation as it was found: empty. Once a state was seen, empty is a loss.
          if (seen.size === 0 && stored.length === 0) continue;
          const state = stateOf(stored);
          expect(state, `kill ${kill}: the stored conversation is no allowed state`).not.toBe(-1);
          seen.add(state);
        }
      } finally {
        next.process.kill("SIGKILL");
      }
      // The kills landed at different moments: more than one state was met.
      expect(seen.size).toBeGreaterThan(1);
    },
  );
});

async function loadFrom(location: StoreLocation): Promise<ModelMessage[]> {
  const store = openStore(location);
  try {
    return await store.load();
  } finally {
    await store.close();
  }
}
