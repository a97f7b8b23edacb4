/**
 * Checkpoints: ids on prompts (recorded, and derived for histories stored without them),
 * `rewind()` and `fork()` — idle-only, well-formed, pauses consistent, forks independent.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ConcurrentQueryError,
  createAgent,
  createJsonlHistoryStore,
  defineTool,
  InvalidOptionError,
  type ModelMessage,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { createMemoryStore, deferred, expectWellFormed, MODEL, toolUse } from "../loop/support";
import { temporaryFolder } from "../support/temporary-folders";

const noteTool = defineTool({
  name: "note",
  inputSchema: z.object({ text: z.string() }),
  execute: ({ text }) => `noted ${text}`,
});

/** A scripted client that answers every request with "answer N". */
function echoClient() {
  let count = 0;
  return createScriptedClient(() => ({ content: `answer ${++count}` }));
}

function promptTexts(messages: readonly ModelMessage[]): string[] {
  return messages
    .filter((message) => typeof message.content === "string" && message.role === "user")
    .map((message) => message.content as string);
}

describe("checkpoint ids", () => {
  it("every prompt records a checkpoint id and a timestamp in its meta; the result names it", async () => {
    const agent = createAgent({ model: MODEL, client: echoClient() });
    const first = await agent.prompt("one");
    const second = await agent.prompt("two");
    const history = await agent.getHistory();
    expect(history[0]!.meta?.checkpoint_id).toBe(first.checkpoint_id);
    expect(history[2]!.meta?.checkpoint_id).toBe(second.checkpoint_id);
    expect(first.checkpoint_id).toMatch(/^cp_[0-9a-f]{32}$/);
    expect(first.checkpoint_id).not.toBe(second.checkpoint_id);
    expect(Number.isNaN(Date.parse(history[0]!.meta!.created_at!))).toBe(false);
    expect(history[1]!.meta?.checkpoint_id).toBeUndefined();

    const checkpoints = await agent.checkpoints();
    expect(checkpoints.map(({ id, index, prompt }) => ({ id, index, prompt }))).toEqual([
      { id: first.checkpoint_id, index: 0, prompt: "one" },
      { id: second.checkpoint_id, index: 2, prompt: "two" },
    ]);
    expect(checkpoints[0]!.files).toBeUndefined(); // no file-recording tools
  });

  it("tool results and the loop's own user messages start no checkpoint", async () => {
    const client = createScriptedClient([
      { content: [toolUse("t1", "note", { text: "a" })] },
      { content: "done" },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [noteTool] });
    await agent.prompt("use the tool");
    expect((await agent.checkpoints()).map((checkpoint) => checkpoint.index)).toEqual([0]);
  });

  it("a history stored without checkpoints gets derived ids: the same in every process, rewindable", async () => {
    const folder = temporaryFolder("checkpoints-legacy-");
    const file = path.join(folder, "old.jsonl");
    const legacy: ModelMessage[] = [
      { role: "user", content: "first question" },
      { role: "assistant", content: [toolUse("t1", "note", { text: "a" })], stop_reason: "tool_use" },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "noted a" }] },
      { role: "assistant", content: [{ type: "text", text: "ok" }], stop_reason: "end_turn" },
      { role: "user", content: [{ type: "text", text: "second question" }] },
      { role: "assistant", content: [{ type: "text", text: "fine" }], stop_reason: "end_turn" },
    ];
    {
      const writer = createJsonlHistoryStore({ path: file });
      await writer.load();
      await writer.replace(legacy);
      await writer.close?.();
      const open = () =>
        createAgent({
          model: MODEL,
          client: echoClient(),
          historyStore: createJsonlHistoryStore({ path: file }),
        });
      const [a, b] = [open(), open()];
      const listed = await a.checkpoints();
      expect(listed.map((checkpoint) => [checkpoint.index, checkpoint.prompt, checkpoint.createdAt])).toEqual(
        [
          [0, "first question", ""],
          [4, "second question", ""],
        ],
      );
      expect(listed[0]!.id).toMatch(/^cp_d[0-9a-f]{24}$/);
      expect(await b.checkpoints()).toEqual(listed);
      await b.close();

      // A new prompt after the old ones gets a recorded id; the old ones keep their derived ids.
      const result = await a.prompt("third question");
      const after = await a.checkpoints();
      expect(after.map((checkpoint) => checkpoint.id)).toEqual([
        listed[0]!.id,
        listed[1]!.id,
        result.checkpoint_id,
      ]);

      const rewound = await a.rewind({ to: listed[1]!.id });
      expect(rewound.removedMessages).toBe(4);
      expect(await a.getHistory()).toEqual(legacy.slice(0, 4));
      await a.close();
      const reopened = open();
      expect(await reopened.getHistory()).toEqual(legacy.slice(0, 4));
      await reopened.close();
    }
  });
});

describe("rewind()", () => {
  it("goes back to just before a prompt, in memory and in the store; the next prompt continues from there", async () => {
    const client = echoClient();
    const store = createMemoryStore();
    const agent = createAgent({ model: MODEL, client, historyStore: store });
    await agent.prompt("one");
    const second = await agent.prompt("two");
    await agent.prompt("three");

    const result = await agent.rewind({ to: second.checkpoint_id! });
    expect(result.removedMessages).toBe(4);
    expect(result.checkpoint.prompt).toBe("two");
    expect(result.clean).toBe(true);
    expect(result.untracked).toEqual([]);
    expect(promptTexts(await agent.getHistory())).toEqual(["one"]);
    expect(promptTexts(store.saved)).toEqual(["one"]);
    expect((await agent.checkpoints()).length).toBe(1);

    await agent.prompt("two again");
    const last = client.requests.at(-1)!;
    expect(promptTexts(last.messages)).toEqual(["one", "two again"]);
    expectWellFormed(await agent.getHistory());
    // The rewound checkpoint is gone.
    await expect(agent.rewind({ to: second.checkpoint_id! })).rejects.toBeInstanceOf(InvalidOptionError);
  });

  it("rewinding to the first checkpoint empties the history", async () => {
    const agent = createAgent({ model: MODEL, client: echoClient() });
    const first = await agent.prompt("one");
    await agent.rewind({ to: first.checkpoint_id! });
    expect(await agent.getHistory()).toEqual([]);
  });

  it("is idle-only: while a query runs it throws ConcurrentQueryError, and a query is refused while it runs", async () => {
    const started = deferred<void>();
    const release = deferred<void>();
    const slow = defineTool({
      name: "slow",
      inputSchema: z.object({}),
      execute: async () => {
        started.resolve();
        await release.promise;
        return "slow done";
      },
    });
    let count = 0;
    const client = createScriptedClient(() =>
      ++count === 2 ? { content: [toolUse("s1", "slow")] } : { content: `answer ${count}` },
    );
    const agent = createAgent({ model: MODEL, client, tools: [slow] });
    const first = await agent.prompt("one");
    const running = agent.prompt("two");
    await started.promise;
    await expect(agent.rewind({ to: first.checkpoint_id! })).rejects.toBeInstanceOf(ConcurrentQueryError);
    await expect(agent.fork({ at: first.checkpoint_id! })).rejects.toBeInstanceOf(ConcurrentQueryError);
    release.resolve();
    await running;

    const store = createMemoryStore();
    const gate = deferred<void>();
    const slowStore = {
      ...store,
      replace: async (messages: ModelMessage[]) => {
        await gate.promise;
        await store.replace(messages);
      },
    };
    const guarded = createAgent({ model: MODEL, client: echoClient(), historyStore: slowStore });
    const one = await guarded.prompt("one");
    const rewinding = guarded.rewind({ to: one.checkpoint_id! });
    await expect(guarded.prompt("meanwhile")).rejects.toBeInstanceOf(ConcurrentQueryError);
    gate.resolve();
    await rewinding;
    expect(await guarded.getHistory()).toEqual([]);
  });

  it("rewinding before a pending approval removes the pause: nothing is pending afterwards", async () => {
    const deploy = defineTool({
      name: "deploy",
      inputSchema: z.object({}),
      needsApproval: true,
      execute: () => "deployed",
    });
    const client = createScriptedClient([
      { content: "hello" },
      { content: [toolUse("d1", "deploy")] },
      { content: "again" },
    ]);
    const store = createMemoryStore();
    const agent = createAgent({ model: MODEL, client, tools: [deploy], historyStore: store });
    await agent.prompt("hi");
    const paused = await agent.prompt("deploy it");
    expect(paused.subtype).toBe("requires_approval");
    expect(await agent.getPendingApprovals()).toHaveLength(1);

    const result = await agent.rewind({ to: paused.checkpoint_id! });
    expect(result.untracked).toEqual([{ tool_use_id: "d1", name: "deploy" }]);
    expect(result.clean).toBe(false);
    expect(await agent.getPendingApprovals()).toEqual([]);
    const other = createAgent({ model: MODEL, client: echoClient(), historyStore: store });
    expect(await other.getPendingApprovals()).toEqual([]);
    await expect(agent.prompt({ approvals: { d1: { approved: true } } })).rejects.toBeInstanceOf(
      InvalidOptionError,
    );
    expect((await agent.prompt("something else")).subtype).toBe("success");
    expectWellFormed(await agent.getHistory());
  });

  it("refuses an id that is not a checkpoint of the conversation, changing nothing", async () => {
    const agent = createAgent({ model: MODEL, client: echoClient() });
    await agent.prompt("one");
    const before = await agent.getHistory();
    await expect(agent.rewind({ to: "cp_nope" })).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(agent.rewind({ to: "../../etc" })).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(agent.rewind(undefined as never)).rejects.toBeInstanceOf(InvalidOptionError);
    expect(await agent.getHistory()).toEqual(before);
  });

  it("a rewind over a conversation another Agent changed meanwhile is a conflict, and writes nothing", async () => {
    const folder = temporaryFolder("checkpoints-conflict-");
    const file = path.join(folder, "c.jsonl");
    {
      const a = createAgent({
        model: MODEL,
        client: echoClient(),
        historyStore: createJsonlHistoryStore({ path: file }),
      });
      const first = await a.prompt("one");
      const b = createAgent({
        model: MODEL,
        client: echoClient(),
        historyStore: createJsonlHistoryStore({ path: file }),
      });
      await b.prompt("two from b");
      await expect(a.rewind({ to: first.checkpoint_id! })).rejects.toBeInstanceOf(ConcurrentQueryError);
      expect(promptTexts(await b.getHistory())).toEqual(["one", "two from b"]);
      await Promise.all([a.close(), b.close()]);
      const reader = createJsonlHistoryStore({ path: file });
      expect(promptTexts(await reader.load())).toEqual(["one", "two from b"]);
      await reader.close?.();
    }
  });
});

describe("fork()", () => {
  it("a new Agent with the conversation before the checkpoint, in a store of its own; both go on independently", async () => {
    const folder = temporaryFolder("checkpoints-fork-");
    {
      const original = createAgent({
        model: MODEL,
        client: echoClient(),
        historyStore: createJsonlHistoryStore({ path: path.join(folder, "main.jsonl") }),
      });
      await original.prompt("one");
      const second = await original.prompt("two");
      const forkFile = path.join(folder, "fork.jsonl");
      const fork = await original.fork({
        at: second.checkpoint_id!,
        store: createJsonlHistoryStore({ path: forkFile }),
      });
      expect(promptTexts(await fork.getHistory())).toEqual(["one"]);
      expect((await fork.checkpoints())[0]!.id).toBe((await original.checkpoints())[0]!.id);

      await fork.prompt("fork two");
      await original.prompt("three");
      expect(promptTexts(await fork.getHistory())).toEqual(["one", "fork two"]);
      expect(promptTexts(await original.getHistory())).toEqual(["one", "two", "three"]);

      // The guard holds for each: one query at a time on the fork, and a second writer of the
      // fork's conversation conflicts with it.
      const running = fork.prompt("fork three");
      await expect(fork.prompt("overlap")).rejects.toBeInstanceOf(ConcurrentQueryError);
      await running;
      const intruder = createAgent({
        model: MODEL,
        client: echoClient(),
        historyStore: createJsonlHistoryStore({ path: forkFile }),
      });
      await intruder.prompt("intruder");
      const conflicted = await fork.prompt("after intruder").catch((error: unknown) => error);
      expect(conflicted).toBeInstanceOf(ConcurrentQueryError);
      await Promise.all([original.close(), fork.close(), intruder.close()]);
    }
  });

  it("without a store the fork keeps its history in memory; a store that already holds a conversation is refused", async () => {
    const original = createAgent({ model: MODEL, client: echoClient() });
    const first = await original.prompt("one");
    await original.prompt("two");
    const fork = await original.fork({ at: (await original.checkpoints())[1]!.id });
    expect(promptTexts(await fork.getHistory())).toEqual(["one"]);
    await expect(
      original.fork({
        at: first.checkpoint_id!,
        store: createMemoryStore([{ role: "user", content: "taken" }]),
      }),
    ).rejects.toBeInstanceOf(InvalidOptionError);
  });
});
