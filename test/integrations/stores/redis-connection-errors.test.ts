/**
 * A Redis client the store opened itself (from `url`) reports connection errors through the store's
 * failures, not through ioredis's "Unhandled error event" lines on stderr (which can name the host
 * and repeat on every reconnect attempt).
 */
import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HistoryStoreError } from "../../../src/errors";
import { createRedisHistoryStore, type RedisHistoryStore } from "../../../src/integrations/stores/redis";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a Redis store opened from a url that cannot be reached", () => {
  it("writes nothing to stderr about it, and close() does not wait for a connection", async () => {
    const printed: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...parts: unknown[]) => {
      printed.push(parts.map(String).join(" "));
    });
    const store = createRedisHistoryStore({ url: "redis://127.0.0.1:1", conversationId: "unreachable" });
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // ioredis connects at once, and retries
    await store.close?.(); // not a quit() that waits for a connection that never comes

    expect(printed.filter((line) => line.includes("ioredis"))).toEqual([]);
  });
});

describe("a Redis store opened from a url whose server is down", () => {
  it("fails each call after a couple of reconnection attempts, not ioredis's default twenty (over a minute)", async () => {
    const store = createRedisHistoryStore({ url: "redis://127.0.0.1:1", conversationId: "server-down" });
    try {
      for (const call of [() => store.load(), () => store.append({ role: "user", content: "hello" })]) {
        const failure = await call().then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure).toBeInstanceOf(HistoryStoreError);
        const cause = (failure as HistoryStoreError).cause as Error;
        expect(cause.name).toBe("MaxRetriesPerRequestError");
        const limit = Number(/which is (\d+)/.exec(cause.message)?.[1]);
        expect(limit).toBeLessThanOrEqual(2);
      }
    } finally {
      await store.close?.();
    }
  });
});

describe("a Redis store whose url carries a password the server refuses", () => {
  it("never shows the password in the error of any store call (load, list, delete, fork), its cause, or util.inspect of either", async () => {
    const password = "RedisPassw0rdXyz";
    const calls: Record<string, (store: RedisHistoryStore) => Promise<unknown>> = {
      load: (store) => store.load(),
      listConversations: (store) => store.listConversations(),
      deleteConversation: (store) => store.deleteConversation("another"),
      fork: (store) => store.fork("refused-password-fork"),
    };
    for (const [name, call] of Object.entries(calls)) {
      // A store of its own for each call, so that each meets the server's refusal itself.
      const store = createRedisHistoryStore({
        url: `redis://bob:${password}@127.0.0.1:6379/0`,
        conversationId: "refused-password",
      });
      try {
        const failure = await call(store).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure, name).toBeInstanceOf(Error);
        expect(String(failure), name).toContain("WRONGPASS");
        for (const view of [
          String(failure),
          JSON.stringify(failure),
          inspect(failure, { depth: 10 }),
          inspect(failure, { depth: 10, showHidden: true }),
        ]) {
          expect(view, name).not.toContain(password);
        }
      } finally {
        await store.close();
      }
    }
  });
});
