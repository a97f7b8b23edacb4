/**
 * `util.inspect` of a queue and a worker shows their name and prefix, never the connection: its
 * options or URL may hold a password, and BullMQ's objects keep them.
 */
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { createAgent } from "../../src/index";
import { createAgentQueue, createAgentWorker } from "../../src/queue/index";
import { createScriptedClient } from "../../src/testing/index";
import { uniqueName } from "./helpers";

const PASSWORD = "fleet-password-7c1e9a4b2d";

describe("util.inspect of the fleet's objects", () => {
  it("a queue and a worker show no connection credentials", async () => {
    const name = uniqueName("inspect");
    // A password Redis does not expect: the connection fails (reported to onError), inspection does not care.
    const connection = { host: "127.0.0.1", port: 6379, password: PASSWORD, lazyConnect: true };
    const queue = createAgentQueue({ connection, name, onError: () => {} });
    const worker = createAgentWorker({
      connection,
      name,
      onError: () => {},
      autorun: false,
      createAgent: () => createAgent({ model: "m", client: createScriptedClient([]) }),
    } as Parameters<typeof createAgentWorker>[0]);
    try {
      for (const [object, label] of [
        [queue, "AgentQueue"],
        [worker, "AgentWorker"],
      ] as const) {
        const shown = inspect(object, { depth: Number.POSITIVE_INFINITY });
        expect(shown).toBe(`${label} { name: ${JSON.stringify(name)}, prefix: "bull" }`);
        expect(shown).not.toContain(PASSWORD);
        expect(inspect({ nested: object }, { depth: 5 })).not.toContain(PASSWORD);
      }
      // What BullMQ itself keeps still holds it: reach for `bullmq` knowingly.
      expect(inspect(queue.bullmq, { depth: 6 })).toContain(PASSWORD);
    } finally {
      await Promise.allSettled([queue.close(), worker.close()]);
    }
  }, 60_000);
});
