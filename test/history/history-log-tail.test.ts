/**
 * A rewrite of history's last messages writes only them (`HistoryStore.replaceTail`) while the store
 * holds what memory holds: a batch that may ask for approval takes its "none started" record back,
 * and a pause is recorded over it, without rewriting the conversation — and the store ends equal to
 * memory. A store without `replaceTail`, or one that missed a write, gets `replace` of the whole.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { HistoryLog } from "../../src/history/history-log";
import type { HistoryStore } from "../../src/history/store";
import { createAgent, defineTool, type ModelMessage } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { MODEL, toolUse } from "../loop/support";

/** An in-memory store that counts its writes and how many messages each wrote. */
function countingStore(options: { tail: boolean; failAppends?: number } = { tail: true }) {
  let saved: ModelMessage[] = [];
  let failures = options.failAppends ?? 0;
  const writes = { append: 0, replace: 0, replaceTail: 0, messagesWritten: 0 };
  const store: HistoryStore = {
    load: async () => structuredClone(saved),
    append: async (message) => {
      if (failures > 0) {
        failures--;
        throw new Error("the disk is full");
      }
      writes.append++;
      writes.messagesWritten++;
      saved.push(structuredClone(message));
    },
    replace: async (messages) => {
      writes.replace++;
      writes.messagesWritten += messages.length;
      saved = structuredClone(messages);
    },
  };
  if (options.tail) {
    store.replaceTail = async (from, messages) => {
      if (from > saved.length) throw new RangeError("past the stored messages");
      writes.replaceTail++;
      writes.messagesWritten += messages.length;
      saved = [...saved.slice(0, from), ...structuredClone(messages)];
    };
  }
  return { store, writes, saved: () => saved };
}

function echoAgent(store: HistoryStore, turns: number, ask = false) {
  const echo = defineTool({
    name: "echo",
    inputSchema: z.object({ n: z.number() }),
    execute: ({ n }) => `echo ${n}`,
  });
  const steps = Array.from({ length: turns }, (_, index) => ({
    content: [toolUse(`t${index}`, "echo", { n: index })],
  }));
  return createAgent({
    model: MODEL,
    client: createScriptedClient([...steps, { content: "Done." }]),
    tools: [echo],
    canUseTool: () => (ask ? { behavior: "ask" } : { behavior: "allow" }),
    historyStore: store,
  });
}

describe("history's tail rewritten alone", () => {
  it("a batch checked by canUseTool takes its record back with replaceTail: no whole rewrite per tool turn", async () => {
    const { store, writes, saved } = countingStore();
    const agent = echoAgent(store, 5);
    expect((await agent.prompt("Echo five times.")).subtype).toBe("success");
    expect(writes.replace).toBe(0);
    expect(writes.replaceTail).toBe(5); // one per gated batch, each writing no message
    // prompt + 5 × (assistant, record, results) + the answer: every message written once, none rewritten
    expect(writes.messagesWritten).toBe(1 + 5 * 3 + 1);
    expect(saved()).toEqual(await agent.getHistory());
    expect(saved().some((message) => "calls_not_started" in message)).toBe(false);
  });

  it("a pause is recorded over the record by replaceTail (its marker and the marked message only)", async () => {
    const { store, writes, saved } = countingStore();
    const agent = echoAgent(store, 1, true);
    expect((await agent.prompt("Echo once.")).subtype).toBe("requires_approval");
    expect(writes.replace).toBe(0);
    expect(writes.replaceTail).toBe(1);
    expect(saved()).toEqual(await agent.getHistory());
    expect(saved().at(-2)).toMatchObject({ role: "assistant", meta: { calls_not_started: true } });
    // The resume claims the pause with a tail write too, then runs the call.
    expect((await agent.prompt({ approvals: { t0: { approved: true } } })).subtype).toBe("success");
    expect(writes.replace).toBe(0);
    expect(saved()).toEqual(await agent.getHistory());
  });

  it("a store without replaceTail gets replace of the whole history, with the same result", async () => {
    const { store, writes, saved } = countingStore({ tail: false });
    const agent = echoAgent(store, 3);
    expect((await agent.prompt("Echo three times.")).subtype).toBe("success");
    expect(writes.replace).toBe(3);
    expect(saved()).toEqual(await agent.getHistory());
  });

  it("after a write the store missed, the next rewrite replaces the whole history (never a tail over a hole)", async () => {
    const { store, writes, saved } = countingStore({ tail: true, failAppends: 0 });
    const log = new HistoryLog(store);
    await log.ensureLoaded();
    await log.append({ role: "user", content: "one" });
    await log.append({ role: "assistant", content: [{ type: "text", text: "two" }] });
    // The store misses the next append: memory holds three messages, the store two.
    store.append = async () => {
      throw new Error("the disk is full");
    };
    await log.append({ role: "user", content: "three" });
    store.append = async (message) => {
      saved().push(structuredClone(message));
    };
    await log.replace(
      log.messages.slice(0, 3).concat([{ role: "assistant", content: [{ type: "text", text: "four" }] }]),
    );
    expect(writes.replaceTail).toBe(0);
    expect(writes.replace).toBe(1);
    expect(saved()).toEqual(log.messages);
    // In step again: a tail rewrite is a tail write.
    await log.replace(log.messages.slice(0, 2));
    expect(writes.replaceTail).toBe(1);
    expect(saved()).toEqual(log.messages);
  });
});
