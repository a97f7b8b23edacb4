/**
 * A stdio server that started children of its own crashes in the middle of a call. Its children
 * are left in its process group (reparented to PID 1): the group is killed when the leader dies,
 * and at close at the latest, so none of them outlives the connection.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent/create-agent";
import { connectMcpServers } from "../../../src/integrations/mcp/connect";
import { createScriptedClient } from "../../../src/testing/index";
import { processRunning, runTool, STDIO_FIXTURE, textOf, toolNamed } from "./helpers";

const directories: string[] = [];
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/**
 * A server whose leader is the fixture itself (`exec`), with two children it started first: one in
 * the background, one that ignores SIGTERM. Their pids are in `children.pid`.
 */
function serverWithChildren(): { command: string; pidFile: string } {
  const directory = mkdtempSync(join(tmpdir(), "mcp-crash-children-"));
  directories.push(directory);
  const pidFile = join(directory, "children.pid");
  const command = join(directory, "run-server.sh");
  writeFileSync(
    command,
    [
      "#!/bin/sh",
      "sleep 600 </dev/null >/dev/null 2>&1 &",
      `echo $! > "${pidFile}"`,
      `sh -c 'trap "" TERM; while :; do sleep 1; done' </dev/null >/dev/null 2>&1 &`,
      `echo $! >> "${pidFile}"`,
      `exec "${process.execPath}" "${STDIO_FIXTURE}" normal`,
    ].join("\n"),
  );
  chmodSync(command, 0o755);
  return { command, pidFile };
}

function childrenOf(pidFile: string): number[] {
  const pids = readFileSync(pidFile, "utf8").split("\n").filter(Boolean).map(Number);
  started.push(...pids);
  return pids;
}

async function allGone(pids: number[], timeoutMs: number): Promise<boolean> {
  const giveUpAt = Date.now() + timeoutMs;
  while (pids.some(processRunning)) {
    if (Date.now() > giveUpAt) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

describe("a stdio server with children that crashes mid-call", () => {
  it("has its whole process group killed when its leader dies, before close", async () => {
    const { command, pidFile } = serverWithChildren();
    const connections = await connectMcpServers({ crashy: { type: "stdio", command } });
    try {
      const children = childrenOf(pidFile);
      const serverPid = Number(textOf(await runTool(toolNamed(connections, "mcp__crashy__pid"))));
      expect([serverPid, ...children].every(processRunning)).toBe(true);
      const output = await runTool(toolNamed(connections, "mcp__crashy__crash"));
      expect(output).toMatchObject({ isError: true });
      expect(connections.statuses()[0]).toMatchObject({ status: "failed" });
      // SIGTERM, then SIGKILL for the child that ignores it: within the grace period, not at close.
      expect(await allGone([serverPid, ...children], 6_000)).toBe(true);
    } finally {
      await connections.close();
    }
  });

  it("leaves no child running once agent.close() returns", async () => {
    const { command, pidFile } = serverWithChildren();
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client: createScriptedClient([
        { content: [{ type: "tool_use", id: "c1", name: "mcp__crashy__crash", input: {} }] },
        { content: "It crashed." },
      ]),
      mcpServers: { crashy: { type: "stdio", command } },
    });
    const result = await agent.prompt("Crash it.");
    expect(result.subtype).toBe("success");
    const children = childrenOf(pidFile);
    await agent.close();
    expect(children.filter(processRunning)).toEqual([]);
  });
});
