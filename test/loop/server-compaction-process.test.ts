/**
 * Resuming in another process after a server compaction: this process runs a conversation on the
 * mock server until it compacts (history in a JSONL file), then a real child process opens the same
 * file and goes on — sending the `compaction` block back as recorded, which the mock server checks
 * (its signature) before reading the conversation from it on.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type CompactionBlock,
  createAgent,
  createAnthropicClient,
  createJsonlHistoryStore,
  defineTool,
  type ModelMessage,
} from "../../src/index";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing";
import { temporaryFolder } from "../support/temporary-folders";

const ROOT = path.resolve(__dirname, "../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
const CHILD = path.join(ROOT, "test/fixtures/compaction/resume-child.ts");
const servers: MockAnthropicServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const read = defineTool({
  name: "read",
  description: "Reads a file.",
  inputSchema: z.object({ file: z.number() }),
  readOnly: true,
  execute: (input: { file: number }) => `file ${input.file}: ${"lorem ipsum dolor sit amet ".repeat(740)}`,
});

function compactionBlocks(messages: readonly ModelMessage[]): CompactionBlock[] {
  return messages.flatMap((message) =>
    typeof message.content === "string"
      ? []
      : message.content.filter((block): block is CompactionBlock => block.type === "compaction"),
  );
}

describe("a conversation resumed in another process after a server compaction", { timeout: 120_000 }, () => {
  it("sends the recorded compaction block back from the child process", async () => {
    let reads = 0;
    const server = await startMockAnthropicServer({
      handler: () =>
        reads < 14
          ? { content: [{ type: "tool_use", id: `call_${reads}`, name: "read", input: { file: reads++ } }] }
          : { content: "All read." },
    });
    servers.push(server);
    const file = path.join(temporaryFolder("compaction-process-"), "conversation.jsonl");
    const first = createAgent({
      model: "claude-sonnet-4-6",
      client: createAnthropicClient({ apiKey: "sk-compaction-parent", baseURL: server.url }),
      tools: [read],
      historyStore: createJsonlHistoryStore({ path: file }),
      autoCompact: { where: "provider", thresholdTokens: 50_000 },
    });
    expect((await first.prompt("Read them all.")).subtype).toBe("success");
    const history = await first.getHistory();
    const recorded = compactionBlocks(history);
    expect(recorded).toHaveLength(1);
    await first.close();

    server.setHandler(() => ({ content: "Resumed after the compaction." }));
    const before = server.requests.length;
    const { stdout } = await promisify(execFile)(TSX, [CHILD, file, server.url], { cwd: ROOT });
    expect(JSON.parse(stdout.trim())).toEqual({
      subtype: "success",
      result: "Resumed after the compaction.",
      messages: history.length + 2,
    });
    const request = server.requests[before]!;
    expect(request.headers["anthropic-beta"]).toContain("compact-2026-01-12");
    expect(compactionBlocks(request.body.messages)).toEqual(recorded);
    const readFrom = request.editedMessages as Array<{ content: Array<{ text?: string }> }>;
    expect(readFrom[0]!.content[0]!.text).toBe(recorded[0]!.content);
  });
});
