/**
 * A subagent's skill folders are read once per definition: the second call of the subagent reads
 * no folder (the file-system calls are counted), a skill file is still read on demand, a changed
 * SKILL.md is seen by a subagent defined after the change, and a failed read is retried.
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createAgent, defineSkill, defineSubagent, type ModelRequest } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { MODEL, resultText, toolResults, toolUse } from "../loop/support";
import { temporaryFolder } from "../support/temporary-folders";

const disk = vi.hoisted(() => ({ calls: [] as string[] }));

vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  const counted = <F extends (...args: never[]) => unknown>(name: string, call: F): F =>
    ((...args: Parameters<F>) => {
      disk.calls.push(`${name} ${String(args[0])}`);
      return call(...args);
    }) as F;
  const spied = {
    ...actual,
    open: counted("open", actual.open),
    readdir: counted("readdir", actual.readdir),
    readFile: counted("readFile", actual.readFile),
    realpath: counted("realpath", actual.realpath),
    stat: counted("stat", actual.stat),
    lstat: counted("lstat", actual.lstat),
  };
  return { ...spied, default: spied };
});

const FIXTURES = path.resolve(__dirname, "../fixtures/skills");

/** A folder of two skills copied from the fixtures, in a scratch folder the test may change. */
function skillsFolder(): string {
  const root = temporaryFolder("subagent-skills-");
  for (const name of ["release-notes", "sql-review"])
    cpSync(path.join(FIXTURES, name), path.join(root, name), { recursive: true });
  return root;
}

const systemText = (request: ModelRequest) =>
  typeof request.system === "string"
    ? request.system
    : (request.system ?? []).map((block) => block.text).join("");

/** A parent that calls the subagent `writer` once per prompt, the child answering `child`. */
function parentScript(calls: number, childTurn: (index: number) => object[] = () => []) {
  const steps: object[] = [];
  for (let index = 0; index < calls; index++)
    steps.push(
      { content: [toolUse(`toolu_p${index}`, "writer", { prompt: "go" })], stop_reason: "tool_use" },
      ...childTurn(index),
      { content: `child ${index}` },
      { content: `parent ${index}` },
    );
  return createScriptedClient(steps as never);
}

const readsOf = (folder: string) => disk.calls.filter((call) => call.includes(folder));

describe("a subagent's skill folders", () => {
  beforeEach(() => {
    disk.calls.length = 0;
  });

  it("are read at the first call only: the second call touches no skill file", async () => {
    const folder = skillsFolder();
    const client = parentScript(2);
    const writer = defineSubagent({ name: "writer", description: "Writes.", skills: [folder] });
    const agent = createAgent({ model: MODEL, client, tools: [writer] });

    expect(readsOf(folder)).toEqual([]); // nothing at definition
    expect((await agent.prompt("first")).subtype).toBe("success");
    const firstReads = readsOf(folder).length;
    expect(firstReads).toBeGreaterThan(0);
    expect(readsOf(folder).some((call) => call.startsWith("open") && call.includes("SKILL.md"))).toBe(true);

    expect((await agent.prompt("second")).subtype).toBe("success");
    expect(readsOf(folder)).toHaveLength(firstReads);
    // Both children saw the same catalog, byte for byte.
    const childRequests = client.requests.filter((request) =>
      systemText(request).includes("available_skills"),
    );
    expect(childRequests).toHaveLength(2);
    expect(systemText(childRequests[1]!)).toBe(systemText(childRequests[0]!));
    expect(systemText(childRequests[0]!)).toContain("- release-notes: Writes release notes");
    expect(systemText(childRequests[0]!)).toContain("- sql-review:");
  });

  it("concurrent first calls share one read; a skill's other files are still read on demand", async () => {
    const folder = skillsFolder();
    const client = createScriptedClient([
      {
        content: [
          toolUse("toolu_a", "writer", { prompt: "a" }),
          toolUse("toolu_b", "writer", { prompt: "b" }),
        ],
        stop_reason: "tool_use",
      },
      { content: "child a" },
      { content: "child b" },
      { content: "parent 0" },
      { content: [toolUse("toolu_p1", "writer", { prompt: "go" })], stop_reason: "tool_use" },
      {
        content: [toolUse("toolu_c1", "skill", { name: "release-notes", file: "references/style.md" })],
        stop_reason: "tool_use",
      },
      { content: "child 1" },
      { content: "parent 1" },
    ]);
    const writer = defineSubagent({
      name: "writer",
      description: "Writes.",
      skills: [folder],
      readOnly: true,
    });
    const agent = createAgent({ model: MODEL, client, tools: [writer] });
    expect((await agent.prompt("first")).subtype).toBe("success");
    const skillFiles = readsOf(folder).filter((call) => call.startsWith("open") && call.endsWith("SKILL.md"));
    expect(skillFiles).toHaveLength(2); // each SKILL.md once, for the two children together
    const afterFirst = readsOf(folder).length;

    writeFileSync(path.join(folder, "release-notes", "references", "style.md"), "Changed style.\n");
    expect((await agent.prompt("second")).subtype).toBe("success");
    const newReads = readsOf(folder).slice(afterFirst);
    expect(newReads.some((call) => call.includes("style.md"))).toBe(true);
    expect(newReads.every((call) => !call.includes("SKILL.md"))).toBe(true);
    const history = client.requests.at(-2)!.messages;
    expect(resultText(toolResults(history).at(-1)!)).toContain("Changed style.");
  });

  it("see a changed SKILL.md in a subagent defined after the change, not in one already called", async () => {
    const folder = skillsFolder();
    const file = path.join(folder, "sql-review", "SKILL.md");
    const client = parentScript(3);
    const before = defineSubagent({ name: "writer", description: "Writes.", skills: [folder] });
    await createAgent({ model: MODEL, client, tools: [before] }).prompt("one");
    writeFileSync(file, "---\nname: sql-review\ndescription: Reviews SQL, version two.\n---\nBody.\n");
    await createAgent({ model: MODEL, client, tools: [before] }).prompt("two");
    const after = defineSubagent({ name: "writer", description: "Writes.", skills: [folder] });
    await createAgent({ model: MODEL, client, tools: [after] }).prompt("three");
    const catalogs = client.requests.map(systemText).filter((text) => text.includes("available_skills"));
    expect(catalogs).toHaveLength(3);
    expect(catalogs[1]).toBe(catalogs[0]);
    expect(catalogs[0]).not.toContain("version two");
    expect(catalogs[2]).toContain("- sql-review: Reviews SQL, version two.");
  });

  it("are read again after a failed read, and skills given as objects are never read", async () => {
    const folder = path.join(temporaryFolder("subagent-skills-missing-"), "later");
    const inline = defineSkill({
      name: "inline",
      description: "Given as an object.",
      instructions: "Do it.",
    });
    const client = createScriptedClient([
      { content: [toolUse("toolu_1", "writer", { prompt: "go" })], stop_reason: "tool_use" },
      { content: "parent saw the error" },
      { content: [toolUse("toolu_2", "writer", { prompt: "go" })], stop_reason: "tool_use" },
      { content: "child ran" },
      { content: "parent done" },
    ]);
    const writer = defineSubagent({ name: "writer", description: "Writes.", skills: [inline, folder] });
    const agent = createAgent({ model: MODEL, client, tools: [writer] });
    await agent.prompt("first");
    const [failed] = toolResults(await agent.getHistory());
    expect(failed!.is_error).toBe(true);
    expect(resultText(failed!)).toMatch(/does not exist/);

    mkdirSync(folder, { recursive: true });
    cpSync(path.join(FIXTURES, "release-notes"), path.join(folder, "release-notes"), { recursive: true });
    await agent.prompt("second");
    const child = client.requests[3]!;
    expect(systemText(child)).toContain("- inline: Given as an object.");
    expect(systemText(child)).toContain("- release-notes:");
    rmSync(folder, { recursive: true });
  });
});
