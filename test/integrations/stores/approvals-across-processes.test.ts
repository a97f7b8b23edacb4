/**
 * Approvals across processes, for every durable store: a query pauses for approval in one process,
 * which is then killed (SIGKILL); a second process over the same store sees the pending call and
 * approves it, and the call runs there, once. Two processes resolving the same pause at once: one
 * wins, the other gets a ConversationConflictError saying so, and the call runs once. The same
 * with a subagent that needs approval: the child starts in the resuming process, never before.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ModelMessage } from "../../../src/messages/types";
import type { StoreLocation } from "../../fixtures/stores/store-workload";
import { startChild } from "./child-runner";
import {
  PROCESS_TEST_TIMEOUT_MS,
  storeLocations,
  useProcessTestEnvironment,
} from "./process-test-environment";

const env = useProcessTestEnvironment("approvals", "test/fixtures/stores/approval-child.ts");

const locations: Record<string, (conversation: string) => StoreLocation> = storeLocations(env);

interface ResumeReport {
  pending: unknown[];
  subtype?: string;
  errorName?: string;
  error?: string;
  history: ModelMessage[];
}

const PENDING = [{ tool_use_id: "toolu_deploy", name: "deploy", input: { target: "production" } }];

const PENDING_SUBAGENT = [{ tool_use_id: "toolu_release", name: "releaser", input: { prompt: "Ship it." } }];

/** Pauses in a child that is then killed with SIGKILL. */
async function pauseAndKill(location: StoreLocation, runsFile: string, subagent = false): Promise<void> {
  const child = startChild(env.childScript, { location, phase: "pause", runsFile, subagent });
  const line = await child.waitForLine((text) => text.startsWith("{"));
  const pending = subagent ? PENDING_SUBAGENT : PENDING;
  expect(JSON.parse(line)).toEqual({ subtype: "requires_approval", pending });
  const { signal } = await child.exited;
  expect(signal, child.stderr()).toBe("SIGKILL");
}

async function runs(runsFile: string): Promise<string[]> {
  const text = await readFile(runsFile, "utf8").catch(() => "");
  return text.split("\n").filter((line) => line !== "");
}

describe.each(Object.keys(locations))("approvals over a %s store, across processes", (kind) => {
  it(
    "a pause survives kill -9 and another process resumes it; the call runs once, there",
    async () => {
      const location = locations[kind]!("paused");
      const runsFile = join(env.folder, `${kind}-runs.txt`);
      await pauseAndKill(location, runsFile);
      expect(await runs(runsFile)).toEqual([]);
      const child = startChild(env.childScript, { location, phase: "resume", runsFile });
      const report = JSON.parse(await child.waitForLine((text) => text.startsWith("{"))) as ResumeReport;
      expect((await child.exited).code, child.stderr()).toBe(0);
      expect(report.pending).toEqual(PENDING);
      expect(report.subtype).toBe("success");
      expect(await runs(runsFile)).toEqual([`${child.process.pid} production`]);
      expect(report.history.map((message) => message.role)).toEqual([
        "user",
        "assistant",
        "user",
        "assistant",
      ]);
      expect(report.history.some((message) => "pending_approvals" in message)).toBe(false);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "two processes resolving the same pause: one wins, the other gets a conflict error, the call runs once",
    async () => {
      const location = locations[kind]!("raced");
      const runsFile = join(env.folder, `${kind}-race-runs.txt`);
      await pauseAndKill(location, runsFile);
      const resolvers = [0, 1].map(() =>
        startChild(env.childScript, { location, phase: "resume", runsFile, waitForGo: true }),
      );
      // Both have loaded the pause before either resolves it.
      await Promise.all(resolvers.map((child) => child.waitForLine((text) => text === "ready")));
      for (const child of resolvers) child.process.stdin.end("go\n");
      const reports = await Promise.all(
        resolvers.map(async (child) => {
          const report = JSON.parse(await child.waitForLine((text) => text.startsWith("{"))) as ResumeReport;
          expect((await child.exited).code, child.stderr()).toBe(0);
          return report;
        }),
      );
      const winners = reports.filter((report) => report.subtype === "success");
      const losers = reports.filter((report) => report.errorName !== undefined);
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(1);
      expect(losers[0]!.errorName).toBe("ConversationConflictError");
      expect(losers[0]!.error).toContain("resolved by another Agent first");
      expect(await runs(runsFile)).toHaveLength(1);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});

describe.each(Object.keys(locations))("a subagent's approval over a %s store, across processes", (kind) => {
  it(
    "the parent pauses before the child starts, is killed, and another process runs the child once, then the parent",
    async () => {
      const location = locations[kind]!("subagent-paused");
      const runsFile = join(env.folder, `${kind}-subagent-runs.txt`);
      await pauseAndKill(location, runsFile, true);
      expect(await runs(runsFile)).toEqual([]); // the child never started in the paused process
      const child = startChild(env.childScript, { location, phase: "resume", runsFile, subagent: true });
      const report = JSON.parse(await child.waitForLine((text) => text.startsWith("{"))) as ResumeReport;
      expect((await child.exited).code, child.stderr()).toBe(0);
      expect(report.pending).toEqual(PENDING_SUBAGENT);
      expect(report.subtype).toBe("success");
      expect(await runs(runsFile)).toEqual([`${child.process.pid} production`]);
      // The parent's history: the child's result is the subagent call's result; no marker is left.
      const results = report.history.flatMap((message) =>
        Array.isArray(message.content) ? message.content.filter((block) => block.type === "tool_result") : [],
      );
      expect(results).toEqual([
        { type: "tool_result", tool_use_id: "toolu_release", content: "Child: deployed." },
      ]);
      expect(report.history.some((message) => "pending_approvals" in message)).toBe(false);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
