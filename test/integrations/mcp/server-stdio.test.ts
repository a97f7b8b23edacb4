import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcpServers, type McpConnections } from "../../../src/integrations/mcp/connect";
import { bundleForNode } from "../../support/bundle";
import { processExists, runTool, textOf, toolNamed } from "./helpers";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

describe("createMcpServer over stdio, in a child process spoken to by connectMcpServers", () => {
  // Inside the repository, so that the bundle's external imports (the MCP SDK, zod) resolve.
  const outputDirectory = join(ROOT, ".tmp", `mcp-served-stdio-${process.pid}`);
  const entry = join(outputDirectory, "served-tools-stdio.mjs");
  let connections: McpConnections;

  beforeAll(async () => {
    mkdirSync(outputDirectory, { recursive: true });
    await bundleForNode(join(ROOT, "test/fixtures/mcp/served-tools-stdio.ts"), entry);
    connections = await connectMcpServers({
      served: { type: "stdio", command: process.execPath, args: [entry] },
    });
  });

  afterAll(async () => {
    await connections?.close();
    rmSync(outputDirectory, { recursive: true, force: true });
  });

  it("lists our tools with readOnly kept through readOnlyHint", () => {
    expect(connections.statuses()).toEqual([
      {
        name: "served",
        status: "connected",
        tools: [
          "mcp__served__add",
          "mcp__served__explode",
          "mcp__served__picture",
          "mcp__served__refuse",
          "mcp__served__wait_for_cancel",
          "mcp__served__pid",
        ],
      },
    ]);
    expect(toolNamed(connections, "mcp__served__add").readOnly).toBe(true);
    expect(toolNamed(connections, "mcp__served__refuse").readOnly).toBe(false);
  });

  it("runs our tools in the child, validation and errors included", async () => {
    expect(await runTool(toolNamed(connections, "mcp__served__add"), { a: 20, b: 22 })).toEqual({
      content: [{ type: "text", text: "42" }],
    });
    const invalid = await runTool(toolNamed(connections, "mcp__served__add"), { a: 1 });
    expect(invalid).toMatchObject({ isError: true });
    expect(textOf(invalid)).toMatch(/^Invalid input for tool "add":\n- b: /);
    const picture = await runTool(toolNamed(connections, "mcp__served__picture"));
    const blocks = typeof picture === "object" && Array.isArray(picture.content) ? picture.content : [];
    expect(blocks.slice(0, 2)).toEqual([
      { type: "text", text: "a picture" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
    ]);
    // The URL image travelled as an MCP resource link, which comes back as a line naming it.
    expect(blocks[2]).toEqual({
      type: "text",
      text: "Resource link: https://example.com/images/cat.png; name: cat.png",
    });
  });

  it("cancels a running tool when the caller aborts, and leaves no process after close()", async () => {
    const controller = new AbortController();
    const pending = runTool(toolNamed(connections, "mcp__served__wait_for_cancel"), {}, controller.signal);
    setImmediate(() => controller.abort());
    expect(await pending).toMatchObject({ isError: true });
    const pid = Number(textOf(await runTool(toolNamed(connections, "mcp__served__pid"))));
    expect(processExists(pid)).toBe(true);
    await connections.close();
    expect(processExists(pid)).toBe(false);
  });
});
