import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createJsonlHistoryStore,
  defineHistoryStore,
  type ModelMessage,
  readHistoryWindow,
} from "../../src/index";

const user = (text: string): ModelMessage => ({ role: "user", content: text });
const line = (message: ModelMessage) => `${JSON.stringify(message)}\n`;

function fileWith(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "jsonl-window-")), "c.jsonl");
  writeFileSync(path, content);
  return path;
}

describe("JSONL loadRange", () => {
  it("skips torn and blank lines as load() does, counting only whole messages", async () => {
    const messages = Array.from({ length: 6 }, (_, index) => user(`m${index}`));
    const path = fileWith(
      `\uFEFF${line(messages[0]!)}\n${line(messages[1]!)}{"role":"user","con\n${messages.slice(2).map(line).join("")}{"role":"assistant","content":[{"ty`,
    );
    const store = createJsonlHistoryStore({ path });
    expect(await store.load()).toEqual(messages);
    expect(await store.loadRange({ limit: 2 })).toEqual({ messages: messages.slice(4), from: 4, total: 6 });
    expect(await store.loadRange({ from: 1, limit: 2 })).toEqual({
      messages: messages.slice(1, 3),
      from: 1,
      total: 6,
    });
  });

  it("is exact when a torn line in the window happens to end in a brace", async () => {
    const messages = Array.from({ length: 4 }, (_, index) => user(`m${index}`));
    // Shaped like an object, but not a message: counted by the scan, then the read goes the exact way.
    const path = fileWith(
      `${line(messages[0]!)}{"role":"user","content":{}}\n${messages.slice(1).map(line).join("")}`,
    );
    const store = createJsonlHistoryStore({ path });
    expect(await store.loadRange({ from: 0, limit: 2 })).toEqual({
      messages: messages.slice(0, 2),
      from: 0,
      total: 4,
    });
  });

  it("sees what another process appended since, without adopting it as this store's version", async () => {
    const path = fileWith(line(user("one")));
    const store = createJsonlHistoryStore({ path });
    await store.load();
    appendFileSync(path, line(user("two")));
    expect(await store.loadRange({ limit: 1 })).toEqual({ messages: [user("two")], from: 1, total: 2 });
    await expect(store.append(user("three"))).rejects.toThrow(/conflict|changed|another/i);
  });

  it("of a missing file is empty", async () => {
    const store = createJsonlHistoryStore({
      path: join(mkdtempSync(join(tmpdir(), "jsonl-window-")), "none.jsonl"),
    });
    expect(await store.loadRange({ limit: 10 })).toEqual({ messages: [], from: 0, total: 0 });
  });
});

describe("readHistoryWindow on a store without loadRange", () => {
  it("cuts one load(), and defineHistoryStore passes a given loadRange through", async () => {
    const rows = [user("a"), user("b"), user("c")];
    let loads = 0;
    const plain = defineHistoryStore({
      load: async () => {
        loads++;
        return rows;
      },
      append: async () => {},
      replace: async () => {},
    });
    expect("loadRange" in plain).toBe(false);
    expect(await readHistoryWindow(plain, { limit: 2 })).toEqual({
      messages: rows.slice(1),
      from: 1,
      total: 3,
    });
    expect(loads).toBe(1);
    const windowed = defineHistoryStore({
      load: async () => rows,
      loadRange: async () => ({ messages: [], from: 7, total: 7 }),
      append: async () => {},
      replace: async () => {},
    });
    expect(await readHistoryWindow(windowed, { limit: 2 })).toEqual({ messages: [], from: 7, total: 7 });
    await expect(readHistoryWindow(windowed, { limit: 0 })).rejects.toBeInstanceOf(TypeError);
  });
});
