/**
 * Issue 17: history content is always JSON the API accepts. A tool's output or a prompt that JSON
 * cannot write, or a prompt whose blocks the API would refuse, never enters history; a store is
 * never left behind memory by one bad message.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createJsonlHistoryStore,
  defineTool,
  InvalidOptionError,
  isWellFormedHistory,
  type ModelMessage,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { MODEL, toolResults, toolUse } from "./support";

const folder = mkdtempSync(join(tmpdir(), "history-validity-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;

function cyclic(): Record<string, unknown> {
  const loop: Record<string, unknown> = { name: "loop" };
  loop.self = loop;
  return loop;
}

const BAD_VALUES: Array<[string, () => unknown]> = [
  ["a BigInt", () => 1n],
  ["a cycle", cyclic],
];

describe("a tool whose content blocks JSON cannot write", () => {
  it.each(BAD_VALUES)(
    "%s in an extra field: an error result naming the problem, the store keeps up (failOnError false and true)",
    async (_name, bad) => {
      for (const failOnError of [false, true]) {
        const broken = defineTool({
          name: "broken",
          inputSchema: z.object({}),
          readOnly: true,
          execute: () => ({ content: [{ type: "text" as const, text: "ok", debug: bad() } as never] }),
        });
        const client = createScriptedClient([
          { content: [toolUse("c1", "broken", {})] },
          { content: "Noted." },
          { content: [toolUse("c2", "broken", {})] },
          { content: "Noted again." },
        ]);
        const path = join(folder, `tool-${files++}.jsonl`);
        const agent = createAgent({
          model: MODEL,
          client,
          tools: [broken],
          historyStore: createJsonlHistoryStore({ path, failOnError }),
        });

        const first = await agent.prompt("Use it.");
        const second = await agent.prompt("Again.");

        expect([first.subtype, second.subtype]).toEqual(["success", "success"]);
        const history = await agent.getHistory();
        expect(history).toHaveLength(8);
        const [result] = toolResults([history[2]!]);
        expect(result!.is_error).toBe(true);
        expect(String(result!.content)).toMatch(/cannot be written as JSON/);
        expect(() => JSON.stringify(history)).not.toThrow();
        await agent.close();
        const stored = await createJsonlHistoryStore({ path }).load();
        expect(stored).toEqual(history);
      }
    },
  );
});

describe("a prompt the API would refuse", () => {
  const image = (media_type: string, data: string) => ({
    type: "image" as const,
    source: { type: "base64" as const, media_type, data },
  });
  const refused: Array<[string, unknown]> = [
    ["a BigInt in a text block", [{ type: "text", text: "hi", debug: 1n }]],
    ["a cycle in a text block", [{ type: "text", text: "hi", extra: cyclic() }]],
    ["a tool_use block", [{ type: "tool_use", id: "t1", name: "x", input: {} }]],
    ["a thinking block", [{ type: "thinking", thinking: "hm", signature: "s" }]],
    ["a tool_result for an unknown id", [{ type: "tool_result", tool_use_id: "nope", content: "ok" }]],
    ["an unknown block type", [{ type: "hologram", data: "x" }]],
    ["an image of a refused media type", [image("image/tiff", "aGVsbG8=")]],
    ["an image with undecodable base64", [image("image/png", "not base64!!")]],
    ["an image with empty data", [image("image/png", "")]],
    ["an image without a source", [{ type: "image" }]],
    ["an image whose url is empty", [{ type: "image", source: { type: "url", url: "" } }]],
    [
      "an image of a source type neither base64 nor url",
      [{ type: "image", source: { type: "file", id: "f" } }],
    ],
    ["a tool_result without a tool_use_id", [{ type: "tool_result", content: "ok" }]],
    ["a tool_result whose content is a number", [{ type: "tool_result", tool_use_id: "t1", content: 42 }]],
    [
      "a tool_result holding a blank text block",
      [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "  " }] }],
    ],
    [
      "a tool_result holding a tool_result",
      [
        {
          type: "tool_result",
          tool_use_id: "t1",
          content: [{ type: "tool_result", tool_use_id: "t0", content: "nested" }],
        },
      ],
    ],
  ];

  it.each(refused)(
    "%s: InvalidOptionError, history and store untouched, the conversation goes on",
    async (_name, prompt) => {
      const client = createScriptedClient([{ content: "Hello." }]);
      const path = join(folder, `prompt-${files++}.jsonl`);
      const agent = createAgent({ model: MODEL, client, historyStore: createJsonlHistoryStore({ path }) });

      const error = await agent.prompt(prompt as never).catch((failure: unknown) => failure);

      expect(error).toBeInstanceOf(InvalidOptionError);
      expect((error as Error).message).toMatch(/prompt/i);
      expect(await agent.getHistory()).toEqual([]);
      expect(client.callCount).toBe(0);
      expect((await agent.prompt("Hi")).result).toBe("Hello.");
      await agent.close();
      expect(await createJsonlHistoryStore({ path }).load()).toEqual(await agent.getHistory());
    },
  );

  it("an image given by url is a prompt the API accepts: recorded and sent as given", async () => {
    const client = createScriptedClient([{ content: "A cat." }]);
    const agent = createAgent({ model: MODEL, client });
    const prompt = [
      { type: "text" as const, text: "What is this?" },
      { type: "image" as const, source: { type: "url" as const, url: "https://example.com/cat.png" } },
    ];
    expect((await agent.prompt(prompt as never)).result).toBe("A cat.");
    expect(client.requests[0]!.messages[0]!.content).toEqual(prompt);
  });

  it("a tool_result answering a dangling call of the history is accepted; the other calls are answered too", async () => {
    const client = createScriptedClient([{ content: "Thanks." }]);
    const agent = createAgent({ model: MODEL, client });
    await agent.replaceHistory([
      { role: "user", content: "Look it up." },
      { role: "assistant", content: [toolUse("a1", "lookup", {}), toolUse("a2", "lookup", {})] },
    ]);

    const result = await agent.prompt([
      { type: "text", text: "Here is the answer." },
      { type: "tool_result", tool_use_id: "a2", content: "42" },
    ]);

    expect(result.subtype).toBe("success");
    const history = await agent.getHistory();
    expect(isWellFormedHistory(history)).toBe(true);
    const answers = toolResults([history[2]!]);
    expect(answers.map((block) => block.tool_use_id)).toEqual(["a1", "a2"]);
    expect(answers[1]!.content).toBe("42");
  });

  it("a tool_result for a call already answered is refused", async () => {
    const client = createScriptedClient([{ content: [toolUse("c1", "lookup", {})] }, { content: "Done." }]);
    const lookup = defineTool({
      name: "lookup",
      inputSchema: z.object({}),
      readOnly: true,
      execute: () => "x",
    });
    const agent = createAgent({ model: MODEL, client, tools: [lookup] });
    await agent.prompt("Go.");
    const before = await agent.getHistory();
    await expect(
      agent.prompt([{ type: "tool_result", tool_use_id: "c1", content: "again" }]),
    ).rejects.toBeInstanceOf(InvalidOptionError);
    expect(await agent.getHistory()).toEqual(before);
  });

  it("replaceHistory with a value JSON cannot write is refused", async () => {
    const agent = createAgent({ model: MODEL, client: createScriptedClient([]) });
    const messages = [
      { role: "user", content: [{ type: "text", text: "hi", n: 1n }] },
    ] as unknown as ModelMessage[];
    await expect(agent.replaceHistory(messages)).rejects.toBeInstanceOf(InvalidOptionError);
    expect(await agent.getHistory()).toEqual([]);
  });

  it("replaceHistory with two tool_use blocks of one id is refused, naming both; the history and the store are untouched", async () => {
    const saved: ModelMessage[] = [{ role: "user", content: "Before." }];
    const store = {
      load: async () => structuredClone(saved),
      append: async (message: ModelMessage) => void saved.push(message),
      replace: async () => {
        throw new Error("replace must not be reached");
      },
    };
    const client = createScriptedClient([{ content: "Ok." }]);
    const agent = createAgent({ model: MODEL, client, historyStore: store });
    const before = await agent.getHistory();
    const messages: ModelMessage[] = [
      { role: "user", content: "Look twice." },
      { role: "assistant", content: [toolUse("dup", "lookup", { q: 1 })] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "dup", content: "one" }] },
      { role: "assistant", content: [{ type: "text", text: "Again." }, toolUse("dup", "lookup", { q: 2 })] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "dup", content: "two" }] },
    ];
    const refused = await agent.replaceHistory(messages).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidOptionError);
    expect((refused as Error).message).toBe(
      'replaceHistory() messages[3].content[1] is a tool_use with the id "dup", which messages[1].content[0] has already: each tool_use id must be unique in a conversation (the API refuses a request that repeats one).',
    );
    expect(await agent.getHistory()).toEqual(before);
    // Within one message too; and the conversation goes on as it was.
    const inOne: ModelMessage[] = [
      { role: "user", content: "Go." },
      { role: "assistant", content: [toolUse("x", "lookup", {}), toolUse("x", "lookup", {})] },
    ];
    await expect(agent.replaceHistory(inOne)).rejects.toThrow(
      /messages\[1\]\.content\[1\] is a tool_use with the id "x"/,
    );
    expect((await agent.prompt("Still here?")).subtype).toBe("success");
    expect(client.requests[0]!.messages[0]).toEqual({ role: "user", content: "Before." });
    await agent.close();
  });

  it("any prompt of arbitrary blocks is refused, or leaves a well-formed history JSON can write (property)", async () => {
    const block = fc.oneof(
      fc.record({ type: fc.constant("text"), text: fc.string() }),
      fc.record({
        type: fc.constant("text"),
        text: fc.string({ minLength: 1 }),
        extra: fc.anything({ withBigInt: true }),
      }),
      fc.record({
        type: fc.constantFrom("tool_use", "tool_result", "thinking", "hologram"),
        tool_use_id: fc.string(),
        id: fc.string(),
      }),
      fc.record({
        type: fc.constant("image"),
        source: fc.record({
          type: fc.constant("base64"),
          media_type: fc.constantFrom("image/png", "image/bmp"),
          data: fc.oneof(fc.base64String(), fc.string()),
        }),
      }),
      fc.anything({ withBigInt: true }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(block, { maxLength: 4 }), async (blocks) => {
        const agent = createAgent({ model: MODEL, client: createScriptedClient([{ content: "Ok." }]) });
        try {
          await agent.prompt(blocks as never);
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidOptionError);
          expect(await agent.getHistory()).toEqual([]);
          return;
        }
        const history = await agent.getHistory();
        expect(isWellFormedHistory(history)).toBe(true);
        expect(() => JSON.stringify(history)).not.toThrow();
      }),
      { numRuns: 150 },
    );
  });
});
