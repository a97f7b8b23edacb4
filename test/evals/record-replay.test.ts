/**
 * Record and replay through the client layer, against the real loopback mock server: a recorded
 * run replays with the server closed and no key; a changed system prompt fails the trial naming
 * the first differing JSON path, without any live call; tools run for real during replay;
 * cassettes hold no secret.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ruleModel } from "../../examples/evals/rule-model.mjs";
import { defineEval, filesMatch, judge, outputMatches, runEval, toolCalls } from "../../src/evals/index";
import { startMockAnthropicServer } from "../../src/testing/index";
import { createWorkspaceTools } from "../../src/workspace-tools/index";

const SECRET_KEY = "sk-ant-eval-test-secret-0123456789";
let baseDir: string;

beforeEach(async () => {
  baseDir = await mkdtemp(join(tmpdir(), "evals-record-"));
});
afterEach(async () => {
  await rm(baseDir, { recursive: true, force: true });
});

function definition(baseURL: string | undefined, systemPrompt = "You are a careful file assistant.") {
  return defineEval({
    name: "files",
    agent: ({ workspace }) => ({
      model: "claude-sonnet-4-6",
      apiKey: SECRET_KEY,
      ...(baseURL && { baseURL }),
      systemPrompt,
      tools: createWorkspaceTools({ root: workspace! }),
    }),
    cases: [
      {
        id: "edit-greeting",
        input: ['Read hello.txt, then replace "world" with "lattice" in hello.txt', "Read hello.txt"],
        workspace: { "hello.txt": "hello world\n" },
        expected: {
          toolCalls: [
            { name: "read_file", input: { path: "hello.txt" } },
            { name: "edit_file" },
            { name: "read_file" },
          ],
          files: { "hello.txt": "hello lattice" },
        },
      },
    ],
    scorers: [
      toolCalls(),
      filesMatch(),
      outputMatches(/hello lattice/),
      judge({ rubric: '- mentions "hello lattice"', ...(baseURL && { baseURL, apiKey: SECRET_KEY }) }),
    ],
    trials: 2,
  });
}

describe("record and replay", () => {
  it("records a cassette per case and trial, then replays it with no server and no key", async () => {
    const server = await startMockAnthropicServer({ handler: ruleModel() });
    const recorded = await runEval(definition(server.url), { mode: "record", baseDir });
    const requestsWhileRecording = server.requests.length;
    await server.close();
    expect(recorded.passed).toBe(true);
    // Per trial: the first prompt read, edit, answer; the second read, answer; then the judge.
    expect(requestsWhileRecording).toBe(2 * (5 + 1));
    const files = (await readdir(join(baseDir, "files"))).sort();
    expect(files).toEqual(["edit-greeting.trial-1.json", "edit-greeting.trial-2.json"]);
    const text = await readFile(join(baseDir, "files", files[0]!), "utf8");
    expect(text).not.toContain(SECRET_KEY);
    const cassette = JSON.parse(text);
    expect(cassette.interactions.map((interaction: { channel: string }) => interaction.channel)).toEqual([
      "agent",
      "agent",
      "agent",
      "agent",
      "agent",
      "judge",
    ]);
    expect(cassette.interactions[0].events.length).toBeGreaterThan(3);

    const replayed = await runEval(definition(undefined), { mode: "replay", baseDir });
    expect(replayed.evals[0]!.cases[0]!.trialRecords.map((t) => t.error ?? t.status)).toEqual([
      "passed",
      "passed",
    ]);
    expect(replayed.passed).toBe(true);
    const [summary] = replayed.evals[0]!.cases;
    expect(summary!.passedTrials).toBe(2);
    // Tools ran for real: the workspace file was edited again during replay.
    const files2 = summary!.trialRecords[0]!.scores.find((score) => score.scorer === "filesMatch");
    expect(files2).toMatchObject({ pass: true });
    expect(summary!.costUsd).toBeCloseTo(recorded.evals[0]!.cases[0]!.costUsd, 9);
    expect(summary!.judgeCostUsd).toBeGreaterThan(0);
  });

  it("fails a trial whose request differs, naming the first differing path, with no live call", async () => {
    const server = await startMockAnthropicServer({ handler: ruleModel() });
    await runEval(definition(server.url), { mode: "record", baseDir, trials: 1 });
    const before = server.requests.length;
    const report = await runEval(definition(server.url, "Answer without tools."), {
      mode: "replay",
      baseDir,
      trials: 1,
    });
    expect(server.requests.length).toBe(before);
    await server.close();
    const trial = report.evals[0]!.cases[0]!.trialRecords[0]!;
    expect(report.passed).toBe(false);
    expect(trial.status).toBe("error");
    expect(trial.error).toContain("request #1 differs from its recording at $.system");
  });

  it("keeps only the successful attempt of a retried request, and redacts credential-shaped text", async () => {
    const server = await startMockAnthropicServer({
      responses: [{ fault: "status", status: 529 }],
      handler: ruleModel(),
    });
    const leaky = defineEval({
      name: "leaky",
      agent: () => ({
        model: "claude-sonnet-4-6",
        apiKey: SECRET_KEY,
        baseURL: server.url,
        retry: { initialDelayMs: 1, maxDelayMs: 1 },
      }),
      cases: [{ id: "paste", input: "My key is sk-ant-api03-pasted-by-mistake-XYZ, say hello" }],
      scorers: [outputMatches("Answering from memory")],
    });
    const recorded = await runEval(leaky, { mode: "record", baseDir });
    expect(recorded.passed).toBe(true);
    expect(server.requests).toHaveLength(2); // the 529, then its retry
    await server.close();
    const text = await readFile(join(baseDir, "leaky", "paste.trial-1.json"), "utf8");
    expect(JSON.parse(text).interactions).toHaveLength(1);
    expect(text).not.toContain("sk-ant-api03-pasted");
    expect(text).toContain("[redacted]");
    // Replay compares the request redacted the same way: the same prompt still matches.
    const replayed = await runEval(leaky, { mode: "replay", baseDir });
    expect(replayed.evals[0]!.cases[0]!.trialRecords[0]!.error).toBeUndefined();
    expect(replayed.passed).toBe(true);
  });

  it("fails a trial with no cassette, saying how to record it", async () => {
    const report = await runEval(definition(undefined), { mode: "replay", baseDir, trials: 1 });
    const trial = report.evals[0]!.cases[0]!.trialRecords[0]!;
    expect(trial.status).toBe("error");
    expect(trial.error).toMatch(/no cassette at .*edit-greeting\.trial-1\.json \(record it with --record\)/);
  });
});
