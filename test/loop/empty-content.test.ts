/**
 * The Messages API refuses a message with empty content anywhere but as the final assistant
 * message ("all messages must have non-empty content …"), and a history holding one would be
 * refused on every later request. So no empty message enters history: an empty prompt is a
 * caller's mistake (it throws), and an empty response is not recorded.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  defineTool,
  InvalidOptionError,
  type ModelMessage,
  PromptBlockedError,
  type ToolOutput,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { collect, expectWellFormed, kinds, lastResult, MODEL, toolResults, toolUse } from "./support";

/** Whether a message has content the API accepts: a non-blank string, or blocks none of which is blank text. */
function hasContent(message: ModelMessage): boolean {
  if (typeof message.content === "string") return message.content.trim() !== "";
  return (
    message.content.length > 0 &&
    message.content.every((block) => block.type !== "text" || block.text.trim() !== "")
  );
}

const lookup = defineTool({
  name: "lookup",
  inputSchema: z.object({}),
  readOnly: true,
  execute: () => "found it",
});

describe("an empty prompt", () => {
  it.each([
    ["an empty string", ""],
    ["a blank string", "  \n"],
    ["no blocks", []],
    ["a blank text block", [{ type: "text" as const, text: "" }]],
  ])("is refused with InvalidOptionError before anything is recorded: %s", async (_name, input) => {
    const client = createScriptedClient([{ content: "Hello." }]);
    const agent = createAgent({ model: MODEL, client });

    await expect(agent.prompt(input)).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(collect(agent.query(input))).rejects.toBeInstanceOf(InvalidOptionError);

    expect(client.callCount).toBe(0);
    expect(await agent.getHistory()).toEqual([]);
    // The guard was released and the conversation is intact.
    expect((await agent.prompt("Hi")).result).toBe("Hello.");
  });

  it("is refused with InvalidOptionError when it is not text or content blocks", async () => {
    const client = createScriptedClient([]);
    const agent = createAgent({ model: MODEL, client });
    for (const input of [undefined, null, 42, { text: "hi" }, ["hi"]]) {
      const error = await agent.prompt(input as never).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect((error as Error).message).toMatch(/prompt/);
    }
    expect(await agent.getHistory()).toEqual([]);
  });
});

describe("a prompt a userPromptSubmit hook empties", () => {
  it("is not sent: the query ends error_during_execution with a PromptBlockedError", async () => {
    const client = createScriptedClient([]);
    const agent = createAgent({
      model: MODEL,
      client,
      hooks: { userPromptSubmit: [{ handler: () => ({ updatedPrompt: " " }) }] },
    });

    const result = await agent.prompt("Tell me a secret.");

    expect(result.subtype).toBe("error_during_execution");
    expect(result.error).toBeInstanceOf(PromptBlockedError);
    expect(result.error!.message).toContain("updatedPrompt");
    expect(client.callCount).toBe(0);
    expect(await agent.getHistory()).toEqual([]);
  });
});

describe("an empty response", () => {
  it("ends the query but is not recorded, so the next prompt is not refused", async () => {
    const client = createScriptedClient([
      { content: [toolUse("t1", "lookup")] },
      { content: [] }, // the model had nothing to add after the tool result
      { content: "Here is the answer." },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [lookup] });

    const messages = await collect(agent.query("Look it up."));
    const result = lastResult(messages);
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("");
    expect(result.num_turns).toBe(2);
    // The yielded assistant and user messages are what entered history.
    expect(kinds(messages)).toEqual(["system:init", "assistant", "user", "result:success"]);

    const followUp = await agent.prompt("And?");
    expect(followUp.result).toBe("Here is the answer.");
    expect(client.requests[2]!.messages.every(hasContent)).toBe(true);
    const history = await agent.getHistory();
    expect(history.every(hasContent)).toBe(true);
    expectWellFormed(history);
  });

  it("drops blank text blocks from a recorded response, and does not record one holding nothing else", async () => {
    const client = createScriptedClient([
      // Blank text beside a tool call (some models open a turn with a newline).
      { content: [{ type: "text", text: "" }, { type: "text", text: "\n\n" }, toolUse("t1", "lookup")] },
      { content: [{ type: "text", text: " " }] },
      { content: "Here is the answer." },
    ]);
    const agent = createAgent({ model: MODEL, client, tools: [lookup] });

    const messages = await collect(agent.query("Look it up."));
    expect(lastResult(messages).subtype).toBe("success");
    const assistant = messages.find((message) => message.type === "assistant");
    expect(assistant?.type === "assistant" && assistant.message.content).toEqual([toolUse("t1", "lookup")]);

    await agent.prompt("And?");
    expect(client.requests[2]!.messages.every(hasContent)).toBe(true);
    expectWellFormed(await agent.getHistory());
  });
});

describe("a tool result without content", () => {
  it("never holds a blank text block, and an error result always says something", async () => {
    const pixel = {
      type: "image" as const,
      source: { type: "url" as const, url: "https://example.com/a.png" },
    };
    const outputs: Record<string, ToolOutput> = {
      silent_failure: { content: "", isError: true },
      blank_failure: { content: [{ type: "text", text: " " }], isError: true },
      picture: { content: [{ type: "text", text: "" }, pixel] },
    };
    const tools = Object.entries(outputs).map(([name, output]) =>
      defineTool({ name, inputSchema: z.object({}), readOnly: true, execute: () => output }),
    );
    const client = createScriptedClient([
      { content: Object.keys(outputs).map((name, index) => toolUse(`t${index}`, name)) },
      { content: "Done." },
    ]);
    const agent = createAgent({ model: MODEL, client, tools });

    await agent.prompt("Run them.");

    const [silent, blank, picture] = toolResults(await agent.getHistory());
    expect(silent).toMatchObject({
      is_error: true,
      content: 'The tool "silent_failure" reported an error without a message.',
    });
    expect(blank).toMatchObject({
      is_error: true,
      content: 'The tool "blank_failure" reported an error without a message.',
    });
    expect(picture!.content).toEqual([pixel]);
    expect(client.requests[1]!.messages.every(hasContent)).toBe(true);
  });
});
