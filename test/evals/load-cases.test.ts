/** Cases from JSONL (bad lines refused with their line number), JSON and arrays; workspaces per trial. */

import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineEval, EvalInputError, loadCases } from "../../src/evals/index";
import { createTrialWorkspace } from "../../src/evals/workspace";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "evals-cases-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("loadCases", () => {
  it("reads a JSONL file, skipping blank lines", async () => {
    await writeFile(
      join(dir, "cases.jsonl"),
      '{"id":"a","input":"hi"}\n\n{"id":"b","input":["one","two"],"tags":["x"]}\n',
    );
    expect(await loadCases("cases.jsonl", dir)).toEqual([
      { id: "a", input: "hi" },
      { id: "b", input: ["one", "two"], tags: ["x"] },
    ]);
  });

  it("refuses a bad JSONL line with its line number and what is wrong", async () => {
    await writeFile(join(dir, "cases.jsonl"), '{"id":"a","input":"hi"}\n{"id":"b","input":"hi"\n');
    await expect(loadCases("cases.jsonl", dir)).rejects.toThrow(/cases\.jsonl:2: not valid JSON/);
    await writeFile(join(dir, "cases.jsonl"), '{"id":"a","input":"hi"}\n\n{"id":"b","input":""}\n');
    await expect(loadCases("cases.jsonl", dir)).rejects.toThrow(
      /cases\.jsonl:3: case "b": `input` must be a non-empty string or a non-empty array of strings/,
    );
    await writeFile(join(dir, "cases.jsonl"), '{"id":"a","input":"hi"}\n{"id":"a","input":"hi"}\n');
    await expect(loadCases("cases.jsonl", dir)).rejects.toThrow(
      /cases\.jsonl:2: the case id "a" is used twice/,
    );
    await writeFile(
      join(dir, "cases.jsonl"),
      '{"id":"a","input":"hi","expected":{"toolCalls":[{"input":{}}]}}\n',
    );
    await expect(loadCases("cases.jsonl", dir)).rejects.toBeInstanceOf(EvalInputError);
  });

  it("reads a JSON array and refuses anything else", async () => {
    await writeFile(join(dir, "cases.json"), '[{"id":"a","input":"hi","workspace":{"f.txt":"x"}}]');
    expect(await loadCases("cases.json", dir)).toHaveLength(1);
    await writeFile(join(dir, "cases.json"), '{"id":"a"}');
    await expect(loadCases("cases.json", dir)).rejects.toThrow(/holds an array of cases/);
    await expect(loadCases("missing.jsonl", dir)).rejects.toThrow(/cannot read the cases file/);
    await expect(loadCases([{ id: "../x", input: "hi" }], dir)).rejects.toThrow(
      /case #1: `id` "\.\.\/x" may hold only/,
    );
  });

  it("checks a definition before anything runs", () => {
    const agent = () => ({ model: "m" });
    expect(() => defineEval({ name: "", agent, cases: [], scorers: [] })).toThrow(/`name`/);
    expect(() => defineEval({ name: "x", agent, cases: [], scorers: [], trials: 0 })).toThrow(
      /`trials` must be a positive integer/,
    );
    expect(() => defineEval({ name: "x", agent, cases: [], scorers: [], threshold: 2 })).toThrow(
      /`threshold`/,
    );
    expect(() => defineEval({ name: "x", agent, cases: [], scorers: ["no" as never] })).toThrow(/`scorers`/);
  });
});

describe("trial workspaces", () => {
  it("copies fixture files or a folder to a fresh folder per trial, and removes it", async () => {
    const one = await createTrialWorkspace({ id: "c", input: "x", workspace: { "a/b.txt": "B" } }, dir);
    const two = await createTrialWorkspace({ id: "c", input: "x", workspace: { "a/b.txt": "B" } }, dir);
    expect(one!.path).not.toBe(two!.path);
    expect(await readFile(join(one!.path, "a/b.txt"), "utf8")).toBe("B");
    await one!.remove();
    await two!.remove();
    expect(existsSync(one!.path)).toBe(false);
    await mkdir(join(dir, "fixture/sub"), { recursive: true });
    await writeFile(join(dir, "fixture/sub/c.txt"), "C");
    const three = await createTrialWorkspace({ id: "c", input: "x", workspace: "fixture" }, dir);
    expect(await readFile(join(three!.path, "sub/c.txt"), "utf8")).toBe("C");
    await three!.remove();
  });

  it("refuses a fixture path outside the workspace", async () => {
    await expect(
      createTrialWorkspace({ id: "c", input: "x", workspace: { "../escape.txt": "x" } }, dir),
    ).rejects.toThrow(/must be a path inside the workspace/);
  });
});
