/**
 * `queue.rewind()`: a fleet's conversation rewound between jobs is what the next job sees; while a
 * worker holds the conversation (its lease) the rewind is refused with a clear error, changing nothing.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, defineTool } from "../../src/index";
import { ConversationHeldError } from "../../src/queue/index";
import { createScriptedClient } from "../../src/testing/index";
import { deferred, toolUse } from "../loop/support";
import { fleetKit } from "./fleet";
import { uniqueName } from "./helpers";

const { fleet, historyOf, historyStore, promptsIn } = fleetKit();

/** An agent that answers every prompt with a text naming the turn. */
function echoAgent(conversationId: string) {
  let count = 0;
  return createAgent({
    model: "claude-sonnet-4-6",
    client: createScriptedClient(() => ({ content: `answer ${++count}` })),
    historyStore: historyStore(conversationId),
  });
}

describe("queue.rewind()", () => {
  it("rewinds between jobs; the next job runs on the rewound history", async () => {
    const { queue } = fleet({ createAgent: ({ conversationId }) => echoAgent(conversationId) });
    const conversationId = uniqueName("rewind");
    for (const input of ["one", "two"]) {
      const job = await queue.enqueue({ conversationId, input });
      await queue.waitForResult(job.id, { timeoutMs: 20_000 });
    }
    const agent = echoAgent(conversationId);
    const [, second] = await agent.checkpoints();
    const result = await queue.rewind({ conversationId, agent, to: second!.id });
    expect(result.removedMessages).toBe(2);
    expect(promptsIn(await historyOf(conversationId))).toEqual(["one"]);
    const third = await queue.enqueue({ conversationId, input: "three" });
    expect(await queue.waitForResult(third.id, { timeoutMs: 20_000 })).toMatchObject({ subtype: "success" });
    expect(promptsIn(await historyOf(conversationId))).toEqual(["one", "three"]);
    await agent.close();
  });

  it("is refused while a worker holds the conversation, and nothing changes", async () => {
    const started = deferred<void>();
    const release = deferred<void>();
    const wait = defineTool({
      name: "wait",
      inputSchema: z.object({}),
      execute: async () => {
        started.resolve();
        await release.promise;
        return "waited";
      },
    });
    let count = 0;
    const { queue } = fleet({
      createAgent: ({ conversationId }) =>
        createAgent({
          model: "claude-sonnet-4-6",
          client: createScriptedClient(({ messages }) =>
            messages.at(-1)?.content === "hold"
              ? { content: [toolUse(`w${++count}`, "wait")] }
              : { content: "ok" },
          ),
          tools: [wait],
          historyStore: historyStore(conversationId),
        }),
    });
    const conversationId = uniqueName("held");
    const first = await queue.enqueue({ conversationId, input: "first" });
    await queue.waitForResult(first.id, { timeoutMs: 20_000 });
    const agent = echoAgent(conversationId);
    const [checkpoint] = await agent.checkpoints();
    const running = await queue.enqueue({ conversationId, input: "hold" });
    await started.promise;
    const refused = await queue
      .rewind({ conversationId, agent, to: checkpoint!.id })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConversationHeldError);
    expect(refused).toMatchObject({ state: "running", jobId: running.id, conversationId });
    expect((refused as Error).message).toContain("holds its lease");
    release.resolve();
    expect(await queue.waitForResult(running.id, { timeoutMs: 20_000 })).toMatchObject({
      subtype: "success",
    });
    expect(promptsIn(await historyOf(conversationId))).toEqual(["first", "hold"]);
    await agent.close();
  });
});
