/**
 * Subagents and approvals: a subagent with `needsApproval` pauses the parent before its child
 * starts, and a resume by a second Agent over the same JSONL file runs the child and then the
 * parent. (A child's own call that asks pauses the parent: test/subagents/child-pause.test.ts; only
 * a subagent run outside an agent's query cannot wait, and its result says so.)
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createJsonlHistoryStore,
  createToolContext,
  defineSubagent,
  defineTool,
} from "../../src/index";
import { collect, expectWellFormed, lastResult, MODEL, toolResults, toolUse } from "../loop/support";
import { childOf, firstPrompt, own, resultsIn, routedClient } from "./support";

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "subagent-approvals-"));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

function deployTool(runs: string[], needsApproval: boolean) {
  return defineTool({
    name: "deploy",
    inputSchema: z.object({ target: z.string() }),
    needsApproval,
    execute: ({ target }) => {
      runs.push(target);
      return `deployed to ${target}`;
    },
  });
}

/** The parent asks the releaser once; the releaser child deploys, then reports. */
function releaseClient(childPrompts: string[]) {
  return routedClient({
    "": (request) =>
      resultsIn(request).length === 0
        ? { content: [toolUse("p1", "releaser", { prompt: "Ship 4.2 to production" })] }
        : { content: `Parent saw: ${resultsIn(request).at(-1)}` },
    "You release.": (request) => {
      if (resultsIn(request).length === 0) {
        childPrompts.push(firstPrompt(request));
        return { content: [toolUse("c1", "deploy", { target: "production" })] };
      }
      return { content: `Child: ${resultsIn(request).at(-1)}` };
    },
  });
}

describe("a pause inside a subagent", () => {
  it("needsApproval on the subagent pauses the parent; a second Agent over the store resumes the child, then the parent", async () => {
    const runs: string[] = [];
    const childPrompts: string[] = [];
    const client = releaseClient(childPrompts);
    const file = path.join(folder, "parent.jsonl");
    const releaser = () =>
      defineSubagent({
        name: "releaser",
        description: "Releases a version",
        systemPrompt: "You release.",
        tools: [deployTool(runs, false)],
        needsApproval: true,
        historyStore: ({ toolUseId }) =>
          createJsonlHistoryStore({ path: path.join(folder, `child-${toolUseId}.jsonl`) }),
      });
    const first = createAgent({
      model: MODEL,
      client,
      tools: [releaser()],
      historyStore: createJsonlHistoryStore({ path: file }),
    });
    const paused = await first.prompt("Release 4.2");
    expect(paused.subtype).toBe("requires_approval");
    expect(paused.is_error).toBe(false);
    expect(paused.pending_approvals).toEqual([
      { tool_use_id: "p1", name: "releaser", input: { prompt: "Ship 4.2 to production" } },
    ]);
    expect(childPrompts).toEqual([]); // the child has not started
    await first.close();

    const second = createAgent({
      model: MODEL,
      client,
      tools: [releaser()],
      historyStore: createJsonlHistoryStore({ path: file }),
    });
    expect(await second.getPendingApprovals()).toEqual(paused.pending_approvals);
    const messages = await collect(second.query({ approvals: { p1: { approved: true } } }));
    const result = lastResult(own(messages));
    expect(result.subtype).toBe("success");
    expect((result as { result: string }).result).toBe("Parent saw: Child: deployed to production");
    expect(childPrompts).toEqual(["Ship 4.2 to production"]);
    expect(runs).toEqual(["production"]);
    // The child's messages came live, tagged with the parent's call.
    expect(childOf(messages, "p1").some((message) => message.type === "result")).toBe(true);
    // Both histories are well-formed: the parent's marker is gone, the child's conversation is whole.
    const parentHistory = await second.getHistory();
    expectWellFormed(parentHistory);
    expect(parentHistory.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(toolResults(parentHistory)).toEqual([
      expect.objectContaining({ tool_use_id: "p1", content: "Child: deployed to production" }),
    ]);
    const child = createAgent({
      model: MODEL,
      client,
      historyStore: createJsonlHistoryStore({ path: path.join(folder, "child-p1.jsonl") }),
    });
    const childHistory = await child.getHistory();
    expectWellFormed(childHistory);
    expect(childHistory.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    await Promise.all([second.close(), child.close()]);
  });

  it("a denied subagent call never starts the child; the parent reads the denial", async () => {
    const runs: string[] = [];
    const childPrompts: string[] = [];
    const agent = createAgent({
      model: MODEL,
      client: releaseClient(childPrompts),
      tools: [
        defineSubagent({
          name: "releaser",
          description: "Releases",
          systemPrompt: "You release.",
          tools: [deployTool(runs, false)],
          needsApproval: true,
        }),
      ],
    });
    await agent.prompt("Release 4.2");
    const result = await agent.prompt({
      approvals: { p1: { approved: false, message: "Not on a Friday." } },
    });
    expect(result.subtype).toBe("success");
    expect((result as { result: string }).result).toContain("Not on a Friday.");
    expect(childPrompts).toEqual([]);
    expect(runs).toEqual([]);
    expectWellFormed(await agent.getHistory());
  });

  it("called outside an agent's query, a subagent whose child asks cannot wait: its result says the call did not run", async () => {
    const runs: string[] = [];
    const tool = defineSubagent({
      name: "releaser",
      description: "Releases",
      systemPrompt: "You release.",
      model: MODEL,
      client: releaseClient([]),
      tools: [deployTool(runs, true)],
    });
    // No `context.agent`: the tool runs on its own (called directly, or served over MCP).
    const output = await tool.execute(
      { prompt: "Ship 4.2 to production" },
      createToolContext({
        signal: new AbortController().signal,
        toolUseId: "p1",
        toolName: "releaser",
      }),
    );
    expect(runs).toEqual([]);
    expect(output).toEqual({
      isError: true,
      content: `The subagent "releaser" failed: its call to "deploy" (c1) needs a person's approval, which cannot be waited for outside an agent's query; it did not run.`,
    });
  });
});
