import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { mockServerPerTest } from "../support/mock-server";
import { cleanEnvironment, DUMMY_KEY, ensureBuiltCli, ROOT, runCli } from "./helpers";

const FIXTURES = path.join(ROOT, "test/fixtures/skills");

describe("the CLI's --skills", () => {
  beforeAll(ensureBuiltCli, 300_000);
  const server = mockServerPerTest();

  it("offers the skills' catalog and the skill tool", async () => {
    server.enqueue({ content: "ok" });
    const run = await runCli(
      [
        "--base-url",
        server.url,
        "--skills",
        path.join(FIXTURES, "release-notes"),
        "--skills",
        path.join(FIXTURES, "sql-review"),
        "Hi",
      ],
      { env: cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY }) },
    );
    expect(run.code, run.stderr).toBe(0);
    const body = server.requests[0]!.body;
    const system = JSON.stringify(body.system);
    expect(system).toContain("- release-notes: Writes release notes");
    expect(system).toContain("- sql-review: Reviews SQL migrations");
    expect(body.tools.map((tool: { name: string }) => tool.name)).toContain("skill");
  });

  it("exits 2 naming a --skills folder that does not exist, before any request", async () => {
    const run = await runCli(["--base-url", server.url, "--skills", "no/such/folder", "Hi"], {
      env: cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY }),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--skills: no/such/folder is not a folder");
    expect(server.requests).toHaveLength(0);
  });
});
