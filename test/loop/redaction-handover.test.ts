/**
 * The response and the tool results are redacted once, where history records them, and that same
 * entry is what the query yields: a secret deep in a tool_use input, in a tool_result's content or
 * in a tool's error message is in neither what is yielded nor what the JSONL and SQLite stores hold,
 * and each yielded assistant / user message is the very entry history holds.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createJsonlHistoryStore,
  defineTool,
  type HistoryStore,
  type SDKMessage,
} from "../../src/index";
import { createSqliteHistoryStore } from "../../src/integrations/stores/sqlite";
import { REDACTED } from "../../src/shared/redact";
import { createScriptedClient } from "../../src/testing/index";
import { collect, toolUse } from "./support";

const KEY = "tenant-7f3a9c-credential-5b21d8e4f0";
const folder = mkdtempSync(join(tmpdir(), "redaction-handover-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const STORES: Array<[string, (name: string) => { store: HistoryStore; stored: () => string }]> = [
  [
    "JSONL",
    (name) => {
      const path = join(folder, `${name}.jsonl`);
      return { store: createJsonlHistoryStore({ path }), stored: () => readFileSync(path, "utf8") };
    },
  ],
  [
    "SQLite",
    (name) => {
      const path = join(folder, `${name}.db`);
      const store = createSqliteHistoryStore({ path, conversationId: name });
      return { store, stored: () => readFileSync(path).toString("latin1") + readWal(path) };
    },
  ],
];

function readWal(path: string): string {
  try {
    return readFileSync(`${path}-wal`).toString("latin1");
  } catch {
    return "";
  }
}

async function run(store: HistoryStore) {
  const probe = defineTool({
    name: "probe",
    inputSchema: z.object({ mode: z.string() }).passthrough(),
    execute: ({ mode }) => {
      if (mode === "throw") throw new Error(`login refused for ${KEY}`);
      return { content: [{ type: "text" as const, text: `config: {"nested": {"token": "${KEY}"}}` }] };
    },
  });
  const deepInput = { mode: "ok", a: { b: [{ c: { d: `the key is ${KEY}` } }] } };
  const client = createScriptedClient([
    { content: [toolUse("t1", "probe", deepInput), toolUse("t2", "probe", { mode: "throw" })] },
    { content: `done with ${KEY}` },
  ]);
  const agent = createAgent({
    model: "claude-sonnet-4-6",
    client,
    apiKey: KEY,
    tools: [probe],
    historyStore: store,
  });
  const messages: SDKMessage[] = await collect(agent.query("go"));
  await agent.close();
  return { messages };
}

describe.each(STORES)("one redaction per recorded message (%s store)", (name, open) => {
  it("yields and stores no secret, and yields the entry history holds", async () => {
    const { store, stored } = open(`run-${name}`);
    const { messages } = await run(store);
    for (const message of messages) expect(JSON.stringify(message)).not.toContain(KEY);
    const text = stored();
    expect(text).not.toContain(KEY);
    expect(text).toContain(REDACTED);

    const handedOver = messages.filter((message) => message.type === "assistant" || message.type === "user");
    const reloaded = await open(`run-${name}`).store.load();
    // the prompt is recorded but not yielded; every other entry is yielded once, equal to what is stored
    expect(handedOver.map((message) => (message as { message: unknown }).message)).toEqual(reloaded.slice(1));
    const results = JSON.stringify(reloaded[2]);
    expect(results).toContain(`login refused for ${REDACTED}`);
    expect(JSON.stringify(reloaded[1])).toContain(`the key is ${REDACTED}`);
  });
});
