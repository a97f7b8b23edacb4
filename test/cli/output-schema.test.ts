import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing/index";
import { cleanEnvironment, DUMMY_KEY, ensureBuiltCli, runCli, scratchFolder } from "./helpers";

const env = () => cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY });

const TODO_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    title: { type: "string", minLength: 1 },
    priority: { enum: ["low", "high"] },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["title", "priority"],
  additionalProperties: false,
};

const submit = (id: string, input: unknown) => ({
  content: [{ type: "tool_use" as const, id, name: "submit_output", input }],
});

describe("agent-lattice --output-schema <schema.json>", () => {
  let server: MockAnthropicServer;
  let folder: ReturnType<typeof scratchFolder>;
  let schemaFile: string;
  beforeAll(ensureBuiltCli, 300_000);
  beforeEach(async () => {
    server = await startMockAnthropicServer();
    folder = scratchFolder({ "todo.schema.json": JSON.stringify(TODO_SCHEMA) });
    schemaFile = path.join(folder.root, "todo.schema.json");
  });
  afterEach(async () => {
    folder.remove();
    await server.close();
  });

  it("never prints the API key in the validated payload", async () => {
    server.enqueue(submit("s1", { title: `Rotate ${DUMMY_KEY}`, priority: "high" }));
    const run = await runCli(["--base-url", server.url, "--output-schema", schemaFile, "One todo"], {
      env: env(),
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ title: "Rotate [redacted]", priority: "high" });
    expect(run.stdout + run.stderr).not.toContain(DUMMY_KEY);
  });

  it("prints only the validated JSON on stdout, after the model fixed an invalid payload", async () => {
    server.enqueue(
      submit("s1", { title: "", priority: "urgent", extra: 1 }),
      submit("s2", { title: "Water the plants", priority: "high", tags: ["home"] }),
    );
    const run = await runCli(["--base-url", server.url, "--output-schema", schemaFile, "One todo"], {
      env: env(),
    });

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ title: "Water the plants", priority: "high", tags: ["home"] });
    const offered = server.requests[0]!.body.tools.find(
      (tool: { name: string }) => tool.name === "submit_output",
    );
    const { $schema: _dropped, ...sent } = TODO_SCHEMA;
    expect(offered.input_schema).toEqual(sent);
    const feedback = server.requests[1]!.body.messages.at(-1).content[0];
    expect(feedback).toMatchObject({ type: "tool_result", tool_use_id: "s1", is_error: true });
    expect(feedback.content).toContain("title: must be at least 1 characters long");
    expect(feedback.content).toContain('priority: must be one of "low", "high"');
    expect(feedback.content).toContain("extra: is not an allowed property");
    expect(run.stderr).toMatch(/✗ submit_output\(/);
    expect(run.stderr).toMatch(/✓ done · 2 turns/);
  });

  it("with --json the structured result rides on the result message instead", async () => {
    server.enqueue(submit("s1", { title: "Call mum", priority: "low" }));
    const run = await runCli(
      ["--json", "--base-url", server.url, "--output-schema", schemaFile, "One todo"],
      {
        env: env(),
      },
    );
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
    expect(result).toMatchObject({
      type: "result",
      subtype: "success",
      structuredResult: { title: "Call mum", priority: "low" },
    });
  });

  it("exits 1 when the model never submits a valid payload", async () => {
    server.setHandler((_body, index) => submit(`s${index}`, { title: 42 }));
    const run = await runCli(
      ["--base-url", server.url, "--output-schema", schemaFile, "--max-turns", "2", "One todo"],
      { env: env() },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/✗ error_max_turns/);
  });

  it("exits 1 when the model answers in prose instead of submitting", async () => {
    server.enqueue({ content: "Here is your todo: water the plants." });
    const run = await runCli(["--base-url", server.url, "--output-schema", schemaFile, "One todo"], {
      env: env(),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("Here is your todo");
    expect(run.stderr).toMatch(/✗ error_missing_output/);
  });

  it("validates through $ref/$defs: the model sees the schema as is, and a wrong nested value goes back to it", async () => {
    const treeSchema = {
      $defs: {
        task: {
          type: "object",
          required: ["title"],
          properties: {
            title: { type: "string" },
            subtasks: { type: "array", items: { $ref: "#/$defs/task" } },
          },
          additionalProperties: false,
        },
      },
      type: "object",
      required: ["root"],
      properties: { root: { $ref: "#/$defs/task" } },
    };
    const file = path.join(folder.root, "tree.schema.json");
    writeFileSync(file, JSON.stringify(treeSchema));
    server.enqueue(
      submit("s1", { root: { title: "Move", subtasks: [{ title: 7 }] } }),
      submit("s2", { root: { title: "Move", subtasks: [{ title: "Pack" }] } }),
    );
    const run = await runCli(["--base-url", server.url, "--output-schema", file, "Plan the move"], {
      env: env(),
    });

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ root: { title: "Move", subtasks: [{ title: "Pack" }] } });
    const offered = server.requests[0]!.body.tools.find(
      (tool: { name: string }) => tool.name === "submit_output",
    );
    expect(offered.input_schema).toEqual(treeSchema);
    const feedback = server.requests[1]!.body.messages.at(-1).content[0];
    expect(feedback).toMatchObject({ type: "tool_result", tool_use_id: "s1", is_error: true });
    expect(feedback.content).toContain("root.subtasks.0.title: expected string, got number");
  });

  it.each([
    ["a missing file", "nope.json", "", /cannot read .*nope\.json \(ENOENT\)/],
    ["a file that is not JSON", "broken.json", "{ type: object", /broken\.json is not valid JSON/],
    ["a schema that is not an object", "list.json", "[1, 2]", /must hold a JSON Schema object/],
    [
      "a schema with a keyword Ajv does not know (a typo)",
      "typo.json",
      JSON.stringify({ type: "object", requried: ["a"] }),
      /typo\.json cannot be used: strict mode: unknown keyword: "requried"/,
    ],
    [
      "a $ref that leads nowhere",
      "ref.json",
      JSON.stringify({ type: "object", properties: { a: { $ref: "#/$defs/a" } } }),
      /ref\.json cannot be used: can't resolve reference #\/\$defs\/a/,
    ],
  ])("refuses %s with exit 2 before calling the model", async (_case, name, content, message) => {
    if (content !== "") writeFileSync(path.join(folder.root, name), content);
    const run = await runCli(
      ["--base-url", server.url, "--output-schema", path.join(folder.root, name), "Hi"],
      {
        env: env(),
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(server.requests).toHaveLength(0);
  });
});
