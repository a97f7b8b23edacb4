/**
 * A decision is bound to the calls as recorded: the pause marker holds a digest of the paused
 * `tool_use` blocks, and a resume whose stored calls were edited since (the input a person saw is
 * not the one that would run) is refused with `InvalidOptionError`, running nothing.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createJsonlHistoryStore,
  defineTool,
  InvalidOptionError,
  type ModelMessage,
} from "../../src/index";
import { callsDigest } from "../../src/messages/approvals";
import { createScriptedClient } from "../../src/testing/index";
import { temporaryFolder } from "../support/temporary-folders";
import { toolUse } from "./support";

function setup(path: string, runs: string[], resumed = false) {
  const deploy = defineTool({
    name: "deploy",
    inputSchema: z.object({ target: z.string() }),
    execute: ({ target }) => {
      runs.push(target);
      return `deployed ${target}`;
    },
  });
  return createAgent({
    model: "claude-sonnet-4-6",
    client: createScriptedClient(
      resumed ? [{ content: "Done." }] : [{ content: [toolUse("c1", "deploy", { target: "staging" })] }],
    ),
    tools: [deploy],
    canUseTool: () => ({ behavior: "ask" }),
    historyStore: createJsonlHistoryStore({ path }),
  });
}

describe("approvals bound to the recorded calls", () => {
  it("an edited stored tool_use input is refused at resume; nothing runs", async () => {
    const path = join(temporaryFolder("lattice-binding-"), "h.jsonl");
    const runs: string[] = [];
    const first = setup(path, runs);
    expect((await first.prompt("Deploy.")).subtype).toBe("requires_approval");
    expect(await first.getPendingApprovals()).toMatchObject([
      { tool_use_id: "c1", input: { target: "staging" } },
    ]);
    await first.close();

    // Someone with write access to the store edits the call's input.
    const stored = await createJsonlHistoryStore({ path }).load();
    const edited = structuredClone(stored) as ModelMessage[];
    const call = (edited.at(-2)!.content as Array<{ type: string; input?: { target: string } }>).find(
      (block) => block.type === "tool_use",
    )!;
    call.input = { target: "production" };
    const writer = createJsonlHistoryStore({ path });
    await writer.replace(edited);
    await writer.close?.();

    const second = setup(path, runs, true);
    const error = await second
      .prompt({ approvals: { c1: { approved: true } } })
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as Error).message).toContain("changed in the stored history after the pause was recorded");
    expect(runs).toEqual([]);
    expect(await second.getHistory()).toEqual(edited);
    await second.close();
  });

  it("an unedited pause resumes and runs the call shown", async () => {
    const path = join(temporaryFolder("lattice-binding-"), "h.jsonl");
    const runs: string[] = [];
    const first = setup(path, runs);
    await first.prompt("Deploy.");
    await first.close();
    const second = setup(path, runs, true);
    expect((await second.prompt({ approvals: { c1: { approved: true } } })).result).toBe("Done.");
    expect(runs).toEqual(["staging"]);
  });

  it("the digest ignores key order (a jsonb store may reorder keys) and sees every change", () => {
    const a = [{ type: "tool_use" as const, id: "c1", name: "deploy", input: { a: 1, b: { c: 2, d: 3 } } }];
    const reordered = [
      { type: "tool_use" as const, id: "c1", name: "deploy", input: { b: { d: 3, c: 2 }, a: 1 } },
    ];
    expect(callsDigest(reordered)).toBe(callsDigest(a));
    for (const changed of [
      [{ ...a[0]!, id: "c2" }],
      [{ ...a[0]!, name: "destroy" }],
      [{ ...a[0]!, input: { a: 2, b: { c: 2, d: 3 } } }],
    ]) {
      expect(callsDigest(changed)).not.toBe(callsDigest(a));
    }
  });
});
