/**
 * `deferLoading` on an MCP server's config: its tools are searched for (here client-side, with a
 * scripted model), never sent until found, and then called on the real server.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { createAgent, SEARCH_TOOLS_TOOL_NAME } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { stdioFixture } from "../integrations/mcp/helpers";
import { MODEL, resultText, toolResults, toolUse } from "../loop/support";

describe("an MCP server with deferLoading", () => {
  it("keeps its tools out of the requests until search_tools finds them, then runs them", async () => {
    const client = createScriptedClient([
      {
        content: [toolUse("t1", SEARCH_TOOLS_TOOL_NAME, { query: "echo the text back" })],
        stop_reason: "tool_use",
      },
      { content: [toolUse("t2", "mcp__local__echo", { text: "hi" })], stop_reason: "tool_use" },
      { content: "done" },
    ]);
    const agent = createAgent({
      model: MODEL,
      client,
      mcpServers: { local: stdioFixture("normal", { deferLoading: true }) },
      toolSearch: "client",
    });
    onTestFinished(() => agent.close());
    const result = await agent.prompt("echo hi");
    expect(result.subtype).toBe("success");
    const offered = client.requests.map((request) => (request.tools ?? []).map((tool) => tool.name));
    expect(offered[0]).toEqual([SEARCH_TOOLS_TOOL_NAME]);
    expect(offered[1]![0]).toBe(SEARCH_TOOLS_TOOL_NAME);
    expect(offered[1]).toContain("mcp__local__echo");
    const [search, echo] = toolResults(await agent.getHistory());
    expect(resultText(search!).split("\n")[0]).toContain("mcp__local__echo");
    expect(resultText(echo!)).toContain("hi");
  });
});
