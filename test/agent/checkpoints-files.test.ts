/**
 * `rewind({ files: true })` through the agent: the files `write_file` and `edit_file` changed from
 * the checkpoint's prompt on are put back — by another Agent over the same store and workspace, as
 * another process would — files created removed; what `bash` did is reported untracked.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent, createJsonlHistoryStore } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { createWorkspaceTools } from "../../src/workspace-tools/index";
import { MODEL, toolUse } from "../loop/support";
import { temporaryFolder } from "../support/temporary-folders";

describe("rewind({ files: true })", () => {
  it("restores what the tools changed since the checkpoint, in another Agent too; bash calls are untracked", async () => {
    const folder = temporaryFolder("checkpoints-files-");
    const root = path.join(folder, "work");
    const file = path.join(folder, "history.jsonl");
    mkdirSync(root);
    writeFileSync(path.join(root, "notes.md"), "v1\n");
    const client = createScriptedClient([
      { content: [toolUse("w1", "write_file", { path: "notes.md", content: "v2\n" })] },
      { content: "first done" },
      {
        content: [toolUse("e1", "edit_file", { path: "notes.md", old_string: "v2", new_string: "v3" })],
      },
      { content: [toolUse("w2", "write_file", { path: "src/new.ts", content: "export {};\n" })] },
      { content: [toolUse("b1", "bash", { command: "echo made-by-bash > bash.txt" })] },
      { content: "second done" },
    ]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: createWorkspaceTools({ root, allowBash: true }),
      historyStore: createJsonlHistoryStore({ path: file }),
    });
    await agent.prompt("write v2");
    const second = await agent.prompt("edit to v3 and add a file");
    expect(readFileSync(path.join(root, "notes.md"), "utf8")).toBe("v3\n");
    const listed = await agent.checkpoints();
    expect(listed.map((checkpoint) => checkpoint.files)).toEqual([["notes.md"], ["notes.md", "src/new.ts"]]);
    await agent.close();

    const other = createAgent({
      model: MODEL,
      client: createScriptedClient([]),
      tools: createWorkspaceTools({ root, allowBash: true }),
      historyStore: createJsonlHistoryStore({ path: file }),
    });
    const result = await other.rewind({ to: second.checkpoint_id!, files: true });
    expect(result.files).toEqual({
      restored: ["notes.md"],
      removed: ["src/new.ts"],
      notKept: [],
      failed: [],
    });
    expect(result.untracked).toEqual([{ tool_use_id: "b1", name: "bash" }]);
    expect(result.clean).toBe(false); // bash.txt is still there, and the report says so
    expect(readFileSync(path.join(root, "notes.md"), "utf8")).toBe("v2\n");
    expect(existsSync(path.join(root, "src/new.ts"))).toBe(false);
    expect(existsSync(path.join(root, "bash.txt"))).toBe(true);

    // Back to the first checkpoint: the file as it was before the first prompt; a clean rewind.
    const first = (await other.checkpoints())[0]!;
    const back = await other.rewind({ to: first.id, files: true });
    expect(back.clean).toBe(true);
    expect(readFileSync(path.join(root, "notes.md"), "utf8")).toBe("v1\n");
    expect(await other.getHistory()).toEqual([]);
    await other.close();
  });

  it("without files: true the files stay, and the rewind is not called clean", async () => {
    const root = temporaryFolder("checkpoints-nofiles-");
    const client = createScriptedClient([
      { content: [toolUse("w1", "write_file", { path: "a.txt", content: "a\n" })] },
      { content: "done" },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: createWorkspaceTools({ root }) });
    const result = await agent.prompt("write");
    const rewound = await agent.rewind({ to: result.checkpoint_id! });
    expect(rewound.files).toBeUndefined();
    expect(rewound.untracked).toEqual([]);
    expect(rewound.clean).toBe(false);
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("a\n");
    // The record is still there: the checkpoint is gone from history, its files could be put back by hand.
    expect(client.requests).toHaveLength(2); // a rewind makes no model request
  });
});
