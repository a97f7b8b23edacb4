/**
 * Which batches are checked whole and record, before their checks, that none of their calls
 * started (`tool-calls/may-pause.ts`): only a batch with a call that could ask for a person's
 * decision. A read-only call is never asked about by `canUseTool` nor held by `askBeforeWrites`,
 * so a batch of read-only calls writes no record and takes none back; a read-only tool with
 * `needsApproval`, or a write under `canUseTool` / `askBeforeWrites`, still does.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isUnstartedCallsRecord } from "../../src/history/unstarted-calls";
import {
  type AgentOptions,
  createAgent,
  defineTool,
  type HistoryStore,
  type ModelMessage,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { MODEL, toolUse } from "./support";

/** A store that logs every write: `append:<role>`, `append:record` for the record, `replace`. */
function loggingStore(): HistoryStore & { writes: string[]; saved: ModelMessage[] } {
  let saved: ModelMessage[] = [];
  const writes: string[] = [];
  return {
    writes,
    get saved() {
      return saved;
    },
    load: async () => structuredClone(saved),
    append: async (message) => {
      writes.push(isUnstartedCallsRecord(message) ? "append:record" : `append:${message.role}`);
      saved.push(structuredClone(message));
    },
    replace: async (messages) => {
      writes.push("replace");
      saved = structuredClone(messages);
    },
  };
}

const read = defineTool({
  name: "read",
  readOnly: true,
  inputSchema: z.object({ path: z.string() }),
  execute: ({ path }) => `contents of ${path}`,
});
const write = defineTool({
  name: "write",
  inputSchema: z.object({ path: z.string() }),
  execute: ({ path }) => `wrote ${path}`,
});
const guardedRead = defineTool({
  name: "guarded_read",
  readOnly: true,
  needsApproval: ({ path }) => path === "secret",
  inputSchema: z.object({ path: z.string() }),
  execute: ({ path }) => `contents of ${path}`,
});

async function run(options: Partial<AgentOptions>, calls: ReturnType<typeof toolUse>[]) {
  const store = loggingStore();
  const asked: string[] = [];
  const canUseTool = options.canUseTool;
  const agent = createAgent({
    model: MODEL,
    client: createScriptedClient([{ content: calls }, { content: "Done." }]),
    tools: [read, write, guardedRead],
    historyStore: store,
    ...options,
    ...(canUseTool && {
      canUseTool: (name: string, input: unknown, context: { signal: AbortSignal; toolUseId: string }) => {
        asked.push(name);
        return canUseTool(name, input, context);
      },
    }),
  });
  const result = await agent.prompt("Go.");
  await agent.close();
  return { result, writes: store.writes, asked, saved: store.saved };
}

/** A plain turn: the prompt, the response, the results, the answer — nothing else written. */
const PLAIN = ["append:user", "append:assistant", "append:user", "append:assistant"];
/** A gated turn that ran: the record after the response, taken back before the calls ran. */
const GATED = [
  "append:user",
  "append:assistant",
  "append:record",
  "replace",
  "append:user",
  "append:assistant",
];

describe("the record that no call started", () => {
  it("a read-only batch with canUseTool set writes no record (canUseTool is never asked)", async () => {
    const allow = () => ({ behavior: "allow" as const });
    const { result, writes, asked, saved } = await run({ canUseTool: allow }, [
      toolUse("r1", "read", { path: "a" }),
      toolUse("r2", "read", { path: "b" }),
    ]);
    expect(result.subtype).toBe("success");
    expect(writes).toEqual(PLAIN);
    expect(asked).toEqual([]);
    expect(saved.some(isUnstartedCallsRecord)).toBe(false);
  });

  it("a batch with a write under canUseTool still records and takes the record back", async () => {
    const allow = () => ({ behavior: "allow" as const });
    const { result, writes, asked } = await run({ canUseTool: allow }, [
      toolUse("r1", "read", { path: "a" }),
      toolUse("w1", "write", { path: "b" }),
    ]);
    expect(result.subtype).toBe("success");
    expect(writes).toEqual(GATED);
    expect(asked).toEqual(["write"]);
  });

  it("a read-only batch under askBeforeWrites writes no record; one with a write pauses over it", async () => {
    const reads = await run({ permissionMode: "askBeforeWrites" }, [toolUse("r1", "read", { path: "a" })]);
    expect(reads.result.subtype).toBe("success");
    expect(reads.writes).toEqual(PLAIN);
    const writes = await run({ permissionMode: "askBeforeWrites" }, [
      toolUse("r1", "read", { path: "a" }),
      toolUse("w1", "write", { path: "b" }),
    ]);
    expect(writes.result.subtype).toBe("requires_approval");
    // The record, then the pause recorded over it (the paused message marked, the marker).
    expect(writes.writes).toEqual(["append:user", "append:assistant", "append:record", "replace"]);
  });

  it("a read-only tool with needsApproval still makes its batch record (it can ask)", async () => {
    const allowed = await run({}, [toolUse("g1", "guarded_read", { path: "a" })]);
    expect(allowed.result.subtype).toBe("success");
    expect(allowed.writes).toEqual(GATED);
    const paused = await run({ canUseTool: () => ({ behavior: "allow" }) }, [
      toolUse("r1", "read", { path: "a" }),
      toolUse("g1", "guarded_read", { path: "secret" }),
    ]);
    expect(paused.result.subtype).toBe("requires_approval");
    expect(paused.writes).toEqual(["append:user", "append:assistant", "append:record", "replace"]);
    expect(paused.asked).toEqual([]);
  });

  it("a write that allowedTools names is never asked about: no record under canUseTool", async () => {
    const { result, writes, asked } = await run(
      { canUseTool: () => ({ behavior: "ask" }), allowedTools: ["write"] },
      [toolUse("w1", "write", { path: "b" })],
    );
    expect(result.subtype).toBe("success");
    expect(writes).toEqual(PLAIN);
    expect(asked).toEqual([]);
  });
});
