import { chmodSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AbortError } from "../../../src/errors";
import { connectMcpServers, type McpConnections } from "../../../src/integrations/mcp/connect";
import { temporaryFolder } from "../../support/temporary-folders";
import {
  processExists,
  processRunning,
  runTool,
  STDIO_FIXTURE,
  stdioFixture,
  textOf,
  toolNamed,
} from "./helpers";

/** The fixture's tool that requires tasks: reported in the status, not offered. */
const TASK_ONLY = {
  tool: "background_job",
  reason: "it requires MCP tasks, which this client does not run",
};

describe("connectMcpServers over stdio (raw SDK server in a child process)", () => {
  let connections: McpConnections;
  const workDirectory = realpathSync(mkdtempSync(join(tmpdir(), "mcp-cwd-")));

  beforeAll(async () => {
    process.env.PARENT_SECRET = "parent-secret-value";
    connections = await connectMcpServers({
      fixture: stdioFixture("normal", { env: { FIXTURE_VALUE: "from-config" }, cwd: workDirectory }),
      "second server": stdioFixture(),
    });
  });

  afterAll(async () => {
    delete process.env.PARENT_SECRET;
    await connections.close();
    rmSync(workDirectory, { recursive: true, force: true });
  });

  it("lists every tool of every page as mcp__<server>__<tool>, sanitised to the API charset (task-only tools left out)", () => {
    const names = connections.tools().map((tool) => tool.name);
    const fixtureTools = [
      "echo",
      "fail",
      "throw",
      "crash",
      "media",
      "pid",
      "environment",
      "add_tool",
      "slow",
    ];
    expect(names).toEqual([
      ...fixtureTools.map((tool) => `mcp__fixture__${tool}`),
      "mcp__fixture__dotted_name_tool",
      ...fixtureTools.map((tool) => `mcp__second_server__${tool}`),
      "mcp__second_server__dotted_name_tool",
    ]);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(connections.statuses()).toEqual([
      { name: "fixture", status: "connected", tools: names.slice(0, 10), skipped: [TASK_ONLY] },
      { name: "second server", status: "connected", tools: names.slice(10), skipped: [TASK_ONLY] },
    ]);
  });

  it("keeps the server's JSON Schema (without $schema) and description, and readOnly from readOnlyHint", () => {
    const echo = toolNamed(connections, "mcp__fixture__echo");
    expect(echo.description).toBe("Echo the text");
    expect(echo.inputSchema).toEqual({
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
    });
    expect(echo.readOnly).toBe(true);
    expect(toolNamed(connections, "mcp__fixture__pid").readOnly).toBe(true);
    expect(toolNamed(connections, "mcp__fixture__media").readOnly).toBe(false);
    expect(toolNamed(connections, "mcp__fixture__fail").readOnly).toBe(false);
    expect(toolNamed(connections, "mcp__fixture__dotted_name_tool").inputSchema).toEqual({
      type: "object",
      properties: {},
    });
  });

  it("accepts any object as input and leaves validation to the server", async () => {
    const echo = toolNamed(connections, "mcp__fixture__echo");
    expect(await echo.parseInput({ anything: [1, 2] })).toEqual({ ok: true, value: { anything: [1, 2] } });
    expect((await echo.parseInput("text")).ok).toBe(false);
    expect((await echo.parseInput([1])).ok).toBe(false);
    expect((await echo.parseInput(null)).ok).toBe(false);
  });

  it("calls a tool and returns its text as text blocks", async () => {
    const output = await runTool(toolNamed(connections, "mcp__fixture__echo"), { text: "hi" });
    expect(output).toEqual({ content: [{ type: "text", text: "echo: hi" }] });
  });

  it("calls the tool by its original name even when the exposed name was sanitised", async () => {
    const output = await runTool(toolNamed(connections, "mcp__second_server__dotted_name_tool"));
    expect(textOf(output)).toBe("dotted ran");
  });

  it("turns an isError result into an error output with the server's content", async () => {
    const output = await runTool(toolNamed(connections, "mcp__fixture__fail"));
    expect(output).toEqual({ content: [{ type: "text", text: "the widget is broken" }], isError: true });
  });

  it("turns a protocol error (the handler threw) into an error output instead of throwing", async () => {
    const output = await runTool(toolNamed(connections, "mcp__fixture__throw"));
    expect(output).toMatchObject({ isError: true });
    expect(textOf(output)).toMatch(/^MCP tool "mcp__fixture__throw" failed: .*kaboom/);
  });

  it("converts images to base64 image blocks and an embedded text resource to its text", async () => {
    const output = await runTool(toolNamed(connections, "mcp__fixture__media"));
    expect(output).toEqual({
      content: [
        { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
        { type: "text", text: "Resource file:///notes.txt:\nnotes" },
      ],
    });
  });

  it("starts the child with the configured env over a safe default env, and in the configured cwd", async () => {
    const reported = JSON.parse(textOf(await runTool(toolNamed(connections, "mcp__fixture__environment"))));
    expect(reported).toEqual({ FIXTURE_VALUE: "from-config", PARENT_SECRET: null, cwd: workDirectory });
  });

  it("passes the context signal: aborting a call cancels it and returns an error output", async () => {
    const controller = new AbortController();
    const pending = runTool(toolNamed(connections, "mcp__fixture__slow"), {}, controller.signal);
    setImmediate(() => controller.abort(new Error("user interrupted")));
    const output = await pending;
    expect(output).toMatchObject({ isError: true });
    expect(textOf(output)).toMatch(/^MCP tool "mcp__fixture__slow" failed: .*user interrupted/);
    // The server is still usable afterwards.
    expect(textOf(await runTool(toolNamed(connections, "mcp__fixture__echo"), { text: "after" }))).toBe(
      "echo: after",
    );
  });
});

describe("connectMcpServers: input schemas the Messages API refuses", () => {
  it("leaves out a top-level anyOf, oneOf or allOf (every request would be refused); the server still validates", async () => {
    const connections = await connectMcpServers({ fixture: stdioFixture("composite") });
    try {
      const either = toolNamed(connections, "mcp__fixture__either");
      expect(either.inputSchema).toEqual({
        type: "object",
        properties: { a: { type: "string" }, b: { type: "string" } },
      });
      expect(textOf(await runTool(either, { a: "x" }))).toBe('{"a":"x"}');
    } finally {
      await connections.close();
    }
  });
});

describe("connectMcpServers: a call the server never answers", () => {
  it("ends at toolTimeoutMs with an error output naming the limit; the server stays usable", async () => {
    const connections = await connectMcpServers({ fixture: stdioFixture("normal", { toolTimeoutMs: 300 }) });
    try {
      const output = await runTool(toolNamed(connections, "mcp__fixture__slow"));
      expect(output).toMatchObject({ isError: true });
      expect(textOf(output)).toBe(
        'MCP tool "mcp__fixture__slow" failed: the server did not answer within toolTimeoutMs (300 ms).',
      );
      expect(textOf(await runTool(toolNamed(connections, "mcp__fixture__echo"), { text: "after" }))).toBe(
        "echo: after",
      );
    } finally {
      await connections.close();
    }
  });
});

describe("connectMcpServers failure handling", () => {
  it("reports a server that crashes at start as failed, quoting its stderr with secrets redacted", async () => {
    const connections = await connectMcpServers({
      broken: stdioFixture("crash-at-start", { env: { FIXTURE_TOKEN: "tok-1234567890" } }),
      healthy: stdioFixture(),
    });
    try {
      const [broken, healthy] = connections.statuses();
      expect(broken).toMatchObject({ name: "broken", status: "failed" });
      expect(broken?.error).toContain("fatal: cannot read configuration (token=[redacted])");
      expect(broken?.error).not.toContain("tok-1234567890");
      expect(healthy).toMatchObject({ name: "healthy", status: "connected" });
      expect(connections.tools().every((tool) => tool.name.startsWith("mcp__healthy__"))).toBe(true);
      expect(textOf(await runTool(toolNamed(connections, "mcp__healthy__echo"), { text: "x" }))).toBe(
        "echo: x",
      );
    } finally {
      await connections.close();
    }
  });

  it("bounds a server that never answers initialize by connectTimeoutMs, and kills its process", async () => {
    const directory = temporaryFolder("mcp-pid-");
    const pidFile = join(directory, "pid");
    // Through a shell that writes its pid (kept by `exec`) before Node loads anything: the pid is
    // known even when a busy machine takes longer than connectTimeoutMs to load the server.
    const { command, args = [] } = stdioFixture("silent");
    const connections = await connectMcpServers({
      mute: {
        type: "stdio",
        command: "/bin/sh",
        args: ["-c", 'echo $$ > "$PID_FILE"; exec "$@"', "sh", command, ...args],
        env: { PID_FILE: pidFile },
        connectTimeoutMs: 1_000,
      },
    });
    expect(connections.statuses()).toEqual([
      {
        name: "mute",
        status: "failed",
        error: "No answer within connectTimeoutMs (1000 ms) while starting, initializing and listing tools.",
      },
    ]);
    expect(connections.tools()).toEqual([]);
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(pid).toBeGreaterThan(0);
    expect(processExists(pid)).toBe(false);
    await connections.close();
  });

  describe("a server started through a wrapper script (sh without exec)", () => {
    /** Writes an executable `sh` script and returns its path. */
    function wrapperScript(directory: string, body: string): string {
      const script = join(directory, "run-server.sh");
      writeFileSync(script, `#!/bin/sh\n${body}\n`);
      chmodSync(script, 0o755);
      return script;
    }

    it("close() stops the whole process group, a background helper of the server included", async () => {
      const directory = temporaryFolder("mcp-wrapper-");
      const helperPidFile = join(directory, "helper.pid");
      const script = wrapperScript(
        directory,
        [
          `sleep 600 </dev/null >/dev/null 2>&1 &`,
          `echo $! > "${helperPidFile}"`,
          `"${process.execPath}" "${STDIO_FIXTURE}" normal`,
        ].join("\n"),
      );
      let helperPid = 0;
      try {
        const connections = await connectMcpServers({ wrapped: { type: "stdio", command: script } });
        expect(connections.statuses()[0]).toMatchObject({ status: "connected" });
        helperPid = Number(readFileSync(helperPidFile, "utf8"));
        expect(processRunning(helperPid)).toBe(true);
        await connections.close();
        expect(processRunning(helperPid)).toBe(false);
      } finally {
        if (helperPid && processRunning(helperPid)) process.kill(helperPid, "SIGKILL");
      }
    });

    it("a failed connection kills the server that ignores the end of stdin, not only the shell", async () => {
      const directory = temporaryFolder("mcp-wrapper-");
      const pidFile = join(directory, "server.pid");
      const script = wrapperScript(directory, `"${process.execPath}" "${STDIO_FIXTURE}" silent`);
      let serverPid = 0;
      try {
        const connections = await connectMcpServers({
          wrapped: {
            type: "stdio",
            command: script,
            // Long enough for Node to start the server (and write its pid) on a busy machine.
            connectTimeoutMs: 5_000,
            env: { FIXTURE_PID_FILE: pidFile },
          },
        });
        expect(connections.statuses()[0]).toMatchObject({ status: "failed" });
        serverPid = Number(readFileSync(pidFile, "utf8"));
        expect(processRunning(serverPid)).toBe(false);
        // It took about 10 s before and left the server running; no speed bound here (a loaded machine
        // stretches the ~2.5 s of stdin, SIGTERM and the check): the server being gone is the point.
        await connections.close();
      } finally {
        if (serverPid && processRunning(serverPid)) process.kill(serverPid, "SIGKILL");
      }
    });
  });

  it("quotes no part of a secret when the quoted 2,000-character stderr tail starts inside it", async () => {
    const secret = "svc-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";
    // The secret's line, then 1,985 characters: the last 2,000 characters begin inside the secret.
    const script =
      'process.stderr.write("starting with token=" + process.env.SERVICE_TOKEN + "\\n" + "x".repeat(1985) + "\\n"); process.exit(1);';
    const connections = await connectMcpServers({
      leaky: {
        type: "stdio",
        command: process.execPath,
        args: ["-e", script],
        env: { SERVICE_TOKEN: secret },
      },
    });
    const status = connections.statuses()[0] as { status: string; error: string };
    expect(status.status).toBe("failed");
    expect(status.error).toContain("x".repeat(100));
    expect(status.error).not.toContain(secret.slice(-8));
    await connections.close();
  });

  it("quotes no part of a secret when the 8,000-character stderr window begins inside it", async () => {
    const secret = `jwt-${"AbCdEfGhIj".repeat(100)}`; // 1,004 characters
    // Nine lines quoting it (9,099 characters): the raw window starts inside the second one, and once
    // the whole ones are redacted what is left is short enough to be quoted from its start.
    const script =
      'process.stderr.write(("token=" + process.env.SERVICE_JWT + "\\n").repeat(9) + "y".repeat(99) + "\\n"); process.exit(1);';
    const connections = await connectMcpServers({
      leaky: {
        type: "stdio",
        command: process.execPath,
        args: ["-e", script],
        env: { SERVICE_JWT: secret },
      },
    });
    const status = connections.statuses()[0] as { status: string; error: string };
    expect(status.status).toBe("failed");
    expect(status.error).toContain("y".repeat(99));
    expect(status.error).not.toContain("AbCdEfGhIj");
    await connections.close();
  });

  it("fails a server whose tools/list pagination never ends", async () => {
    const connections = await connectMcpServers({ looping: stdioFixture("endless-pages") });
    expect(connections.statuses()).toEqual([
      { name: "looping", status: "failed", error: 'tools/list returned the cursor "again" twice.' },
    ]);
    await connections.close();
  });

  it("connects a server without the tools capability, with no tools", async () => {
    const connections = await connectMcpServers({ empty: stdioFixture("no-tools") });
    expect(connections.statuses()).toEqual([{ name: "empty", status: "connected", tools: [] }]);
    await connections.close();
  });

  it("reports a command that cannot be spawned", async () => {
    const connections = await connectMcpServers({
      missing: { type: "stdio", command: "/nonexistent/agent-lattice-mcp-server" },
    });
    expect(connections.statuses()).toEqual([
      { name: "missing", status: "failed", error: expect.stringContaining("ENOENT") },
    ]);
    await connections.close();
  });

  it("reports invalid configs as failed servers without throwing", async () => {
    const connections = await connectMcpServers({
      typo: { type: "websocket", url: "ws://127.0.0.1:1" } as never,
      "bad url": { type: "http", url: "not a url?token=abc" },
      "bad timeout": stdioFixture("normal", { connectTimeoutMs: -5 }),
      "timer overflow": stdioFixture("normal", { toolTimeoutMs: 3_000_000_000 }),
      "no command": { type: "stdio", command: "" },
    });
    expect(connections.statuses()).toEqual([
      {
        name: "typo",
        status: "failed",
        error: 'Unknown MCP server type "websocket": use "stdio", "http" or "sse".',
      },
      { name: "bad url", status: "failed", error: "The MCP server URL is not a valid absolute URL." },
      {
        name: "bad timeout",
        status: "failed",
        error: "connectTimeoutMs must be a positive number of milliseconds (got -5).",
      },
      {
        name: "timer overflow",
        status: "failed",
        error:
          "toolTimeoutMs must be at most 2147483647 ms (about 24.8 days, the longest a timer can wait), got 3000000000.",
      },
      { name: "no command", status: "failed", error: "A stdio MCP server needs a command." },
    ]);
    await connections.close();
  });

  it("returns empty connections for an empty config", async () => {
    const connections = await connectMcpServers({});
    expect(connections.tools()).toEqual([]);
    expect(connections.statuses()).toEqual([]);
    await connections.close();
  });

  it("rejects with AbortError when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      connectMcpServers({ fixture: stdioFixture() }, { signal: controller.signal }),
    ).rejects.toBeInstanceOf(AbortError);
  });

  it("rejects with AbortError when aborted while connecting, and kills the process it started", async () => {
    const directory = temporaryFolder("mcp-pid-");
    const pidFile = join(directory, "pid");
    const controller = new AbortController();
    const pending = connectMcpServers(
      { mute: stdioFixture("silent", { env: { FIXTURE_PID_FILE: pidFile } }) },
      { signal: controller.signal },
    );
    await waitForFile(pidFile);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(processExists(Number(readFileSync(pidFile, "utf8")))).toBe(false);
  });
});

describe("a server that crashes during a call", () => {
  it("returns an error output quoting stderr, marks the server failed, drops its tools and says so", async () => {
    let changes = 0;
    const connections = await connectMcpServers(
      { crashy: stdioFixture(), steady: stdioFixture() },
      { onToolsChanged: () => changes++ },
    );
    try {
      const output = await runTool(toolNamed(connections, "mcp__crashy__crash"));
      expect(output).toMatchObject({ isError: true });
      expect(textOf(output)).toMatch(/^MCP tool "mcp__crashy__crash" failed: .*Connection closed/);
      expect(textOf(output)).toContain("fatal: crashing on purpose");
      expect(connections.statuses()[0]).toEqual({
        name: "crashy",
        status: "failed",
        error: "The server closed the connection unexpectedly. Server stderr: fatal: crashing on purpose",
      });
      expect(changes).toBe(1);
      expect(connections.tools().some((tool) => tool.name.startsWith("mcp__crashy__"))).toBe(false);
      expect(connections.statuses()[1]).toMatchObject({ name: "steady", status: "connected" });
      expect(textOf(await runTool(toolNamed(connections, "mcp__steady__echo"), { text: "ok" }))).toBe(
        "echo: ok",
      );
    } finally {
      await connections.close();
    }
  });

  it("answers later calls to a tool kept from before the crash with an error output", async () => {
    const connections = await connectMcpServers({ crashy: stdioFixture() });
    try {
      const echo = toolNamed(connections, "mcp__crashy__echo");
      await runTool(toolNamed(connections, "mcp__crashy__crash"));
      const output = await runTool(echo, { text: "late" });
      expect(output).toEqual({
        content: 'MCP tool "mcp__crashy__echo" failed: the MCP server "crashy" is not connected.',
        isError: true,
      });
    } finally {
      await connections.close();
    }
  });
});

describe("tools/list_changed", () => {
  it("refreshes the server's tool list and calls onToolsChanged", async () => {
    let changed!: () => void;
    const toolsChanged = new Promise<void>((resolve) => (changed = resolve));
    const connections = await connectMcpServers(
      { fixture: stdioFixture() },
      { onToolsChanged: () => changed() },
    );
    try {
      expect(connections.tools().some((tool) => tool.name === "mcp__fixture__late")).toBe(false);
      expect(textOf(await runTool(toolNamed(connections, "mcp__fixture__add_tool")))).toBe("added");
      await toolsChanged;
      expect(connections.statuses()[0]?.tools).toContain("mcp__fixture__late");
      expect(textOf(await runTool(toolNamed(connections, "mcp__fixture__late")))).toBe("late tool ran");
    } finally {
      await connections.close();
    }
  });

  it("a server that never stops announcing changes does not hold a call's result back", async () => {
    const connections = await connectMcpServers({ fixture: stdioFixture("restless") });
    try {
      // The call waits for the refresh running when its result came, not for the refreshes to stop:
      // with a signal that never aborts, it used to wait forever (this test then times out).
      const output = await runTool(toolNamed(connections, "mcp__fixture__echo"), { text: "hi" });
      expect(output).toEqual({ content: [{ type: "text", text: "echo: hi" }] });
    } finally {
      await connections.close();
    }
  }, 30_000);

  it("survives an onToolsChanged callback that throws", async () => {
    let calls = 0;
    const connections = await connectMcpServers(
      { fixture: stdioFixture() },
      {
        onToolsChanged: () => {
          calls++;
          throw new Error("callback bug");
        },
      },
    );
    try {
      await runTool(toolNamed(connections, "mcp__fixture__add_tool"));
      await expect
        .poll(() => connections.tools().some((tool) => tool.name === "mcp__fixture__late"))
        .toBe(true);
      expect(calls).toBe(1);
      expect(textOf(await runTool(toolNamed(connections, "mcp__fixture__echo"), { text: "still" }))).toBe(
        "echo: still",
      );
    } finally {
      await connections.close();
    }
  });
});

describe("close()", () => {
  it("leaves no child process behind and is idempotent", async () => {
    const connections = await connectMcpServers({ one: stdioFixture(), two: stdioFixture() });
    const echo = toolNamed(connections, "mcp__one__echo");
    const pids = await Promise.all(
      ["mcp__one__pid", "mcp__two__pid"].map(async (name) =>
        Number(textOf(await runTool(toolNamed(connections, name)))),
      ),
    );
    for (const pid of pids) expect(processExists(pid)).toBe(true);
    const first = connections.close();
    expect(connections.close()).toBe(first);
    await first;
    for (const pid of pids) expect(processExists(pid)).toBe(false);
    expect(connections.tools()).toEqual([]);
    expect(await runTool(echo, { text: "closed" })).toEqual({
      content: 'MCP tool "mcp__one__echo" failed: the MCP server "one" is not connected.',
      isError: true,
    });
  });
});

async function waitForFile(path: string): Promise<void> {
  await expect
    .poll(
      () => {
        try {
          return readFileSync(path, "utf8").length > 0;
        } catch {
          return false;
        }
      },
      { timeout: 25_000 },
    )
    .toBe(true);
}
