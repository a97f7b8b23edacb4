/**
 * The reader of the command's output goes away (`agent-lattice … | head -1`): the next write fails
 * with EPIPE. The command must not die of an unhandled stream error with a stack trace, leaving its
 * query, its `bash` process group and its session file behind: it stops like on SIGPIPE.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { mockServerPerTest } from "../support/mock-server";
import { processesWithArgument, uniqueSleep } from "../support/processes";
import { cleanEnvironment, DUMMY_KEY, ensureBuiltCli, eventually, runCli, scratchFolder } from "./helpers";

const env = () => cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY });

describe("agent-lattice when its stdout is closed by the reader", () => {
  beforeAll(ensureBuiltCli, 300_000);
  const server = mockServerPerTest();

  it("--json: exits 141 quietly, aborts the query, stops bash and leaves a well-formed session", async () => {
    const folder = scratchFolder();
    const sessionFile = path.join(folder.root, "session.jsonl");
    const pidFile = path.join(folder.root, "bash.pid");
    // Found by its unique duration: inside the bash sandbox, `$$` is not a pid of the host.
    const sleep = uniqueSleep();
    server.enqueue({
      content: [
        { type: "text", text: "Running it." },
        {
          type: "tool_use",
          id: "b1",
          name: "bash",
          input: { command: `echo started > bash.pid; ${sleep.command}` },
        },
      ],
    });
    server.setHandler(() => ({ content: "Done." }));
    try {
      const run = await runCli(
        ["--json", "--base-url", server.url, "--tools", "bash", "--session", sessionFile, "Run it"],
        {
          env: env(),
          cwd: folder.root,
          // The reader is gone before the first line: every write fails with EPIPE.
          onSpawn: (child) => child.stdout?.destroy(),
        },
      );
      expect(run.signal).toBeNull();
      expect(run.code).toBe(141);
      expect(run.stderr).not.toMatch(/EPIPE|Unhandled|at .*\.js:\d+/);
      if (existsSync(pidFile)) {
        await eventually(
          "bash to be gone",
          () => (processesWithArgument(sleep.marker).length === 0 ? true : undefined),
          10_000,
        );
      }
      // Whatever was saved is well-formed: every line a message, every call answered.
      const lines = existsSync(sessionFile)
        ? readFileSync(sessionFile, "utf8").split("\n").filter(Boolean)
        : [];
      const saved = lines.map((line) => JSON.parse(line) as { content: unknown });
      const calls = saved.flatMap((message) =>
        Array.isArray(message.content)
          ? message.content.filter((block: { type: string }) => block.type === "tool_use")
          : [],
      );
      for (const call of calls)
        expect(readFileSync(sessionFile, "utf8")).toContain(`"tool_use_id":"${call.id}"`);
    } finally {
      folder.remove();
    }
  });

  it("piped prompts: the first write that fails ends the session with 141, quietly", async () => {
    server.setHandler(() => ({ content: "An answer." }));
    const run = await runCli(["--base-url", server.url], {
      env: env(),
      input: "one\ntwo\nthree\n",
      onSpawn: (child) => child.stdout?.destroy(),
    });
    expect(run.code).toBe(141);
    expect(run.stderr).not.toMatch(/EPIPE|Unhandled|at .*\.js:\d+/);
  });
});
