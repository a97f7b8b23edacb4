import { spawnSync } from "node:child_process";
import { appendFile, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConcurrentQueryError, ConversationConflictError } from "../../src/errors";
import { createJsonlHistoryStore } from "../../src/history/jsonl";
import { runHistoryStoreConformance } from "../../src/testing/store-conformance";
import { user } from "../support/content";
import { sharedTemporaryFolder } from "../support/temporary-folders";

const folder = sharedTemporaryFolder("jsonl-store-");

const pathOf = (conversation: string) => join(folder, "sessions", `${conversation}.jsonl`);

runHistoryStoreConformance(
  "JSONL",
  (conversation) => createJsonlHistoryStore({ path: pathOf(conversation) }),
  {
    describe,
    it,
    expect,
    tearTail: (conversation) => appendFile(pathOf(conversation), '{"role":"user","content":"half a li'),
    cleanup: (conversation) => rm(pathOf(conversation), { force: true }),
  },
);

describe("createJsonlHistoryStore", () => {
  it("writes one JSON message per line, appending without rewriting what is there", async () => {
    const path = join(folder, "lines", "a.jsonl");
    const store = createJsonlHistoryStore({ path });
    await store.load();
    await store.append(user("one"));
    const { ino } = await stat(path);
    await store.append({ role: "assistant", content: [{ type: "text", text: "two\nlines" }] });
    expect(await readFile(path, "utf8")).toBe(
      '{"role":"user","content":"one"}\n{"role":"assistant","content":[{"type":"text","text":"two\\nlines"}]}\n',
    );
    expect((await stat(path)).ino).toBe(ino);
    await store.close();
  });

  it("creates parent folders and files with mode 0600; a missing file loads as empty", async () => {
    const path = join(folder, "deep", "er", "folder", "b.jsonl");
    const store = createJsonlHistoryStore({ path });
    expect(await store.load()).toEqual([]);
    await store.append(user("hello"));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await store.replace([user("replaced")]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await store.close();
  });

  it("skips malformed lines, blank lines and JSON that is not a message", async () => {
    const path = join(folder, "malformed.jsonl");
    await writeFile(
      path,
      [
        '{"role":"user","content":"kept 1"}',
        "not json at all",
        "",
        '{"role":"system","content":"not a history role"}',
        "[1,2,3]",
        '{"role":"assistant","content":[{"type":"text","text":"kept 2"}]}\r',
        '{"role":"user","content":"tor',
      ].join("\n"),
    );
    const store = createJsonlHistoryStore({ path });
    expect(await store.load()).toEqual([
      user("kept 1"),
      { role: "assistant", content: [{ type: "text", text: "kept 2" }] },
    ]);
    await store.close();
  });

  it("reads a file saved by an editor: a byte order mark and CRLF line ends lose no message", async () => {
    const path = join(folder, "edited.jsonl");
    await writeFile(
      path,
      '\uFEFF{"role":"user","content":"first"}\r\n{"role":"user","content":"second"}\r\n',
    );
    const store = createJsonlHistoryStore({ path });
    expect(await store.load()).toEqual([user("first"), user("second")]);
    await store.append(user("third"));
    expect(await createJsonlHistoryStore({ path }).load()).toEqual([
      user("first"),
      user("second"),
      user("third"),
    ]);
    await store.close();
  });

  it("starts an append after a torn tail on a new line, so the fragment never glues onto it", async () => {
    const path = join(folder, "torn.jsonl");
    await writeFile(path, '{"role":"user","content":"whole"}\n{"role":"assistant","cont');
    const store = createJsonlHistoryStore({ path });
    await store.load();
    await store.append(user("after the crash"));
    await store.append(user("and again"));
    expect(await readFile(path, "utf8")).toBe(
      '{"role":"user","content":"whole"}\n{"role":"assistant","cont\n{"role":"user","content":"after the crash"}\n{"role":"user","content":"and again"}\n',
    );
    expect(await createJsonlHistoryStore({ path }).load()).toEqual([
      user("whole"),
      user("after the crash"),
      user("and again"),
    ]);
    await store.close();
  });

  it("handles a torn tail also when appending without a load", async () => {
    const path = join(folder, "torn-unloaded.jsonl");
    await writeFile(path, '{"role":"user","content":"whole"}\n{"role":"us');
    const store = createJsonlHistoryStore({ path });
    await store.append(user("next"));
    expect(await createJsonlHistoryStore({ path }).load()).toEqual([user("whole"), user("next")]);
    await store.close();
  });

  it("replaces atomically through a temporary file in the same folder, leaving no temporary behind", async () => {
    const directory = join(folder, "atomic");
    const path = join(directory, "c.jsonl");
    const store = createJsonlHistoryStore({ path });
    await store.load();
    await store.append(user("old"));
    const before = (await stat(path)).ino;
    await store.replace([user("new 1"), user("new 2")]);
    expect((await stat(path)).ino).not.toBe(before);
    expect(await readdir(directory)).toEqual(["c.jsonl"]);
    await store.append(user("new 3"));
    expect(await readFile(path, "utf8")).toBe(
      '{"role":"user","content":"new 1"}\n{"role":"user","content":"new 2"}\n{"role":"user","content":"new 3"}\n',
    );
    await store.close();
  });

  it("names the path in the conflict error of a stale writer", async () => {
    const path = join(folder, "conflict.jsonl");
    const first = createJsonlHistoryStore({ path });
    const second = createJsonlHistoryStore({ path });
    await first.load();
    await second.load();
    await first.append(user("first"));
    const error = await second.append(user("second")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConversationConflictError);
    expect(error).toBeInstanceOf(ConcurrentQueryError);
    expect((error as ConversationConflictError).conversationId).toBe(path);
    expect((error as Error).message).toContain(path);
    await first.close();
    await second.close();
  });

  it("sees a file deleted or replaced behind its back as a conflict", async () => {
    const path = join(folder, "behind-back.jsonl");
    const store = createJsonlHistoryStore({ path });
    await store.load();
    await store.append(user("one"));
    await rm(path);
    await expect(store.append(user("two"))).rejects.toBeInstanceOf(ConversationConflictError);
    await writeFile(path, '{"role":"user","content":"someone else"}\n');
    await expect(store.append(user("three"))).rejects.toBeInstanceOf(ConversationConflictError);
    expect(await store.load()).toEqual([user("someone else")]);
    await store.append(user("four"));
    expect(await createJsonlHistoryStore({ path }).load()).toEqual([user("someone else"), user("four")]);
    await store.close();
  });

  it("breaks a write lock left by a dead process at once", async () => {
    const path = join(folder, "dead-lock.jsonl");
    const deadPid = spawnSync(process.execPath, [
      "-e",
      "process.stdout.write(String(process.pid))",
    ]).stdout.toString();
    await writeFile(
      `${path}.lock`,
      JSON.stringify({ pid: Number(deadPid), host: hostname(), token: "x", acquiredAt: Date.now() }),
    );
    const store = createJsonlHistoryStore({ path });
    await store.load();
    await store.append(user("written"));
    expect(await store.load()).toEqual([user("written")]);
    await expect(stat(`${path}.lock`)).rejects.toMatchObject({ code: "ENOENT" });
    await store.close();
  });

  it("works with a file name near the 255-byte limit: replace, its lock, and breaking a dead lock", async () => {
    // The temporary file, the lock and the claim on a dead lock add to the name; none may exceed it.
    const deadPid = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout;
    for (const length of [240, 253]) {
      const directory = join(folder, `long-${length}`);
      const path = join(directory, `${"n".repeat(length - ".jsonl".length)}.jsonl`);
      const store = createJsonlHistoryStore({ path });
      await store.load();
      await store.append(user("one"));
      await store.replace([user("replaced")]);
      if (length === 240) {
        await writeFile(
          `${path}.lock`,
          JSON.stringify({ pid: Number(deadPid), host: hostname(), token: "x", acquiredAt: Date.now() }),
        );
      }
      await store.append(user("two"));
      expect(await createJsonlHistoryStore({ path }).load()).toEqual([user("replaced"), user("two")]);
      expect(await readdir(directory)).toEqual([basename(path)]);
      await store.close();
    }
  });

  it("waits for a live lock holder, and breaks a lock older than staleLockMs", async () => {
    const path = join(folder, "old-lock.jsonl");
    const lock = { pid: process.pid, host: "another-host", token: "x", acquiredAt: Date.now() };
    await writeFile(`${path}.lock`, JSON.stringify(lock));
    // A staleness limit no slow machine reaches; the lock is made old by the test, not by waiting.
    const store = createJsonlHistoryStore({ path, staleLockMs: 60_000 });
    await store.load();
    let settled = false;
    const append = store.append(user("after the lock")).finally(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    const old = { ...lock, acquiredAt: Date.now() - 61_000 };
    await writeFile(`${path}.lock`, JSON.stringify(old));
    await append;
    expect(await store.load()).toEqual([user("after the lock")]);
    await store.close();
  });

  it("releases the write lock after each write", async () => {
    const path = join(folder, "lock-released.jsonl");
    const store = createJsonlHistoryStore({ path });
    await store.append(user("one"));
    await store.replace([user("two")]);
    expect((await readdir(folder)).filter((name) => name.startsWith("lock-released"))).toEqual([
      "lock-released.jsonl",
    ]);
    await store.close();
  });

  it("exposes failOnError and rejects an empty path", () => {
    expect(createJsonlHistoryStore({ path: join(folder, "x.jsonl") }).failOnError).toBe(false);
    expect(createJsonlHistoryStore({ path: join(folder, "x.jsonl"), failOnError: true }).failOnError).toBe(
      true,
    );
    expect(() => createJsonlHistoryStore({ path: "" })).toThrow(TypeError);
  });
});
