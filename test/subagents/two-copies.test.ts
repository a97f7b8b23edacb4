/**
 * A subagent defined with one copy of the package runs in an agent of the other (ESM and CommonJS
 * both loaded, as in a dual-package app): the loop knows it by its plain `runAgentCall` field — no
 * symbol, no prototype — so its child's messages go live, its budget is shared, and a pause inside
 * it pauses the parent and resumes there. Runs the built package (`npx tsup` first).
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import * as esm from "../../dist/index.js";
import { mockServerPerTest } from "../support/mock-server";
import {
  deployTool,
  httpClient,
  parentCallsOnce,
  releaserDeploys,
  routeBySystem,
  SYSTEM,
} from "./child-pause-support";
import { childOf, own } from "./support";

const cjs = createRequire(import.meta.url)("../../dist/index.cjs") as typeof esm;

async function collect<T>(messages: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const message of messages) all.push(message);
  return all;
}

describe("a subagent from the other copy of the package", () => {
  const server = mockServerPerTest();

  it("pauses the parent on its child's call, resumes it, and delivers the child's messages live", async () => {
    expect(cjs.defineSubagent).not.toBe(esm.defineSubagent); // two copies indeed
    const runs: string[] = [];
    server.setHandler(
      routeBySystem({ "": parentCallsOnce("releaser"), [SYSTEM.releaser]: releaserDeploys() }),
    );
    const releaser = cjs.defineSubagent({
      name: "releaser",
      description: "Releases a version",
      systemPrompt: SYSTEM.releaser,
      tools: [deployTool(runs) as never],
    });
    const agent = esm.createAgent({
      model: "claude-test",
      client: httpClient(server.url),
      tools: [releaser],
    });
    const paused = await agent.prompt("Release 4.2");
    expect(paused.subtype).toBe("requires_approval");
    expect(paused.pending_approvals?.map((call) => [call.tool_use_id, call.parent_tool_use_id])).toEqual([
      ["c1", "p1"],
    ]);
    expect(runs).toEqual([]);

    const messages = await collect(agent.query({ approvals: { c1: { approved: true } } }));
    const result = own(messages).at(-1) as esm.SDKResultMessage;
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("Parent saw: Child: deployed to production");
    expect(runs).toEqual(["production"]);
    expect(childOf(messages, "p1").some((message) => message.type === "result")).toBe(true);
    await agent.close();
  });
});
