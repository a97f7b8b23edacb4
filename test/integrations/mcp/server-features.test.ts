/**
 * What users notice beyond plain tool calls, against a real stdio server
 * (test/fixtures/mcp/features-server.mjs): structured output checked against the tool's output
 * schema, log messages and progress handed to the config's callbacks, the server's own input schema
 * kept where it was simplified, and tools that require tasks reported instead of dropped silently.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { McpLogEntry, McpProgress } from "../../../src/integrations/mcp/config";
import { connectMcpServers, type McpConnections } from "../../../src/integrations/mcp/connect";
import { runTool, textOf, toolNamed } from "./helpers";

const FEATURES = fileURLToPath(new URL("../../fixtures/mcp/features-server.mjs", import.meta.url));

describe("MCP server features", () => {
  const opened: McpConnections[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((connections) => connections.close()));
  });
  async function connect(
    extra: { onLog?: (entry: McpLogEntry) => void; onProgress?: (progress: McpProgress) => void } = {},
  ) {
    const connections = await connectMcpServers({
      features: {
        type: "stdio",
        command: process.execPath,
        args: [FEATURES],
        env: { FEATURE_SECRET: "very-secret-value" },
        ...extra,
      },
    });
    opened.push(connections);
    return connections;
  }

  it("checks structured output against the output schema: a mismatch is an error result", async () => {
    const connections = await connect();
    expect(await runTool(toolNamed(connections, "mcp__features__weather"))).toEqual({
      content: [{ type: "text", text: "12 °C, cloudy" }],
    });
    const broken = await runTool(toolNamed(connections, "mcp__features__broken_weather"));
    expect(broken).toMatchObject({ isError: true });
    expect(textOf(broken)).toMatch(/structured content does not match/i);
  });

  it("hands log messages and progress to onLog and onProgress", async () => {
    const logs: McpLogEntry[] = [];
    const progress: McpProgress[] = [];
    const connections = await connect({
      onLog: (entry) => logs.push(entry),
      onProgress: (report) => {
        progress.push(report);
        throw new Error("a throwing callback is ignored");
      },
    });
    expect(textOf(await runTool(toolNamed(connections, "mcp__features__chatty")))).toBe("done");
    expect(logs).toEqual([
      { server: "features", level: "info", logger: "chatty", data: "starting" },
      { server: "features", level: "warning", data: { note: "almost done" } },
    ]);
    expect(progress).toEqual([
      { server: "features", tool: "mcp__features__chatty", progress: 1, total: 2, message: "half" },
    ]);
  });

  it("keeps the server's input schema where the model's copy had to be simplified", async () => {
    const connections = await connect();
    const union = toolNamed(connections, "mcp__features__union_input");
    expect(union.inputSchema).not.toHaveProperty("oneOf");
    expect(union.sourceInputSchema).toMatchObject({ oneOf: [{ required: ["a"] }, { required: ["b"] }] });
    expect(toolNamed(connections, "mcp__features__weather").sourceInputSchema).toBeUndefined();
  });

  it("reports tools that require tasks in the status instead of dropping them silently", async () => {
    const connections = await connect();
    const [status] = connections.statuses();
    expect(status?.tools).not.toContain("mcp__features__task_only");
    expect(status?.skipped).toEqual([
      { tool: "task_only", reason: "it requires MCP tasks, which this client does not run" },
    ]);
  });
});
