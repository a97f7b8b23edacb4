/**
 * A pause inside a subagent across processes, for a real SQLite file, PostgreSQL and Redis parent
 * store: the process that paused is killed (SIGKILL) once the pause is stored, and a second process
 * resumes it — the child's call runs there, once, and the parent finishes. Two processes resolving
 * the same pause at once: one wins, the other gets ConversationConflictError, the call runs once.
 * A subagent with a durable store of its own keeps its pause there (the parent's marker holds no
 * copy of it) and is resumed from it.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ModelMessage } from "../../src/messages/types";
import type { StoreLocation } from "../fixtures/stores/store-workload";
import { startChild } from "../integrations/stores/child-runner";
import {
  PROCESS_TEST_TIMEOUT_MS,
  storeLocations,
  useProcessTestEnvironment,
} from "../integrations/stores/process-test-environment";
import { expectWellFormed } from "../loop/support";

const env = useProcessTestEnvironment("childpause", "test/fixtures/stores/child-pause-child.ts");

// The parent over a real SQLite file, PostgreSQL and Redis.
const { jsonl: _jsonl, ...locations }: Record<string, (conversation: string) => StoreLocation> =
  storeLocations(env);

const PENDING = [
  {
    tool_use_id: "c1",
    name: "deploy",
    input: { target: "production" },
    parent_tool_use_id: "p1",
    agent: "releaser",
  },
];

interface Ready {
  pending: unknown[];
  marker: { suspended_calls?: Array<{ tool_use_id: string; history?: ModelMessage[] }> };
}
interface Report {
  subtype?: string;
  result?: string;
  errorName?: string;
  error?: string;
  history: ModelMessage[];
}

interface Run {
  location: StoreLocation;
  runsFile: string;
  childStore?: boolean;
}

/** Pauses in a process that is then killed with SIGKILL. */
async function pauseAndKill(run: Run): Promise<void> {
  const child = startChild(env.childScript, { ...run, phase: "pause" });
  const line = await child.waitForLine((text) => text.startsWith("{"));
  expect(JSON.parse(line)).toEqual({ subtype: "requires_approval", pending: PENDING });
  const { signal } = await child.exited;
  expect(signal, child.stderr()).toBe("SIGKILL");
}

/** Starts a resolver; resolves with what it saw before resolving, and (later) its report. */
function resolver(run: Run, waitForGo = false) {
  const child = startChild(env.childScript, { ...run, phase: "resume", waitForGo });
  const ready = child
    .waitForLine((text) => text.startsWith("ready "))
    .then((line) => JSON.parse(line.slice("ready ".length)) as Ready);
  const report = child
    .waitForLine((text) => text.startsWith("{"))
    .then(async (line) => {
      expect((await child.exited).code, child.stderr()).toBe(0);
      return JSON.parse(line) as Report;
    });
  return { child, ready, report };
}

async function runs(runsFile: string): Promise<string[]> {
  const text = await readFile(runsFile, "utf8").catch(() => "");
  return text.split("\n").filter((line) => line !== "");
}

function expectFinished(report: Report): void {
  expect(report.subtype).toBe("success");
  expect(report.result).toBe("Parent saw: Child: deployed to production");
  expectWellFormed(report.history);
  expect(report.history.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
  expect(report.history.some((message) => "pending_approvals" in message)).toBe(false);
}

describe.each(Object.keys(locations))(
  "a pause inside a subagent over a %s parent store, across processes",
  (kind) => {
    it(
      "survives kill -9 of the pausing process; a second process resumes the child, which runs its call once there",
      async () => {
        const run = { location: locations[kind]!("killed"), runsFile: join(env.folder, `${kind}-runs.txt`) };
        await pauseAndKill(run);
        expect(await runs(run.runsFile)).toEqual([]);
        const second = resolver(run);
        const ready = await second.ready;
        expect(ready.pending).toEqual(PENDING);
        // The child lived in memory: its history was copied into the parent's marker.
        expect(ready.marker.suspended_calls?.[0]?.history?.map((message) => message.role)).toEqual([
          "user",
          "assistant",
          "user",
        ]);
        expectFinished(await second.report);
        expect(await runs(run.runsFile)).toEqual([`${second.child.process.pid} production`]);
      },
      PROCESS_TEST_TIMEOUT_MS,
    );

    it(
      "two processes resolving the same pause: one wins, the other gets a conflict error, the child's call runs once",
      async () => {
        const run = {
          location: locations[kind]!("raced"),
          runsFile: join(env.folder, `${kind}-race-runs.txt`),
        };
        await pauseAndKill(run);
        const resolvers = [resolver(run, true), resolver(run, true)];
        await Promise.all(resolvers.map((each) => each.ready));
        for (const each of resolvers) each.child.process.stdin.end("go\n");
        const reports = await Promise.all(resolvers.map((each) => each.report));
        const winners = reports.filter((report) => report.subtype === "success");
        const losers = reports.filter((report) => report.errorName !== undefined);
        expect(winners).toHaveLength(1);
        expectFinished(winners[0]!);
        expect(losers).toHaveLength(1);
        expect(losers[0]!.errorName).toBe("ConversationConflictError");
        expect(losers[0]!.error).toContain("resolved by another Agent first");
        expect(await runs(run.runsFile)).toHaveLength(1);
      },
      PROCESS_TEST_TIMEOUT_MS,
    );

    it(
      "a subagent with a durable store of its own keeps its pause there, and another process resumes it from it",
      async () => {
        const run = {
          location: locations[kind]!("own-store"),
          runsFile: join(env.folder, `${kind}-own-runs.txt`),
          childStore: true,
        };
        await pauseAndKill(run);
        const second = resolver(run);
        const ready = await second.ready;
        expect(ready.pending).toEqual(PENDING);
        expect(ready.marker.suspended_calls).toEqual([
          { tool_use_id: "p1", agent: "releaser", pending_ids: ["c1"] }, // no copy: the child's store has it
        ]);
        expectFinished(await second.report);
        expect(await runs(run.runsFile)).toEqual([`${second.child.process.pid} production`]);
      },
      PROCESS_TEST_TIMEOUT_MS,
    );
  },
);
