/**
 * Durable tool steps under kill -9 (issue 43, item 4): for every store — JSONL, SQLite, PostgreSQL,
 * Redis and a `defineHistoryStore` store of the user's own — a real child process runs a tool of
 * three steps (one a counter in PostgreSQL standing for "charge the card") and is SIGKILLed at a
 * chosen moment: before the call, while a step runs, or between steps (with a small delay after
 * the line that told it). A fresh process then resumes every conversation, which must end. Checked for
 * each run: the conversation is well-formed and ended; a step ran more than once only when a kill
 * interrupted it before its result was recorded (every run of a step but its last belongs to a
 * killed process and was the last thing that process started); every step a result reports ran.
 */
import { join } from "node:path";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { UNRECORDED_TOOL_RESULT_TEXT } from "../../src/history/repair";
import { defineHistoryStore } from "../../src/history/store";
import { createAgent, isWellFormedHistory, type ModelMessage } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { openStore } from "../fixtures/stores/open-store";
import { customFileStore } from "../fixtures/stores/steps-custom-store";
import type { StoreLocation } from "../fixtures/stores/store-workload";
import { startChild } from "../integrations/stores/child-runner";
import { storeLocations, useProcessTestEnvironment } from "../integrations/stores/process-test-environment";

const RUNS = Number(process.env.AGENT_LATTICE_STEPS_CRASH_RUNS ?? 50);
const CONCURRENT_RUNS = 3;
const STEPS = ["reserve", "charge", "receipt"] as const;
/** Where a run is killed: after the line the child prints there. */
const KILL_AFTER = ["ready", ...STEPS.flatMap((step) => [`run:${step}`, `recorded:${step}`])];

type Location = StoreLocation | { kind: "custom"; path: string };
const env = useProcessTestEnvironment("steps", "test/fixtures/stores/steps-child.ts");
const locations: Record<string, (conversation: string) => Location> = {
  ...storeLocations(env),
  custom: (conversation) => ({ kind: "custom", path: join(env.folder, `${conversation}.json`) }),
};
const table = () => `"${env.schema}".step_runs`;

beforeAll(async () => {
  const pool = new pg.Pool({ connectionString: env.postgresUrl });
  await pool.query(`CREATE SCHEMA IF NOT EXISTS "${env.schema}"`);
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${table()} (seq bigserial PRIMARY KEY, conversation text, step text, pid int)`,
  );
  await pool.end();
});

interface Run {
  conversation: string;
  location: Location;
  killedPid?: number;
}

function childConfig(runs: Array<{ run: Run; seed: number }>) {
  return {
    postgresUrl: env.postgresUrl,
    table: table(),
    runs: runs.map(({ run, seed }) => ({ location: run.location, conversation: run.conversation, seed })),
  };
}

/** Starts the child for `run` and kills it after the chosen line (with a small delay), if it gets there. */
async function crash(run: Run, index: number): Promise<void> {
  const target = KILL_AFTER[index % KILL_AFTER.length]!;
  const child = startChild(env.childScript, childConfig([{ run, seed: index + 1 }]));
  const reached = child
    .waitForLine((line) => line === target)
    .then(
      () => true,
      () => false,
    );
  if (await reached) {
    await new Promise((resolve) => setTimeout(resolve, (index * 7) % 12));
    child.process.kill("SIGKILL");
  }
  const exit = await child.exited;
  if (exit.signal === "SIGKILL") run.killedPid = child.process.pid;
  else expect(exit.code, child.stderr()).toBe(0);
}

/** Resumes every run in one process, one after the other; each must end in success. */
async function resumeAll(runs: Run[]): Promise<void> {
  const child = startChild(
    env.childScript,
    childConfig(runs.map((run, index) => ({ run, seed: 1000 + index }))),
  );
  const exit = await child.exited;
  expect(exit.code, child.stderr()).toBe(0);
  const ended = child.lines.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line));
  expect(ended).toEqual(runs.map((run) => ({ conversation: run.conversation, subtype: "success" })));
}

async function storedHistory(location: Location): Promise<ModelMessage[]> {
  const store =
    location.kind === "custom" ? defineHistoryStore(customFileStore(location.path)) : openStore(location);
  const agent = createAgent({
    model: "claude-sonnet-4-6",
    client: createScriptedClient([]),
    historyStore: store,
  });
  try {
    return await agent.getHistory();
  } finally {
    await agent.close();
  }
}

/** The runs of each step's function in `conversation`, in order, with the process that ran them. */
async function stepRuns(pool: pg.Pool, conversation: string): Promise<Array<{ step: string; pid: number }>> {
  const { rows } = await pool.query(`SELECT step, pid FROM ${table()} WHERE conversation = $1 ORDER BY seq`, [
    conversation,
  ]);
  return rows as Array<{ step: string; pid: number }>;
}

/** Checks one ended run (see the file's comment); says whether the call was run again with replayed steps. */
function checkRun(run: Run, history: ModelMessage[], runs: Array<{ step: string; pid: number }>): boolean {
  expect(isWellFormedHistory(history), run.conversation).toBe(true);
  expect(history.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "done" }] });
  const answers = history.filter(
    (message) =>
      message.role === "user" && Array.isArray(message.content) && message.content[0]?.type === "tool_result",
  );
  let rerun = false;
  for (const answer of answers) {
    const block = (answer.content as Array<{ content?: unknown }>)[0]!;
    if (block.content === UNRECORDED_TOOL_RESULT_TEXT) continue; // killed before a step was recorded
    expect(block.content, run.conversation).toBe("charged: reserve,charge,receipt");
    const reported = answer.meta?.tool_steps?.toolu_charge?.map((step) => step.name);
    expect(reported, run.conversation).toEqual([...STEPS]);
    if (answer.meta?.rerun_calls) rerun = true;
  }
  for (const step of STEPS) {
    const ofStep = runs.filter((entry) => entry.step === step);
    // Every run but the last was interrupted by the kill: the killed process's last run of all.
    for (const earlier of ofStep.slice(0, -1)) {
      expect(earlier.pid, `${run.conversation}: ${step} ran twice`).toBe(run.killedPid);
      expect(runs.filter((entry) => entry.pid === earlier.pid).at(-1)).toBe(earlier);
    }
  }
  // Every step a result reports ran.
  if (answers.some((answer) => answer.meta?.tool_steps))
    for (const step of STEPS)
      expect(
        runs.some((entry) => entry.step === step),
        step,
      ).toBe(true);
  return rerun;
}

describe.each(Object.keys(locations))("durable steps killed with SIGKILL over a %s store", (kind) => {
  it(`every recorded step runs exactly once over ${RUNS} killed runs`, async () => {
    const runs: Run[] = Array.from({ length: RUNS }, (_, index) => ({
      conversation: `${kind}-${index}`,
      location: locations[kind]!(`${kind}-${index}`),
    }));
    let next = 0;
    const worker = async () => {
      while (next < runs.length) {
        const index = next++;
        await crash(runs[index]!, index);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENT_RUNS }, worker));
    await resumeAll(runs);
    const pool = new pg.Pool({ connectionString: env.postgresUrl });
    let reruns = 0;
    try {
      for (const run of runs) {
        if (checkRun(run, await storedHistory(run.location), await stepRuns(pool, run.conversation)))
          reruns++;
      }
    } finally {
      await pool.end();
    }
    // Kills after a step was recorded are most of the targets: their calls ran again, replayed.
    expect(reruns).toBeGreaterThanOrEqual(Math.floor(RUNS / 4));
  }, 600_000);
});
