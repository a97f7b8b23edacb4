/**
 * An MCP question (elicitation) pause across processes, over a JSONL file, a real SQLite file, Redis and
 * PostgreSQL: the process that paused is killed (SIGKILL) once the pause is stored, and a second
 * process answers — the call is issued again there and completes with the server's result. Two
 * processes answering the same pause at once: one wins, the other gets ConversationConflictError,
 * and the server's answered call runs once. A process killed while the answered call runs leaves
 * the call "effect unverified" for the next one (the approvals' crash rule).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { UNRECORDED_TOOL_RESULT_TEXT } from "../../../src/history/repair";
import type { PendingInput } from "../../../src/messages/pending-inputs";
import type { ModelMessage, ToolResultBlock } from "../../../src/messages/types";
import type { StoreLocation } from "../../fixtures/stores/store-workload";
import { expectWellFormed } from "../../loop/support";
import { startChild } from "../stores/child-runner";
import {
  PROCESS_TEST_TIMEOUT_MS,
  storeLocations,
  useProcessTestEnvironment,
} from "../stores/process-test-environment";

const env = useProcessTestEnvironment("elicit", "test/fixtures/stores/elicit-child.ts");
const SERVER = fileURLToPath(new URL("../../fixtures/mcp/questions-server.mjs", import.meta.url));

const locations: Record<string, (conversation: string) => StoreLocation> = storeLocations(env);

const PENDING: PendingInput[] = [
  {
    id: "toolu_1/input-1",
    server: "questions",
    message: "What is your name?",
    mode: "form",
    requestedSchema: {
      type: "object",
      properties: {
        name: { type: "string", title: "Name" },
        newsletter: { type: "boolean", default: false },
      },
      required: ["name"],
    },
    tool_use_id: "toolu_1",
  },
];

interface Report {
  subtype?: string;
  result?: string;
  errorName?: string;
  error?: string;
  history: ModelMessage[];
}

interface Run {
  location: StoreLocation;
  log: string;
  server: string;
}

function runOf(kind: string, name: string): Run {
  return { location: locations[kind]!(name), log: join(env.folder, `${kind}-${name}.log`), server: SERVER };
}

async function logged(run: Run): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(run.log, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

async function pauseAndKill(run: Run): Promise<void> {
  const child = startChild(env.childScript, { ...run, phase: "pause" });
  const line = await child.waitForLine((text) => text.startsWith("{"));
  expect(JSON.parse(line)).toEqual({ subtype: "requires_input", pending: PENDING });
  const { signal } = await child.exited;
  expect(signal, child.stderr()).toBe("SIGKILL");
}

function resolver(run: Run, options: { waitForGo?: boolean; hang?: boolean } = {}) {
  const child = startChild(env.childScript, { ...run, phase: "resume", ...options });
  const ready = child
    .waitForLine((text) => text.startsWith("ready "))
    .then((line) => JSON.parse(line.slice("ready ".length)) as { pending: PendingInput[]; pid: number });
  const report = () =>
    child
      .waitForLine((text) => text.startsWith("{"))
      .then(async (line) => {
        expect((await child.exited).code, child.stderr()).toBe(0);
        return JSON.parse(line) as Report;
      });
  return { child, ready, report };
}

function greetResult(report: Report): ToolResultBlock | undefined {
  for (const message of report.history) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    for (const block of message.content)
      if (block.type === "tool_result" && block.tool_use_id === "toolu_1") return block;
  }
  return undefined;
}

describe.each(Object.keys(locations))("an MCP question pause over a %s store, across processes", (kind) => {
  it(
    "survives kill -9 of the pausing process; a second process answers and the call completes there",
    async () => {
      const run = runOf(kind, "killed");
      await pauseAndKill(run);
      const second = resolver(run);
      const { pending, pid } = await second.ready;
      expect(pending).toEqual(PENDING);
      const report = await second.report();
      expect(report).toMatchObject({ subtype: "success", result: "Greeted." });
      expect(greetResult(report)?.content).toEqual([
        { type: "text", text: `Hi, Grace ${pid} (newsletter: false)` },
      ]);
      expectWellFormed(report.history);
      expect(report.history.some((message) => "pending_inputs" in message)).toBe(false);
      expect((await logged(run)).map((entry) => entry.tool)).toEqual(["greet", "greet"]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "two processes answering the same pause: one wins, the other gets a conflict error, the answered call runs once",
    async () => {
      const run = runOf(kind, "raced");
      await pauseAndKill(run);
      const resolvers = [resolver(run, { waitForGo: true }), resolver(run, { waitForGo: true })];
      await Promise.all(resolvers.map((each) => each.ready));
      for (const each of resolvers) each.child.process.stdin.end("go\n");
      const reports = await Promise.all(resolvers.map((each) => each.report()));
      const winners = reports.filter((report) => report.subtype === "success");
      const losers = reports.filter((report) => report.errorName !== undefined);
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(1);
      expect(losers[0]!.errorName).toBe("ConversationConflictError");
      expectWellFormed(winners[0]!.history);
      // The first run, then the winner's: the loser issued nothing.
      expect((await logged(run)).map((entry) => entry.tool)).toEqual(["greet", "greet"]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a process killed while the answered call runs leaves it 'effect unverified' for the next process",
    async () => {
      const run = runOf(kind, "crashed");
      await pauseAndKill(run);
      const second = resolver(run, { hang: true });
      await second.ready;
      // Kill the resuming process once the server has the answer and the call is in flight.
      for (;;) {
        if ((await logged(run)).some((entry) => entry.answered !== undefined)) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      second.child.process.kill("SIGKILL");
      await second.child.exited;
      const third = startChild(env.childScript, { ...run, phase: "continue" });
      const line = await third.waitForLine((text) => text.startsWith("{"));
      expect((await third.exited).code, third.stderr()).toBe(0);
      const report = JSON.parse(line) as Report;
      expect(report.subtype).toBe("success");
      expect(greetResult(report)).toMatchObject({ is_error: true, content: UNRECORDED_TOOL_RESULT_TEXT });
      expectWellFormed(report.history);
      expect((await logged(run)).filter((entry) => entry.tool === "greet")).toHaveLength(2);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
