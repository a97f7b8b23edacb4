import { describe, expect, it } from "vitest";
import { ConversationConflictError, HistoryStoreError } from "../../../src/errors";
import {
  createVersionedStoreCore,
  type VersionedBackend,
} from "../../../src/history/store-kit/versioned-store";
import type { ModelMessage } from "../../../src/messages/types";
import { user } from "../../support/content";

/** A backend over an array whose writes can be made to fail. */
function memoryBackend() {
  const state = {
    rows: [] as string[],
    failNextWrites: 0,
    conflict: false,
    closed: 0,
    writes: [] as string[][],
  };
  const failIfAsked = () => {
    if (state.conflict) throw new ConversationConflictError("memory", "test");
    if (state.failNextWrites > 0) {
      state.failNextWrites--;
      throw new Error("disk hiccup");
    }
  };
  const backend: VersionedBackend = {
    async load() {
      return state.rows.map((row) => JSON.parse(row));
    },
    async append(lines) {
      failIfAsked();
      state.writes.push([...lines]);
      state.rows.push(...lines);
    },
    async replace(lines) {
      failIfAsked();
      state.rows = [...lines];
    },
    async close() {
      state.closed++;
    },
  };
  return { backend, state };
}

describe("createVersionedStoreCore", () => {
  it("retries a failed append, in order and in one write, before the next message", async () => {
    const { backend, state } = memoryBackend();
    const store = createVersionedStoreCore(backend, {});
    await store.append(user("one"));
    state.failNextWrites = 2;
    await expect(store.append(user("two"))).rejects.toBeInstanceOf(HistoryStoreError);
    await expect(store.append(user("three"))).rejects.toBeInstanceOf(HistoryStoreError);
    await store.append(user("four"));
    expect(await store.load()).toEqual([user("one"), user("two"), user("three"), user("four")]);
    expect(state.writes.at(-1)).toHaveLength(3);
  });

  it("forgets failed appends once the history is replaced or reloaded", async () => {
    const { backend, state } = memoryBackend();
    const store = createVersionedStoreCore(backend, {});
    state.failNextWrites = 1;
    await expect(store.append(user("lost"))).rejects.toThrow("disk hiccup");
    await store.replace([user("replaced")]);
    await store.append(user("after"));
    expect(state.rows.map((row) => JSON.parse(row))).toEqual([user("replaced"), user("after")]);

    state.failNextWrites = 1;
    await expect(store.append(user("lost too"))).rejects.toThrow("disk hiccup");
    await store.load();
    await store.append(user("last"));
    expect(state.rows.map((row) => JSON.parse(row))).toEqual([user("replaced"), user("after"), user("last")]);
  });

  it("wraps failures in HistoryStoreError naming the operation, and lets conflicts through unchanged", async () => {
    const { backend, state } = memoryBackend();
    const store = createVersionedStoreCore(backend, {});
    state.failNextWrites = 1;
    const wrapped = await store.replace([]).catch((error: unknown) => error);
    expect(wrapped).toBeInstanceOf(HistoryStoreError);
    expect((wrapped as HistoryStoreError).operation).toBe("replace");
    expect((wrapped as HistoryStoreError).cause).toBeInstanceOf(Error);
    state.conflict = true;
    const conflict = await store.append(user("x")).catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(ConversationConflictError);
    expect(conflict).not.toBeInstanceOf(HistoryStoreError);
  });

  it("refuses a message JSON cannot hold without queuing it", async () => {
    const { backend, state } = memoryBackend();
    const store = createVersionedStoreCore(backend, {});
    const cyclic: Record<string, unknown> = { role: "user", content: "x" };
    cyclic.self = cyclic;
    await expect(store.append(cyclic as unknown as ModelMessage)).rejects.toBeInstanceOf(HistoryStoreError);
    await expect(store.append(null as unknown as ModelMessage)).rejects.toBeInstanceOf(HistoryStoreError);
    await store.append(user("fine"));
    expect(state.writes).toEqual([['{"role":"user","content":"fine"}']]);
  });

  it("closes once, after pending calls, and refuses calls after that", async () => {
    const { backend, state } = memoryBackend();
    const store = createVersionedStoreCore(backend, { failOnError: true });
    expect(store.failOnError).toBe(true);
    const append = store.append(user("before close"));
    await Promise.all([store.close(), store.close()]);
    await append;
    expect(state.rows).toHaveLength(1);
    expect(state.closed).toBe(1);
    await expect(store.load()).rejects.toBeInstanceOf(HistoryStoreError);
  });
});
