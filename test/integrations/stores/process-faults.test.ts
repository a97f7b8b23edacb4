/**
 * Process-level faults on real stores: a writer killed with SIGKILL in the middle of its loop, and
 * two processes racing on one conversation.
 */
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ModelMessage } from "../../../src/messages/types";
import { openStore } from "../../fixtures/stores/open-store";
import type { ChildConfig } from "../../fixtures/stores/store-child";
import {
  generationMessages,
  numberedMessage,
  type StoreLocation,
} from "../../fixtures/stores/store-workload";
import { startChild } from "./child-runner";
import { PROCESS_TEST_TIMEOUT_MS, useProcessTestEnvironment } from "./process-test-environment";

const env = useProcessTestEnvironment("faults", "test/fixtures/stores/store-child.ts");
const { postgresUrl, redisUrl, schema, keyPrefix } = env;

async function loadFrom(location: StoreLocation): Promise<ModelMessage[]> {
  const store = openStore(location);
  try {
    return await store.load();
  } finally {
    await store.close();
  }
}

const fileLocations = {
  jsonl: (label: string): StoreLocation => ({ kind: "jsonl", path: join(env.folder, `${label}.jsonl`) }),
  sqlite: (label: string): StoreLocation => ({
    kind: "sqlite",
    path: join(env.folder, "faults.db"),
    conversationId: label,
  }),
};

const everyLocation = {
  ...fileLocations,
  postgres: (label: string): StoreLocation => ({
    kind: "postgres",
    connectionString: postgresUrl,
    schema,
    conversationId: label,
  }),
  redis: (label: string): StoreLocation => ({
    kind: "redis",
    url: redisUrl,
    keyPrefix,
    conversationId: label,
  }),
};

/** Starts a looping child, lets it report `progress` more writes, and kills it with SIGKILL. */
async function killMidLoop(config: ChildConfig, progress: number): Promise<number> {
  const child = startChild(env.childScript, config);
  const counted = (line: string) => Number(line.split(" ")[1]);
  const first = counted(await child.waitForLine(() => true));
  const last = counted(await child.waitForLine((line) => counted(line) >= first + progress));
  child.process.kill("SIGKILL");
  expect((await child.exited).signal).toBe("SIGKILL");
  return last;
}

describe.each(Object.entries(fileLocations))("kill -9 of a process writing to %s", (_kind, locationFor) => {
  it(
    "leaves a well-formed prefix of what it appended, and the next process continues it",
    async () => {
      const location = locationFor(`append-${randomBytes(4).toString("hex")}`);
      let reported = -1;
      for (const progress of [150, 40, 90]) {
        reported = await killMidLoop({ location, mode: "append-loop" }, progress);
        const messages = await loadFrom(location);
        expect(messages.length).toBeGreaterThan(reported);
        expect(messages).toEqual(messages.map((_, index) => numberedMessage(index)));
      }
      const store = openStore(location);
      const messages = await store.load();
      await store.append(numberedMessage(messages.length));
      await store.close();
      expect(await loadFrom(location)).toEqual([...messages, numberedMessage(messages.length)]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "leaves one whole generation of a history it kept replacing, never a mix",
    async () => {
      const location = locationFor(`replace-${randomBytes(4).toString("hex")}`);
      const reported = await killMidLoop({ location, mode: "replace-loop" }, 60);
      const messages = await loadFrom(location);
      const generation = Number(
        /^generation (\d+) /.exec((messages[0]!.content as Array<{ text: string }>)[0]!.text)![1],
      );
      expect(generation).toBeGreaterThanOrEqual(reported);
      expect(messages).toEqual(generationMessages(generation));
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});

describe("a JSONL writer whose file hits a size limit mid-write", () => {
  it(
    "undoes the partial write, so the file keeps whole lines only and another process continues it",
    async () => {
      const location = fileLocations.jsonl(`limit-${randomBytes(4).toString("hex")}`);
      const limitBytes = 150_000;
      const child = startChild(env.childScript, { location, mode: "append-until-failure" }, [
        "prlimit",
        `--fsize=${limitBytes}`,
      ]);
      const failure = await child.waitForLine((line) => line.startsWith("failed "));
      expect(failure).toMatch(/^failed \d+ HistoryStoreError EFBIG$/);
      expect(await child.waitForLine((line) => line.startsWith("retry "))).toBe("retry failed");
      expect((await child.exited).code).toBe(0);

      const failedIndex = Number(failure.split(" ")[1]);
      const path = (location as { path: string }).path;
      const content = await readFile(path, "utf8");
      expect(content.length).toBeLessThan(limitBytes);
      expect(content.endsWith("\n")).toBe(true);
      const expected = Array.from({ length: failedIndex }, (_, index) => numberedMessage(index));
      expect(content).toBe(expected.map((message) => `${JSON.stringify(message)}\n`).join(""));

      const store = openStore(location);
      expect(await store.load()).toEqual(expected);
      await store.append(numberedMessage(failedIndex));
      await store.close();
      expect(await loadFrom(location)).toEqual([...expected, numberedMessage(failedIndex)]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});

describe.each(Object.entries(everyLocation))(
  "two processes racing on one %s conversation",
  (_kind, locationFor) => {
    it(
      "lets exactly one win; the other gets ConversationConflictError naming the conversation",
      async () => {
        const conversation = `race-${randomBytes(4).toString("hex")}`;
        const location = locationFor(conversation);
        const children = ["alpha", "beta"].map((name) =>
          startChild(env.childScript, { location, mode: "race", name }),
        );
        await Promise.all(children.map((child) => child.waitForLine((line) => line === "loaded")));
        for (const child of children) child.process.stdin.end("go\n");
        const outcomes = await Promise.all(
          children.map((child) =>
            child.waitForLine((line) => line === "won" || line.startsWith("conflict ")),
          ),
        );
        for (const child of children) expect((await child.exited).code).toBe(0);

        const winner = outcomes.indexOf("won");
        expect(outcomes.filter((outcome) => outcome === "won")).toHaveLength(1);
        const expectedName = location.kind === "jsonl" ? location.path : conversation;
        expect(outcomes[1 - winner]).toBe(`conflict ${expectedName}`);
        const winnerName = winner === 0 ? "alpha" : "beta";
        expect(await loadFrom(location)).toEqual(
          [0, 1, 2].map((index) => ({ role: "user", content: `${winnerName} ${index}` })),
        );
      },
      PROCESS_TEST_TIMEOUT_MS,
    );
  },
);
