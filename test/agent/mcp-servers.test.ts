/**
 * MCP servers through the agent, end to end: `createAgent({ mcpServers })` with a scripted model and
 * real servers — the raw-SDK stdio fixture in a child process, the raw-SDK Streamable HTTP fixture
 * on loopback, and our own createMcpServer on loopback for the concurrency probes.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Agent } from "../../src/agent/create-agent";
import {
  createAgent,
  defineTool,
  InvalidOptionError,
  type McpServerConfig,
  type McpServerStatus,
  type SDKMessage,
  type ToolResultBlock,
} from "../../src/index";
import { createMcpServer, type McpToolServer } from "../../src/integrations/mcp/index";
import { createScriptedClient, type ScriptedClient } from "../../src/testing/index";
import { type HttpFixture, startStreamableHttpFixture } from "../fixtures/mcp/raw-http-servers";
import { processExists, stdioFixture } from "../integrations/mcp/helpers";
import {
  collect,
  expectWellFormed,
  lastResult,
  MODEL,
  resultText,
  toolResults,
  toolUse,
} from "../loop/support";

const TOKEN = "http-fixture-token-0123456789";

/** Every tool of the stdio fixture, as the agent exposes them for a server named `server`. */
function stdioFixtureTools(server: string): string[] {
  const tools = ["echo", "fail", "throw", "crash", "media", "pid", "environment", "add_tool", "slow"];
  return [...tools, "dotted_name_tool"].map((tool) => `mcp__${server}__${tool}`);
}

/** The `mcp_servers` of the query's system/init message. */
function mcpServersOnInit(messages: SDKMessage[]): McpServerStatus[] | undefined {
  const init = messages.find((message) => message.type === "system" && message.subtype === "init");
  if (init?.type !== "system" || init.subtype !== "init") throw new Error("no system/init message");
  return init.mcp_servers;
}

/** The names of the tools a recorded model request offered. */
function offeredTools(client: ScriptedClient, requestIndex: number): string[] {
  const request = client.requests[requestIndex];
  if (!request) throw new Error(`no model request #${requestIndex + 1}`);
  return (request.tools ?? []).map((tool) => tool.name);
}

/** The tool_result of one call in the agent's history. */
async function resultOf(agent: Agent, toolUseId: string): Promise<ToolResultBlock> {
  const found = toolResults(await agent.getHistory()).find((block) => block.tool_use_id === toolUseId);
  if (!found) throw new Error(`no tool_result for ${toolUseId}`);
  return found;
}

/** A directory for a fixture's pid file, removed after the test. */
function pidFileLocation(cleanups: Array<() => Promise<void> | void>): string {
  const directory = mkdtempSync(join(tmpdir(), "agent-mcp-pid-"));
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  return join(directory, "pid");
}

/**
 * The stdio fixture in its "never answers" mode, started through a shell that writes its pid (kept
 * by `exec`) before Node loads anything: the pid is known even when a busy machine is slower to
 * load the server than `connectTimeoutMs`.
 */
function silentServerWritingItsPid(pidFile: string, connectTimeoutMs: number): McpServerConfig {
  const { command, args = [] } = stdioFixture("silent");
  return {
    type: "stdio",
    command: "/bin/sh",
    args: ["-c", 'echo $$ > "$PID_FILE"; exec "$@"', "sh", command, ...args],
    env: { PID_FILE: pidFile },
    connectTimeoutMs,
  };
}

async function waitForPidFile(path: string): Promise<number> {
  const readPid = () => {
    try {
      return Number(readFileSync(path, "utf8")) || 0;
    } catch {
      return 0;
    }
  };
  await expect.poll(readPid, { timeout: 25_000 }).toBeGreaterThan(0);
  return readPid();
}

/**
 * Tools that report whether another call of the same tool was running at the same time. A call
 * waits up to `waitForPeerMs` for a peer: two calls that overlap both meet and answer
 * "met a concurrent call" at once; a call that ran alone answers "ran alone" when the wait ends.
 */
function createOverlapProbes(): { tools: ReturnType<typeof defineTool>[]; maxInFlight: Map<string, number> } {
  const maxInFlight = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const waiting = new Map<string, Array<() => void>>();

  async function probe(name: string, waitForPeerMs: number): Promise<string> {
    const running = (inFlight.get(name) ?? 0) + 1;
    inFlight.set(name, running);
    maxInFlight.set(name, Math.max(maxInFlight.get(name) ?? 0, running));
    try {
      if (running >= 2) {
        for (const wake of waiting.get(name)?.splice(0) ?? []) wake();
        return "met a concurrent call";
      }
      const met = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), waitForPeerMs);
        const list = waiting.get(name) ?? [];
        list.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
        waiting.set(name, list);
      });
      return met ? "met a concurrent call" : "ran alone";
    } finally {
      inFlight.set(name, (inFlight.get(name) ?? 1) - 1);
    }
  }

  const tools = [
    defineTool({
      name: "look",
      description: "A read-only probe",
      inputSchema: z.object({}),
      readOnly: true,
      // Long enough that overlapping calls always meet; a sequential run would fail slowly, not flakily.
      execute: () => probe("look", 10_000),
    }),
    defineTool({
      name: "touch",
      description: "A probe with side effects",
      inputSchema: z.object({}),
      execute: () => probe("touch", 300),
    }),
  ];
  return { tools, maxInFlight };
}

/** The stdio fixture's tool that requires tasks: reported in the status, not offered. */
const TASK_ONLY = { tool: "background_job", reason: "it requires MCP tasks, which this client does not run" };

describe("createAgent with mcpServers (real MCP servers)", () => {
  const cleanups: Array<() => Promise<void> | void> = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function startHttpFixture(): Promise<HttpFixture> {
    const fixture = await startStreamableHttpFixture({ token: TOKEN });
    cleanups.push(() => fixture.close());
    return fixture;
  }

  function agentWith(mcpServers: Record<string, McpServerConfig>, client: ScriptedClient): Agent {
    const agent = createAgent({ model: MODEL, client, mcpServers });
    cleanups.push(() => agent.close());
    return agent;
  }

  it("connects stdio and Streamable HTTP servers before the first request, reports them on init, and runs their tools", async () => {
    const fixture = await startHttpFixture();
    const client = createScriptedClient([
      {
        content: [
          toolUse("t1", "mcp__local__echo", { text: "hi" }),
          toolUse("t2", "mcp__remote__shout", { text: "hello" }),
        ],
      },
      { content: "Both tools answered." },
    ]);
    const agent = agentWith(
      {
        local: stdioFixture(),
        remote: { type: "http", url: fixture.url, headers: { Authorization: `Bearer ${TOKEN}` } },
      },
      client,
    );

    const messages = await collect(agent.query("Use the MCP tools"));

    expect(mcpServersOnInit(messages)).toEqual([
      { name: "local", status: "connected", tools: stdioFixtureTools("local"), skipped: [TASK_ONLY] },
      { name: "remote", status: "connected", tools: ["mcp__remote__shout"] },
    ]);
    const init = messages[0] as Extract<SDKMessage, { subtype: "init" }>;
    expect(init.tools).toEqual([...stdioFixtureTools("local"), "mcp__remote__shout"]);
    expect(offeredTools(client, 0)).toEqual([...stdioFixtureTools("local"), "mcp__remote__shout"]);
    expect(client.requests[0]?.tools).toContainEqual({
      name: "mcp__local__echo",
      description: "Echo the text",
      input_schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    });
    const toolTurn = messages.find((message) => message.type === "user");
    expect(toolTurn).toEqual({
      type: "user",
      message: {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "echo: hi" }] },
          { type: "tool_result", tool_use_id: "t2", content: [{ type: "text", text: "HELLO" }] },
        ],
        meta: { tool_durations_ms: { t1: expect.any(Number), t2: expect.any(Number) } },
      },
    });
    expect(client.requests[1]?.messages.at(-1)).toEqual(toolTurn?.type === "user" ? toolTurn.message : null);
    const result = lastResult(messages);
    expect(result).toMatchObject({ subtype: "success", result: "Both tools answered.", num_turns: 2 });
  });

  it("connects once: a second query reuses the connections and reports the same statuses", async () => {
    const client = createScriptedClient([
      { content: [toolUse("t1", "mcp__local__pid")] },
      { content: "first" },
      { content: [toolUse("t2", "mcp__local__pid")] },
      { content: "second" },
    ]);
    const agent = agentWith({ local: stdioFixture() }, client);

    const first = await collect(agent.query("pid?"));
    const second = await collect(agent.query("pid again?"));

    expect(mcpServersOnInit(second)).toEqual(mcpServersOnInit(first));
    const firstPid = resultText(await resultOf(agent, "t1"));
    expect(Number(firstPid)).toBeGreaterThan(0);
    expect(resultText(await resultOf(agent, "t2"))).toBe(firstPid);
  });

  it("runs readOnlyHint tools of one batch concurrently and other tools one at a time", async () => {
    const probes = createOverlapProbes();
    const served: McpToolServer = createMcpServer(probes.tools, { name: "probes" });
    cleanups.push(() => served.close());
    const listener = await served.listen();
    const client = createScriptedClient([
      { content: [toolUse("r1", "mcp__probes__look"), toolUse("r2", "mcp__probes__look")] },
      { content: [toolUse("w1", "mcp__probes__touch"), toolUse("w2", "mcp__probes__touch")] },
      { content: "probed" },
    ]);
    const agent = agentWith({ probes: { type: "http", url: listener.url } }, client);

    const result = await agent.prompt("Probe");

    expect(result.subtype).toBe("success");
    expect(client.requests[0]?.tools?.map((tool) => tool.name)).toEqual([
      "mcp__probes__look",
      "mcp__probes__touch",
    ]);
    for (const id of ["r1", "r2"]) {
      expect(resultText(await resultOf(agent, id))).toBe("met a concurrent call");
    }
    for (const id of ["w1", "w2"]) {
      expect(resultText(await resultOf(agent, id))).toBe("ran alone");
    }
    expect(probes.maxInFlight.get("look")).toBe(2);
    expect(probes.maxInFlight.get("touch")).toBe(1);
  });

  it("reports servers that fail to connect and runs on without their tools", async () => {
    const mutePidFile = pidFileLocation(cleanups);
    const client = createScriptedClient([
      {
        content: [
          toolUse("t1", "mcp__healthy__echo", { text: "still here" }),
          toolUse("t2", "mcp__missing__anything"),
        ],
      },
      { content: "Worked around the broken servers." },
    ]);
    const agent = agentWith(
      {
        healthy: stdioFixture(),
        missing: { type: "stdio", command: "/nonexistent/agent-lattice-mcp-server" },
        crashing: stdioFixture("crash-at-start"),
        mute: silentServerWritingItsPid(mutePidFile, 1_000),
      },
      client,
    );

    const messages = await collect(agent.query("Go"));

    expect(mcpServersOnInit(messages)).toEqual([
      { name: "healthy", status: "connected", tools: stdioFixtureTools("healthy"), skipped: [TASK_ONLY] },
      { name: "missing", status: "failed", error: expect.stringContaining("ENOENT") },
      {
        name: "crashing",
        status: "failed",
        error: expect.stringContaining("fatal: cannot read configuration"),
      },
      {
        name: "mute",
        status: "failed",
        error: "No answer within connectTimeoutMs (1000 ms) while starting, initializing and listing tools.",
      },
    ]);
    expect(offeredTools(client, 0)).toEqual(stdioFixtureTools("healthy"));
    expect(resultText(await resultOf(agent, "t1"))).toBe("echo: still here");
    const unknown = await resultOf(agent, "t2");
    expect(unknown.is_error).toBe(true);
    expect(resultText(unknown)).toContain("mcp__missing__anything");
    expect(lastResult(messages)).toMatchObject({
      subtype: "success",
      result: "Worked around the broken servers.",
    });
    // The server that never answered was killed when its connect timed out.
    expect(processExists(await waitForPidFile(mutePidFile))).toBe(false);
  });

  it("offers a tool added through tools/list_changed in the very next model request", async () => {
    const client = createScriptedClient([
      { content: [toolUse("t1", "mcp__local__add_tool")] },
      { content: [toolUse("t2", "mcp__local__late")] },
      { content: "The late tool ran." },
    ]);
    const agent = agentWith({ local: stdioFixture() }, client);

    const first = await collect(agent.query("Add a tool, then use it"));

    expect(offeredTools(client, 0)).not.toContain("mcp__local__late");
    expect(offeredTools(client, 1)).toContain("mcp__local__late");
    expect(offeredTools(client, 2)).toContain("mcp__local__late");
    expect(resultText(await resultOf(agent, "t1"))).toBe("added");
    const late = await resultOf(agent, "t2");
    expect(late.is_error).toBeUndefined();
    expect(resultText(late)).toBe("late tool ran");
    expect(lastResult(first).subtype).toBe("success");

    client.push({ content: "ok" });
    const second = await collect(agent.query("Which tools now?"));
    expect(mcpServersOnInit(second)?.[0]?.tools).toEqual([...stdioFixtureTools("local"), "mcp__local__late"]);
  });

  it("turns an isError result and a failing tool call into error tool_results, and the loop goes on", async () => {
    const client = createScriptedClient([
      { content: [toolUse("t1", "mcp__local__fail"), toolUse("t2", "mcp__local__throw")] },
      { content: [toolUse("t3", "mcp__local__echo", { text: "after the errors" })] },
      { content: "Recovered." },
    ]);
    const agent = agentWith({ local: stdioFixture() }, client);

    const result = await agent.prompt("Break things");

    expect(result).toMatchObject({ subtype: "success", result: "Recovered.", num_turns: 3 });
    expect(await resultOf(agent, "t1")).toEqual({
      type: "tool_result",
      tool_use_id: "t1",
      content: [{ type: "text", text: "the widget is broken" }],
      is_error: true,
    });
    const thrown = await resultOf(agent, "t2");
    expect(thrown.is_error).toBe(true);
    expect(resultText(thrown)).toMatch(/^MCP tool "mcp__local__throw" failed: .*kaboom/);
    // The model saw both errors before its next turn.
    const secondRequest = client.requests[1]!;
    expect(secondRequest.messages.at(-1)?.content).toEqual([
      await resultOf(agent, "t1"),
      await resultOf(agent, "t2"),
    ]);
    expect(resultText(await resultOf(agent, "t3"))).toBe("echo: after the errors");
    expectWellFormed(await agent.getHistory());
  });

  it("reports a server that crashes during a call, drops its tools from the next request, and goes on", async () => {
    const client = createScriptedClient([
      { content: [toolUse("t1", "mcp__crashy__crash")] },
      { content: [toolUse("t2", "mcp__steady__echo", { text: "ok" })] },
      { content: "done" },
      { content: "second query" },
    ]);
    const agent = agentWith({ crashy: stdioFixture(), steady: stdioFixture() }, client);

    await agent.prompt("Crash one server");

    const crashed = await resultOf(agent, "t1");
    expect(crashed.is_error).toBe(true);
    expect(resultText(crashed)).toContain("fatal: crashing on purpose");
    expect(offeredTools(client, 0)).toEqual([...stdioFixtureTools("crashy"), ...stdioFixtureTools("steady")]);
    expect(offeredTools(client, 1)).toEqual(stdioFixtureTools("steady"));
    expect(resultText(await resultOf(agent, "t2"))).toBe("echo: ok");

    const next = await collect(agent.query("And now?"));
    expect(mcpServersOnInit(next)).toEqual([
      {
        name: "crashy",
        status: "failed",
        error: "The server closed the connection unexpectedly. Server stderr: fatal: crashing on purpose",
      },
      { name: "steady", status: "connected", tools: stdioFixtureTools("steady"), skipped: [TASK_ONLY] },
    ]);
  });

  it("close() leaves no stdio child process behind, and the agent refuses later queries", async () => {
    const fixture = await startHttpFixture();
    const client = createScriptedClient([
      { content: [toolUse("t1", "mcp__one__pid"), toolUse("t2", "mcp__two__pid")] },
      { content: "pids" },
    ]);
    const agent = agentWith(
      {
        one: stdioFixture(),
        two: stdioFixture(),
        remote: { type: "http", url: fixture.url, headers: { Authorization: `Bearer ${TOKEN}` } },
      },
      client,
    );
    await agent.prompt("What are your pids?");
    const pids = [
      Number(resultText(await resultOf(agent, "t1"))),
      Number(resultText(await resultOf(agent, "t2"))),
    ];
    expect(pids[0]).not.toBe(pids[1]);
    for (const pid of pids) expect(processExists(pid)).toBe(true);

    await agent.close();

    for (const pid of pids) expect(processExists(pid)).toBe(false);
    await expect(agent.prompt("again")).rejects.toBeInstanceOf(InvalidOptionError);
    await agent.close(); // idempotent
  });

  it("close() during a slow connect returns without waiting for connectTimeoutMs, and kills the child", async () => {
    const pidFile = pidFileLocation(cleanups);
    const client = createScriptedClient([]);
    const agent = agentWith(
      // Far beyond the test's timeout: close() must not wait for it.
      { mute: silentServerWritingItsPid(pidFile, 600_000) },
      client,
    );

    const pending = collect(agent.query("Hello"));
    const pid = await waitForPidFile(pidFile);
    expect(processExists(pid)).toBe(true);
    await agent.close();

    expect(processExists(pid)).toBe(false);
    const messages = await pending;
    expect(mcpServersOnInit(messages)).toEqual([
      { name: "mute", status: "failed", error: expect.any(String) },
    ]);
    expect(lastResult(messages).subtype).toBe("interrupted");
    expect(client.callCount).toBe(0);
  });
});
