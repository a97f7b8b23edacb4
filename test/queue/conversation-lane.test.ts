import { afterAll, describe, expect, it } from "vitest";
import { ConversationLane } from "../../src/queue/conversation-lane";
import { resolveBaseOptions } from "../../src/queue/options";
import { deleteQueueKeys, openRedis, redisUrl, uniqueName } from "./helpers";

const redis = openRedis();
const name = uniqueName("lane");
const lane = new ConversationLane(resolveBaseOptions({ connection: { url: redisUrl }, name }, "test"));

/**
 * The old run's lease runs out: its key is gone, as Redis removes it when its time to live ends. A
 * long lease ended this way, not a short one waited out, so a slow machine cannot end it early.
 */
async function leaseRunsOut(conversationId: string): Promise<void> {
  expect(await redis.del(lane.keys.lease(conversationId))).toBe(1);
}

afterAll(async () => {
  await lane.close();
  await deleteQueueKeys(redis, name);
  await redis.quit();
});

describe("ConversationLane", () => {
  it("lets only the head of a conversation take its lease, and hands it on in enqueue order", async () => {
    const conversation = uniqueName("c");
    expect(await lane.append(conversation, "j1")).toBe("runnable");
    expect(await lane.append(conversation, "j2")).toBe("waiting");
    expect(await lane.append(conversation, "j1")).toBe("runnable"); // listed once
    expect(await lane.claim(conversation, "j2", "j2:a", 5_000)).toEqual({ kind: "queued", head: "j1" });
    expect(await lane.claim(conversation, "j1", "j1:a", 5_000)).toEqual({
      kind: "claimed",
      run: 1,
      startedAt: undefined,
      progressed: false,
    });
    expect(await lane.runnable(conversation, "j1")).toBe(false);
    const result = { type: "result", subtype: "success" };
    const next = await lane.finish(conversation, "j1", "j1:a", {
      field: "result",
      value: JSON.stringify(result),
      entry: result,
    });
    expect(next).toBe("j2");
    expect(await lane.runnable(conversation, "j2")).toBe(true);
    expect(await lane.storedResult("j1")).toEqual(result);
    // A finished job is never listed again, and a late delivery of it finds its result.
    expect(await lane.append(conversation, "j1")).toBe("finished");
    expect(await lane.claim(conversation, "j1", "j1:b", 5_000)).toEqual({ kind: "done", result });
  });

  it("fences every write: a run whose lease was taken over writes nothing", async () => {
    const conversation = uniqueName("c");
    await lane.append(conversation, "k1");
    await lane.claim(conversation, "k1", "k1:old", 60_000);
    expect(await lane.markStarted(conversation, "k1", "k1:old", 4)).toBe(true);
    expect(await lane.publish(conversation, "k1", "k1:old", { type: "assistant" }, true)).toBe(true);
    // While the old run's lease lives, a new run of the same job must wait for it.
    const busy = await lane.claim(conversation, "k1", "k1:new", 5_000);
    expect(busy.kind).toBe("busy");
    await leaseRunsOut(conversation);
    expect(await lane.claim(conversation, "k1", "k1:new", 5_000)).toEqual({
      kind: "claimed",
      run: 2,
      startedAt: 4,
      progressed: true,
    });
    expect(await lane.renew(conversation, "k1:old", 5_000)).toBe(false);
    expect(await lane.publish(conversation, "k1", "k1:old", { type: "assistant" }, false)).toBe(false);
    expect(await lane.markStarted(conversation, "k1", "k1:old", 9)).toBe(false);
    const entry = { field: "result" as const, value: "{}", entry: {} };
    expect(await lane.finish(conversation, "k1", "k1:old", entry)).toBeUndefined();
    await lane.release(conversation, "k1:old");
    expect(await lane.renew(conversation, "k1:new", 5_000)).toBe(true);
    expect(await redis.xlen(lane.keys.messages("k1"))).toBe(1);
    expect(await lane.finish(conversation, "k1", "k1:new", entry)).toBe("");
  });

  it("records a first run's start mark with its first message, once, and only under the lease", async () => {
    const conversation = uniqueName("c");
    await lane.append(conversation, "m1");
    await lane.claim(conversation, "m1", "m1:old", 60_000);
    // A refused write (another fence) records no mark.
    expect(await lane.publish(conversation, "m1", "m1:other", { type: "system" }, false, 7)).toBe(false);
    expect(await redis.hget(lane.keys.job("m1"), "started")).toBeNull();
    expect(await lane.publish(conversation, "m1", "m1:old", { type: "system" }, false, 3)).toBe(true);
    expect(await lane.publish(conversation, "m1", "m1:old", { type: "assistant" }, true, 8)).toBe(true); // kept
    await leaseRunsOut(conversation);
    expect(await lane.claim(conversation, "m1", "m1:new", 5_000)).toEqual({
      kind: "claimed",
      run: 2,
      startedAt: 3,
      progressed: true,
    });
  });

  it("streams several messages in one write, and records the unstreamed rest and the last progress with the result", async () => {
    const conversation = uniqueName("c");
    await lane.append(conversation, "u1");
    await lane.claim(conversation, "u1", "u1:a", 5_000);
    const texts = [JSON.stringify({ type: "system", n: 1 }), JSON.stringify({ type: "assistant", n: 2 })];
    expect(await lane.publishEntries(conversation, "u1", "u1:a", texts, true)).toBe(true);
    expect(await redis.hget(lane.keys.job("u1"), "progressed")).toBe("1");
    const result = { type: "result", subtype: "success" };
    const progress = { num_turns: 2, total_cost_usd: 0.5, usage: { input_tokens: 3, output_tokens: 4 } };
    const unstreamed = { entries: [JSON.stringify({ type: "assistant", n: 3 })], progress };
    const outcome = { field: "result" as const, value: JSON.stringify(result), entry: result };
    expect(await lane.finish(conversation, "u1", "u1:a", outcome, unstreamed)).toBe("");
    const stream = (await redis.xrange(lane.keys.messages("u1"), "-", "+")).map(([, fields]) =>
      JSON.parse(fields[1]!),
    );
    expect(stream).toEqual([
      { type: "system", n: 1 },
      { type: "assistant", n: 2 },
      { type: "assistant", n: 3 },
      result,
    ]);
    expect(await lane.storedProgress("u1")).toEqual(progress);
    expect(await lane.storedResult("u1")).toEqual(result);
    // Without progress to record, none is stored; a refused finish writes none of it.
    await lane.append(conversation, "u2");
    await lane.claim(conversation, "u2", "u2:a", 5_000);
    expect(await lane.finish(conversation, "u2", "u2:other", outcome, unstreamed)).toBeUndefined();
    expect(await redis.xlen(lane.keys.messages("u2"))).toBe(0);
    expect(await lane.finish(conversation, "u2", "u2:a", outcome)).toBe("");
    expect(await lane.storedProgress("u2")).toBeUndefined();
  });

  it("drops a dead head with the lease it held, and encodes ids into keys", async () => {
    const conversation = "a:lease";
    await lane.append(conversation, "d1");
    await lane.append(conversation, "d2");
    await lane.claim(conversation, "d1", "d1:x", 60_000);
    expect(await lane.dropHead(conversation, "d2")).toBe("d1"); // not the head: nothing dropped
    expect(await lane.dropHead(conversation, "d1")).toBe("d2");
    expect(await lane.runnable(conversation, "d2")).toBe(true);
    expect(lane.keys.pending(conversation)).not.toBe(lane.keys.lease("a"));
    expect(lane.keys.pending(conversation)).toContain("a%3Alease");
  });
});
