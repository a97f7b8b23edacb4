/**
 * Values JSON cannot keep never reach history in a shape `getHistory()` cannot copy: a tool's
 * content with a function, a Symbol, `undefined` in an array, a class instance or a getter that
 * throws becomes an error result naming the field; such a prompt is an `InvalidOptionError`; a lone
 * surrogate is refused in a prompt and replaced in tool output; `replaceHistory` checks its input.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, defineTool, InvalidOptionError, type ModelMessage } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { createMemoryStore, expectWellFormed, MODEL, toolResults, toolUse } from "./support";

class Box {
  value = 1;
}
function throwingGetter(): object {
  const block = { type: "text", text: "ok" };
  Object.defineProperty(block, "extra", {
    enumerable: true,
    get() {
      throw new Error("getter exploded");
    },
  });
  return block;
}

const BAD_BLOCKS: Array<[string, () => unknown, string]> = [
  ["a function", () => ({ type: "text", text: "ok", extra: () => 1 }), "content[0].extra is a function"],
  ["a Symbol", () => ({ type: "text", text: "ok", extra: Symbol("s") }), "content[0].extra is a symbol"],
  [
    "undefined in an array",
    () => ({ type: "text", text: "ok", extra: [1, undefined] }),
    "content[0].extra[1] is undefined",
  ],
  [
    "a class instance",
    () => ({ type: "text", text: "ok", extra: new Box() }),
    "content[0].extra is an instance of Box",
  ],
  ["a getter that throws", throwingGetter, "content[0].extra is a getter"],
];

describe("values JSON cannot keep", () => {
  it.each(BAD_BLOCKS)(
    "a tool's block holding %s: an error result naming the field; getHistory() keeps working",
    async (_name, block, field) => {
      const tool = defineTool({
        name: "odd",
        inputSchema: z.object({}),
        readOnly: true,
        execute: () => ({ content: [block() as never] }),
      });
      const store = createMemoryStore();
      const agent = createAgent({
        model: MODEL,
        client: createScriptedClient([
          { content: [toolUse("c1", "odd", {})] },
          { content: "Noted." },
          { content: "Still here." },
        ]),
        tools: [tool],
        historyStore: store,
      });
      expect((await agent.prompt("Go.")).subtype).toBe("success");
      const history = await agent.getHistory();
      const [result] = toolResults([history[2]!]);
      expect(result).toMatchObject({ is_error: true });
      expect(String(result!.content)).toContain(field);
      expect((await agent.prompt("Again.")).result).toBe("Still here.");
      expectWellFormed(await agent.getHistory());
      await agent.close();
      expect(store.saved).toEqual(await agent.getHistory());
    },
  );

  it.each(BAD_BLOCKS)(
    "a prompt block holding %s: InvalidOptionError naming the field, nothing recorded",
    async (_name, block, field) => {
      const agent = createAgent({ model: MODEL, client: createScriptedClient([{ content: "Hi." }]) });
      const error = await agent.prompt([block() as never]).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect((error as Error).message).toContain(field.replace("content[0]", "prompt[0]"));
      expect(await agent.getHistory()).toEqual([]);
      expect((await agent.prompt("Hello")).result).toBe("Hi.");
    },
  );

  it("a lone surrogate: refused in a prompt, replaced by U+FFFD in a tool's output", async () => {
    const tool = defineTool({
      name: "cut",
      inputSchema: z.object({}),
      readOnly: true,
      execute: () => "half \uD83D",
    });
    const blocks = defineTool({
      name: "cut_blocks",
      inputSchema: z.object({}),
      readOnly: true,
      execute: () => ({ content: [{ type: "text" as const, text: "\uDE00 half" }] }),
    });
    const agent = createAgent({
      model: MODEL,
      client: createScriptedClient([
        { content: [toolUse("c1", "cut", {}), toolUse("c2", "cut_blocks", {})] },
        { content: "Done." },
      ]),
      tools: [tool, blocks],
    });
    for (const prompt of ["a \uD83D b", [{ type: "text" as const, text: "\uDE00" }]]) {
      const error = await agent.prompt(prompt).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect((error as Error).message).toContain("lone UTF-16 surrogate");
    }
    expect((await agent.prompt("Go.")).result).toBe("Done.");
    const results = toolResults([(await agent.getHistory())[2]!]);
    expect(results.map((result) => result.content)).toEqual([
      "half \uFFFD",
      [{ type: "text", text: "\uFFFD half" }],
    ]);
  });

  it.each<[string, unknown, string]>([
    ["null", null, "replaceHistory() takes an array of messages, got null"],
    ["[null]", [null], "replaceHistory() messages[0] is null, not a message"],
    [
      "a message without a role",
      [{ content: "hi" }],
      'messages[0] has the role undefined, not "user" or "assistant"',
    ],
    ["a system message", [{ role: "system", content: "hi" }], 'has the role "system"'],
    [
      "content that is a number",
      [{ role: "user", content: 4 }],
      "neither a string nor an array of content blocks",
    ],
    [
      "a block without a type",
      [{ role: "user", content: [{ text: "x" }] }],
      "has content[0], which is not a content block",
    ],
    [
      "a function in a block",
      [{ role: "user", content: [{ type: "text", text: "x", f: () => 1 }] }],
      "messages[0].content[0].f is a function",
    ],
  ])(
    "replaceHistory(%s): InvalidOptionError, history unchanged, the next prompt works",
    async (_name, input, message) => {
      const agent = createAgent({
        model: MODEL,
        client: createScriptedClient([{ content: "One." }, { content: "Two." }]),
      });
      await agent.prompt("First");
      const before = await agent.getHistory();
      const error = await agent.replaceHistory(input as ModelMessage[]).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect((error as Error).message).toContain(message);
      expect(await agent.getHistory()).toEqual(before);
      expect((await agent.prompt("Second")).result).toBe("Two.");
    },
  );

  it("replaceHistory keeps a plain copy: the caller's objects are not shared, undefined fields are left out", async () => {
    const agent = createAgent({ model: MODEL, client: createScriptedClient([]) });
    const given = [
      { role: "user", content: [{ type: "text", text: "hi", extra: undefined }] },
    ] as unknown as ModelMessage[];
    await agent.replaceHistory(given);
    (given[0]!.content as Array<{ text: string }>)[0]!.text = "edited";
    expect(await agent.getHistory()).toEqual([{ role: "user", content: [{ type: "text", text: "hi" }] }]);
    expect(Object.keys(((await agent.getHistory())[0]!.content as object[])[0]!)).toEqual(["type", "text"]);
  });
});
