/**
 * The studio shows a conversation that a fleet worker runs (BullMQ on the real Redis, the history in
 * a Redis store), live: the worker's first turn — a tool call — is visible through the studio's API
 * while the tool still runs (it waits for the test to let it go), and the answer appears once it
 * does; the version the page polls changes at each step. The test waits on content, never on time.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildStudioPage } from "../../scripts/build-studio-page.mjs";
import { createAgent, defineTool } from "../../src/index";
import { createRedisHistoryStore } from "../../src/integrations/stores/redis";
import { createAgentQueue, createAgentWorker } from "../../src/queue/index";
import { type Studio, startStudio } from "../../src/studio/index";
import { createScriptedClient } from "../../src/testing/index";
import { deleteQueueKeys, openRedis, redisUrl, uniqueName } from "../queue/helpers";
import { toolUse } from "../support/content";

const redis = openRedis();
const keyPrefix = `agent-lattice-studio-fleet:${randomBytes(5).toString("hex")}:`;
const queueName = uniqueName("studio-fleet");

beforeAll(async () => {
  await buildStudioPage();
});

afterAll(async () => {
  await deleteQueueKeys(redis, queueName, keyPrefix);
  await redis.quit();
});

/** GETs a studio API path with the studio's token. */
function client(studio: Studio) {
  const url = new URL(studio.url);
  return async (path: string, { missingIsEmpty = false } = {}): Promise<any> => {
    const response = await fetch(new URL(path, url), {
      headers: { "x-studio-token": url.searchParams.get("token")! },
    });
    // Before the worker's first write the conversation does not exist yet.
    if (missingIsEmpty && response.status === 404) return {};
    expect(response.status, path).toBe(200);
    return response.json();
  };
}

/** Polls `read` every 50 ms until `done` holds for what it gives; fails after a generous bound. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const giveUpAt = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > giveUpAt) throw new Error(`Never saw ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the studio over a fleet worker's conversation", () => {
  it("shows the worker's tool call while the tool runs, then its answer, through the store", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const gate = defineTool({
      name: "wait_for_test",
      description: "Waits until the test lets it go",
      inputSchema: z.object({}),
      execute: async () => {
        await released;
        return "let go";
      },
    });
    const connection = { url: redisUrl };
    const queue = createAgentQueue({ connection, name: queueName });
    const worker = createAgentWorker({
      connection,
      name: queueName,
      createAgent: ({ conversationId }) =>
        createAgent({
          model: "claude-sonnet-4-6",
          client: createScriptedClient([
            { content: [toolUse("toolu_gate", "wait_for_test", {})] },
            { content: "The fleet's answer." },
          ]),
          tools: [gate],
          historyStore: createRedisHistoryStore({ url: redisUrl, keyPrefix, conversationId }),
        }),
    });
    const studio = await startStudio({ store: `${redisUrl}?keyPrefix=${encodeURIComponent(keyPrefix)}` });
    try {
      const get = client(studio);
      const conversation = () => get("/api/conversation?source=0&id=fleet-run", { missingIsEmpty: true });
      const version = async () => (await get("/api/version?source=0&id=fleet-run")).version as string;
      const texts = (view: any) => JSON.stringify(view.messages ?? []);
      const job = await queue.enqueue({ conversationId: "fleet-run", input: "Run the gated job." });

      // The tool call is recorded while the tool still waits: the studio shows it, no answer yet.
      const running = await until(
        conversation,
        (view) => texts(view).includes("toolu_gate"),
        "the tool call",
      );
      expect(texts(running)).not.toContain("The fleet's answer.");
      const whileRunning = await version();

      release();
      const answered = await until(
        conversation,
        (view) => texts(view).includes("The fleet's answer."),
        "the answer",
      );
      expect(texts(answered)).toContain("let go");
      expect(await version()).not.toBe(whileRunning);
      await expect(queue.waitForResult(job.id, { timeoutMs: 60_000 })).resolves.toMatchObject({
        subtype: "success",
      });
    } finally {
      release();
      await studio.close();
      await worker.close({ gracePeriodMs: 0 });
      await queue.close();
    }
  });
});
