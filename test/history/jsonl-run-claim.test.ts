/**
 * JSONL run claims across real processes: several processes taking one claim at once get exactly
 * one winner — on a free conversation and on one whose old claim has expired (the takeover race) —
 * round after round; a holder killed with SIGKILL leaves its claim, which blocks until its expiry
 * and is taken after it; a released claim leaves no file behind.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJsonlHistoryStore } from "../../src/history/jsonl";
import {
  bundleChild,
  killAllChildren,
  type RunningChild,
  startChild,
} from "../integrations/stores/child-runner";
import { PROCESS_TEST_TIMEOUT_MS } from "../integrations/stores/process-test-environment";

const PROCESSES = 4;
const ROUNDS = 6;

let childScript = "";
let folder = "";

beforeAll(async () => {
  childScript = await bundleChild("test/fixtures/history/jsonl-claim-child.ts");
  folder = await mkdtemp(join(tmpdir(), "jsonl-run-claim-"));
});

afterAll(async () => {
  killAllChildren();
  await rm(folder, { recursive: true, force: true });
  await rm(childScript, { force: true });
});

async function startTaker(config: { ttlMs: number; renewEveryMs?: number }): Promise<RunningChild> {
  const child = startChild(childScript, { folder, ...config });
  await child.waitForLine((line) => line.includes('"ready"'));
  return child;
}

/** Tells every taker to claim `name` at once; resolves with who won. */
async function race(takers: readonly RunningChild[], name: string): Promise<boolean[]> {
  const answers = takers.map((taker) =>
    taker.waitForLine((line) => line.includes(`"name":${JSON.stringify(name)}`)),
  );
  for (const taker of takers) taker.process.stdin.write(`take ${name}\n`);
  return (await Promise.all(answers)).map((line) => (JSON.parse(line) as { won: boolean }).won);
}

/** Polls `condition` every 50 ms until it holds; fails after `limitMs` (a generous bound, not a timing claim). */
async function eventually(condition: () => Promise<boolean>, limitMs = 60_000): Promise<void> {
  const giveUpAt = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > giveUpAt) throw new Error("The condition never held.");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("JSONL run claims across processes", () => {
  it(
    `${PROCESSES} processes taking one claim at once: exactly one wins, ${ROUNDS} rounds, free and expired`,
    async () => {
      const takers = await Promise.all(
        Array.from({ length: PROCESSES }, () => startTaker({ ttlMs: 600_000 })),
      );
      for (let round = 0; round < ROUNDS; round++) {
        const name = `race-${round}`;
        if (round % 2 === 1) {
          // An old claim that has expired: every process may take it over, one does.
          const old = createJsonlHistoryStore({ path: join(folder, `${name}.jsonl`) });
          expect(await old.claimRun({ ttlMs: 1 })).toBeDefined();
          await eventually(async () => !(await old.isRunClaimed()));
        }
        const won = await race(takers, name);
        expect(won.filter(Boolean), `round ${round}: ${JSON.stringify(won)}`).toHaveLength(1);
        const store = createJsonlHistoryStore({ path: join(folder, `${name}.jsonl`) });
        expect(await store.isRunClaimed()).toBe(true);
        expect(await store.claimRun()).toBeUndefined();
      }
      for (const taker of takers) taker.process.kill("SIGKILL");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a holder killed with SIGKILL blocks until its claim's expiry, and its claim is taken after it",
    async () => {
      const holder = await startTaker({ ttlMs: 3_000, renewEveryMs: 1_000 });
      const [won] = await race([holder], "killed");
      expect(won).toBe(true);
      holder.process.kill("SIGKILL");
      await holder.exited;

      const claimFile = join(folder, "killed.jsonl.run");
      const left = JSON.parse(await readFile(claimFile, "utf8")) as { expiresAt: number; pid: number };
      expect(left.pid).toBe(holder.process.pid);
      const store = createJsonlHistoryStore({ path: join(folder, "killed.jsonl") });
      let taken: Awaited<ReturnType<typeof store.claimRun>>;
      await eventually(async () => {
        taken = await store.claimRun({ ttlMs: 600_000 });
        // Refused while the dead holder's claim was live: never taken before it expired.
        if (taken) expect(Date.now()).toBeGreaterThanOrEqual(left.expiresAt);
        return taken !== undefined;
      });
      expect(await store.isRunClaimed()).toBe(true);
      await taken!.release();
      expect(await store.isRunClaimed()).toBe(false);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it("a released claim leaves no file beside the transcript", async () => {
    const path = join(folder, "tidy", "conversation.jsonl");
    const store = createJsonlHistoryStore({ path });
    const claim = await store.claimRun();
    expect(await readdir(join(folder, "tidy"))).toEqual(["conversation.jsonl.run"]);
    expect(await claim!.renew()).toBe(true);
    await claim!.release();
    expect(await readdir(join(folder, "tidy"))).toEqual([]);
  });
});
