/**
 * Overrides a hook returns that history cannot hold — a `continueWith` or `updatedPrompt` that is not
 * text, a `postToolUse` output whose content is neither text nor blocks — count as that hook's
 * failure: they never enter history, where every later request would be refused by the API.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, defineTool, PromptBlockedError, type ToolOutput } from "../../src/index";
import { createScriptedClient } from "../../src/testing";
import {
  collect,
  hookErrors,
  messageText,
  resultFor,
  resultOf,
  textOf,
  toolUse,
  workshopTools,
} from "./support";

describe("a stop hook's continueWith that is not a string", () => {
  it.each([[true], [42], [{ text: "more" }], [["more"]]])(
    "%j: reported as a hook failure, never added to history",
    async (continueWith) => {
      const client = createScriptedClient([{ content: "first" }, { content: "second" }]);
      const agent = createAgent({
        model: "m",
        client,
        hooks: { stop: [{ handler: () => ({ continueWith: continueWith as unknown as string }) }] },
      });
      const messages = await collect(agent.query("go"));
      const result = resultOf(messages);
      expect(result.subtype).toBe("success");
      expect(result.result).toBe("first");
      expect(client.callCount).toBe(1);
      const errors = hookErrors(messages);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.error.message).toMatch(/^stop hook #1 failed: continueWith must be a string/);
      expect((await agent.getHistory()).map((message) => message.content)).toEqual([
        "go",
        [{ type: "text", text: "first" }],
      ]);
    },
  );
});

describe("a userPromptSubmit hook's updatedPrompt that is not a prompt", () => {
  it.each([[42], [""], [[]], [{ text: "hi" }], [[{ text: "no type" }]], [[null]]])(
    "%j: fails closed, nothing sent or recorded",
    async (updatedPrompt) => {
      const client = createScriptedClient([{ content: "answer" }]);
      const agent = createAgent({
        model: "m",
        client,
        hooks: {
          userPromptSubmit: [{ handler: () => ({ updatedPrompt: updatedPrompt as unknown as string }) }],
        },
      });
      const messages = await collect(agent.query("hello"));
      const result = resultOf(messages);
      expect(result.subtype).toBe("error_during_execution");
      expect(result.error).toBeInstanceOf(PromptBlockedError);
      expect(result.error?.message).toMatch(
        /^userPromptSubmit hook #1 failed: updatedPrompt must be a non-empty string or a non-empty array of content blocks/,
      );
      expect(hookErrors(messages)).toHaveLength(1);
      expect(client.callCount).toBe(0);
      expect(await agent.getHistory()).toEqual([]);
    },
  );

  it("a valid updatedPrompt of content blocks is still used", async () => {
    const client = createScriptedClient([{ content: "answer" }]);
    const agent = createAgent({
      model: "m",
      client,
      hooks: {
        userPromptSubmit: [{ handler: () => ({ updatedPrompt: [{ type: "text", text: "rewritten" }] }) }],
      },
    });
    expect((await agent.prompt("hello")).subtype).toBe("success");
    expect(messageText((await agent.getHistory())[0])).toBe("rewritten");
  });
});

describe("a postToolUse hook's updatedOutput with malformed content", () => {
  it.each([
    ["content 42", { content: 42 }],
    ["content undefined", { content: undefined }],
    ["a text block without text", { content: [{ type: "text" }] }],
    ["a null block", { content: [null] }],
    ["an image block without a source", { content: [{ type: "image" }] }],
  ])("%s: the output is withheld as for a failing hook", async (_label, updatedOutput) => {
    const { tools } = workshopTools();
    const client = createScriptedClient([
      { content: [toolUse("c1", "read_file", { path: "a" })] },
      { content: "went on" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: {
        postToolUse: [{ handler: () => ({ updatedOutput: updatedOutput as unknown as ToolOutput }) }],
      },
    });
    const messages = await collect(agent.query("go"));
    expect(resultOf(messages).subtype).toBe("success");
    expect(hookErrors(messages)).toHaveLength(1);
    const block = resultFor(await agent.getHistory(), "c1");
    expect(block.is_error).toBe(true);
    expect(textOf(block)).toMatch(
      /^postToolUse hook #1 failed: updatedOutput content must be a string or an array of text and image blocks.*The tool did run, but its output was withheld/,
    );
  });
});

describe("a tool returning malformed content", () => {
  function agentReturning(output: unknown) {
    const tool = defineTool({
      name: "odd",
      inputSchema: z.object({}),
      execute: () => output as ToolOutput,
    });
    const client = createScriptedClient([{ content: [toolUse("c1", "odd")] }, { content: "went on" }]);
    return createAgent({ model: "m", client, tools: [tool] });
  }

  it.each([
    ["content 42", { content: 42 }],
    ["a text block without text", { content: [{ type: "text" }] }],
    ["an unknown block", { content: [{ type: "video", url: "x" }] }],
  ])("%s: an error result instead of a block the API would refuse", async (_label, output) => {
    const agent = agentReturning(output);
    expect((await agent.prompt("go")).subtype).toBe("success");
    const block = resultFor(await agent.getHistory(), "c1");
    expect(block).toEqual({
      type: "tool_result",
      tool_use_id: "c1",
      is_error: true,
      content: expect.stringMatching(
        /^The tool returned content that is neither a string nor an array of text and image blocks/,
      ),
    });
  });

  it("drops empty text blocks, which the API refuses", async () => {
    const agent = agentReturning({
      content: [
        { type: "text", text: "" },
        { type: "text", text: "kept" },
      ],
    });
    await agent.prompt("go");
    expect(resultFor(await agent.getHistory(), "c1").content).toEqual([{ type: "text", text: "kept" }]);
  });
});

describe("refusal messages that are not text", () => {
  it.each([
    ["an empty string", ""],
    ["a number", 42],
  ])("a preToolUse block with %s as message uses the default message", async (_label, message) => {
    const { tools } = workshopTools();
    const client = createScriptedClient([
      { content: [toolUse("c1", "read_file", { path: "a" })] },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: { preToolUse: [{ handler: () => ({ block: true, message: message as string }) }] },
    });
    const result = await agent.prompt("go");
    expect(result.permission_denials[0]?.message).toBe('A preToolUse hook blocked "read_file".');
    expect(textOf(resultFor(await agent.getHistory(), "c1"))).toBe(
      'Permission denied: A preToolUse hook blocked "read_file".',
    );
  });

  it("a canUseTool deny with an object as message uses the default message", async () => {
    const { tools } = workshopTools();
    const client = createScriptedClient([
      { content: [toolUse("c1", "write_file", { path: "a", text: "t" })] },
      { content: "ok" },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      canUseTool: () => ({ behavior: "deny", message: { reason: "no" } as unknown as string }),
    });
    const result = await agent.prompt("go");
    expect(result.permission_denials[0]?.message).toBe('canUseTool refused "write_file".');
  });
});

describe("an onModelRequest replacement that is not a request", () => {
  it.each([
    ["a string", "x"],
    ["no messages", {}],
    ["messages that are not an array", { messages: "hi", model: "m", maxTokens: 10 }],
    ["no model", { messages: [{ role: "user", content: "hi" }], maxTokens: 10 }],
  ])("%s: fails closed as a hook failure naming what is wrong; nothing is sent", async (_label, request) => {
    const client = createScriptedClient([{ content: "answer" }]);
    const agent = createAgent({
      model: "m",
      client,
      hooks: {
        onModelRequest: [{ handler: () => ({ request: request as never }) }],
      },
    });
    const result = await agent.prompt("hi");
    expect(result.subtype).toBe("error_during_execution");
    expect(result.error?.name).toBe("HookFailure");
    expect(result.error?.message).toMatch(
      /^onModelRequest hook #1 failed: the replacement request needs a model id, a messages array and maxTokens/,
    );
    expect(client.callCount).toBe(0);
  });
});
