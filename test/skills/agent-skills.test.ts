/**
 * Skills and project instructions in an agent, over HTTP to the mock server: the catalog and the
 * instructions in the system prompt (byte-identical on every request, the cache marker in place),
 * the `skill` tool (instructions, files, confinement), `allowed-tools` grants, per-subagent skills.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createAnthropicClient,
  defineSkill,
  defineSubagent,
  defineTool,
  InvalidOptionError,
  loadSkills,
} from "../../src/index";
import { collect, lastResult, MODEL, resultText, toolResults, toolUse } from "../loop/support";
import { mockServerPerTest } from "../support/mock-server";
import { temporaryFolder } from "../support/temporary-folders";

const FIXTURES = path.resolve(__dirname, "../fixtures/skills");
const quiet = () => {};

function systemText(body: { system?: unknown }): string {
  const { system } = body;
  if (system === undefined) return "";
  if (typeof system === "string") return system;
  return (system as Array<{ text: string }>).map((block) => block.text).join("");
}

describe("skills in an agent", () => {
  const server = mockServerPerTest();
  const client = () => createAnthropicClient({ apiKey: "sk-test-skills-0001", baseURL: server.url });

  it("puts the catalog in the system prompt, the same bytes on every turn, and discloses a skill through the skill tool", async () => {
    server.enqueue(
      { content: [toolUse("toolu_1", "skill", { name: "release-notes" })], stop_reason: "tool_use" },
      {
        content: [toolUse("toolu_2", "skill", { name: "release-notes", file: "references/style.md" })],
        stop_reason: "tool_use",
      },
      {
        content: [toolUse("toolu_3", "skill", { name: "release-notes", file: "../pdf-forms/SKILL.md" })],
        stop_reason: "tool_use",
      },
      { content: "Done." },
    );
    const agent = createAgent({
      model: MODEL,
      client: client(),
      systemPrompt: "You are a release assistant.",
      skills: [FIXTURES],
    });
    process.on("warning", quiet);
    const messages = await collect(agent.query("Write the notes for 2.0"));
    process.off("warning", quiet);
    expect(lastResult(messages).subtype).toBe("success");
    const init = messages.find((message) => message.type === "system" && message.subtype === "init");
    expect(init && "tools" in init ? init.tools : []).toContain("skill");

    const systems = server.requests.map((request) => systemText(request.body));
    expect(new Set(systems).size).toBe(1);
    expect(systems[0]).toMatch(/^You are a release assistant\.\n\n<available_skills>/);
    expect(systems[0]).toContain("- pdf-forms: Fills in PDF forms from structured data");
    expect(systems[0]).toContain("- sql-review: Reviews SQL migrations");
    expect(systems[0]).not.toContain("Bad_Name");
    expect(systems[0]).not.toContain("Group the changes"); // instructions only through the tool
    // The system prompt keeps its cache marker on every request.
    for (const request of server.requests) expect(request.body.system.at(-1).cache_control).toBeDefined();

    const results = toolResults(await agent.getHistory());
    expect(resultText(results[0]!)).toContain('<skill name="release-notes">\n# Release notes');
    expect(resultText(results[0]!)).toContain("- assets/template.md\n- references/style.md");
    expect(resultText(results[1]!)).toContain("Short sentences. Past tense.");
    expect(results[2]!.is_error).toBe(true);
    expect(resultText(results[2]!)).toMatch(/has no file/);
  });

  it("returns a script's source and never runs it", async () => {
    server.enqueue(
      {
        content: [toolUse("toolu_1", "skill", { name: "pdf-forms", file: "scripts/fill_form.py" })],
        stop_reason: "tool_use",
      },
      { content: "ok" },
    );
    const skills = (await loadSkills(FIXTURES, { onWarning: quiet })).filter(
      (skill) => skill.name === "pdf-forms",
    );
    const agent = createAgent({ model: MODEL, client: client(), skills });
    await agent.prompt("fill it");
    const [result] = toolResults(await agent.getHistory());
    expect(resultText(result!)).toContain('print(f"filled {len(fields)} fields'); // the source, not its output
  });

  it("grants a skill's allowed-tools once the model used the skill, not before", async () => {
    const asked: string[] = [];
    const deploy = defineTool({
      name: "deploy",
      inputSchema: z.object({}),
      execute: () => "deployed",
    });
    const skill = defineSkill({
      name: "deployer",
      description: "Deploys the service.",
      instructions: "Call deploy.",
      allowedTools: ["deploy"],
    });
    server.enqueue(
      { content: [toolUse("toolu_1", "deploy", {})], stop_reason: "tool_use" },
      { content: [toolUse("toolu_2", "skill", { name: "deployer" })], stop_reason: "tool_use" },
      { content: [toolUse("toolu_3", "deploy", {})], stop_reason: "tool_use" },
      { content: "Deployed." },
    );
    const agent = createAgent({
      model: MODEL,
      client: client(),
      tools: [deploy],
      skills: [skill],
      canUseTool: async (name) => {
        asked.push(name);
        return { behavior: "deny", message: "not now" };
      },
    });
    await agent.prompt("deploy");
    const results = toolResults(await agent.getHistory());
    expect(asked).toEqual(["deploy"]); // the first call only: the second was granted by the skill
    expect(results[0]!.is_error).toBe(true);
    expect(resultText(results[2]!)).toBe("deployed");
  });

  it("gives a subagent its own skills, which the parent does not see", async () => {
    const child = defineSubagent({
      name: "writer",
      description: "Writes documents.",
      skills: [path.join(FIXTURES, "release-notes")],
    });
    server.enqueue(
      { content: [toolUse("toolu_1", "writer", { prompt: "notes" })], stop_reason: "tool_use" },
      { content: "child done" },
      { content: "parent done" },
    );
    const agent = createAgent({ model: MODEL, client: client(), tools: [child] });
    await agent.prompt("go");
    const [parent, childRequest] = server.requests;
    expect(systemText(parent!.body)).not.toContain("available_skills");
    expect(systemText(childRequest!.body)).toContain("- release-notes: Writes release notes");
    expect(childRequest!.body.tools.map((tool: { name: string }) => tool.name)).toEqual(["skill"]);
  });

  it("refuses two skills of one name and a bad skill folder before any request", async () => {
    const one = defineSkill({ name: "dup", description: "d", instructions: "i" });
    expect(() => createAgent({ model: MODEL, client: client(), skills: [one, one] })).toThrow(
      InvalidOptionError,
    );
    expect(() => createAgent({ model: MODEL, client: client(), skills: [{} as never] })).toThrow(
      /folder path or a skill/,
    );
    const agent = createAgent({ model: MODEL, client: client(), skills: [path.join(FIXTURES, "Bad_Name")] });
    await expect(agent.prompt("hi")).rejects.toThrow(/Bad_Name.*SKILL\.md.*lowercase/s);
    expect(server.requests).toHaveLength(0);
  });
});

describe("project instructions", () => {
  const server = mockServerPerTest();
  const client = () => createAnthropicClient({ apiKey: "sk-test-skills-0001", baseURL: server.url });

  it("appends the files that exist, in the order listed, before the skill catalog, the same on every turn", async () => {
    const root = temporaryFolder("instructions-");
    writeFileSync(path.join(root, "AGENTS.md"), "Use pnpm.\n");
    writeFileSync(path.join(root, "CLAUDE.md"), "Run the tests before committing.\n");
    server.enqueue(
      { content: [toolUse("toolu_1", "skill", { name: "sql-review" })], stop_reason: "tool_use" },
      { content: "ok" },
    );
    const agent = createAgent({
      model: MODEL,
      client: client(),
      systemPrompt: "Base.",
      instructions: { root, files: ["CLAUDE.md", "MISSING.md", "AGENTS.md"] },
      skills: [path.join(FIXTURES, "sql-review")],
    });
    await agent.prompt("hi");
    const [first, second] = server.requests.map((request) => systemText(request.body));
    expect(first).toBe(second);
    expect(first).toBe(
      [
        "Base.",
        '<project_instructions>\nInstructions of the project you work in (follow them):\n<file path="CLAUDE.md">\nRun the tests before committing.\n</file>\n<file path="AGENTS.md">\nUse pnpm.\n</file>\n</project_instructions>',
        first!.slice(first!.indexOf("<available_skills>")),
      ].join("\n\n"),
    );
  });

  it("fails the first query on a file over the size limit, naming it", async () => {
    const root = temporaryFolder("instructions-big-");
    writeFileSync(path.join(root, "AGENTS.md"), "x".repeat(2000));
    const agent = createAgent({
      model: MODEL,
      client: client(),
      instructions: { root, files: ["AGENTS.md"], maxBytes: 1000 },
    });
    await expect(agent.prompt("hi")).rejects.toThrow(/AGENTS\.md is 2000 bytes, over the limit of 1000/);
    expect(() =>
      createAgent({ model: MODEL, client: client(), instructions: { files: "AGENTS.md" } as never }),
    ).toThrow(/instructions\.files/);
  });
});
