/**
 * `userPromptSubmit`: rewriting a prompt (chained), blocking it (no model call, nothing added to
 * history), and failing closed when the hook throws or times out.
 */
import { describe, expect, it } from "vitest";
import { createAgent, PromptBlockedError } from "../../src/index";
import { createScriptedClient } from "../../src/testing";
import { collect, hookErrors, messageText, never, resultOf } from "./support";

describe("userPromptSubmit", () => {
  it("rewrites the prompt; each hook sees the previous rewrite; history holds the final prompt", async () => {
    const seen: unknown[] = [];
    const client = createScriptedClient([{ content: "answer" }]);
    const agent = createAgent({
      model: "m",
      client,
      hooks: {
        userPromptSubmit: [
          {
            handler: ({ prompt }) => {
              seen.push(prompt);
              return { updatedPrompt: `${prompt as string} (be brief)` };
            },
          },
          {
            handler: ({ prompt }) => {
              seen.push(prompt);
              return { updatedPrompt: [{ type: "text", text: `[ticket 7] ${prompt as string}` }] };
            },
          },
        ],
      },
    });
    const result = await agent.prompt("What is in the repo?");
    expect(result.subtype).toBe("success");
    expect(seen).toEqual(["What is in the repo?", "What is in the repo? (be brief)"]);
    const history = await agent.getHistory();
    expect(history[0]).toEqual({
      role: "user",
      content: [{ type: "text", text: "[ticket 7] What is in the repo? (be brief)" }],
    });
    expect(client.requests[0]!.messages[0]).toEqual(history[0]);
  });

  it("receives content-block prompts as blocks", async () => {
    const seen: unknown[] = [];
    const client = createScriptedClient([{ content: "ok" }]);
    const agent = createAgent({
      model: "m",
      client,
      hooks: { userPromptSubmit: [{ handler: ({ prompt }) => void seen.push(prompt) }] },
    });
    await agent.prompt([{ type: "text", text: "look" }]);
    expect(seen).toEqual([[{ type: "text", text: "look" }]]);
    expect((await agent.getHistory())[0]).toEqual({
      role: "user",
      content: [{ type: "text", text: "look" }],
    });
  });

  it("blocks a prompt: no model request, nothing in history, later hooks do not run", async () => {
    const later: string[] = [];
    const client = createScriptedClient([{ content: "fine" }]);
    const agent = createAgent({
      model: "m",
      client,
      hooks: {
        userPromptSubmit: [
          {
            handler: ({ prompt }) =>
              String(prompt).includes("password")
                ? { block: true, message: "Prompts may not contain secrets." }
                : {},
          },
          { handler: () => void later.push("ran") },
        ],
      },
    });
    const messages = await collect(agent.query("my password is hunter2"));
    const result = resultOf(messages);
    expect(result.subtype).toBe("error_during_execution");
    expect(result.is_error).toBe(true);
    expect(result.error).toBeInstanceOf(PromptBlockedError);
    expect(result.error!.message).toBe("Prompts may not contain secrets.");
    expect(result.num_turns).toBe(0);
    expect(client.callCount).toBe(0);
    expect(later).toEqual([]);
    expect(await agent.getHistory()).toEqual([]);

    // The agent stays usable.
    const next = await agent.prompt("hello");
    expect(next.subtype).toBe("success");
    expect(later).toEqual(["ran"]);
    expect((await agent.getHistory()).map(messageText)).toEqual(["hello", "fine"]);
  });

  it("fails closed when a hook throws: hook_error, the prompt is not sent, history untouched", async () => {
    const client = createScriptedClient([]);
    const agent = createAgent({
      model: "m",
      client,
      hooks: {
        userPromptSubmit: [
          { handler: () => ({ updatedPrompt: "rewritten" }) },
          {
            handler: () => {
              throw new Error("policy service unreachable");
            },
          },
        ],
      },
    });
    const messages = await collect(agent.query("hi"));
    const result = resultOf(messages);
    expect(result.subtype).toBe("error_during_execution");
    expect(result.error).toBeInstanceOf(PromptBlockedError);
    expect(result.error!.message).toContain("userPromptSubmit hook #2");
    expect(result.error!.message).toContain("policy service unreachable");
    expect(hookErrors(messages)).toMatchObject([{ hook: "userPromptSubmit" }]);
    expect(hookErrors(messages)[0]!.error.message).toContain("policy service unreachable");
    expect(client.callCount).toBe(0);
    expect(await agent.getHistory()).toEqual([]);
  });

  it("fails closed on an updatedPrompt that is neither a string nor content blocks: nothing malformed is sent or stored", async () => {
    for (const updatedPrompt of [42, { text: "x" }, null]) {
      const client = createScriptedClient([]);
      const agent = createAgent({
        model: "m",
        client,
        hooks: { userPromptSubmit: [{ handler: () => ({ updatedPrompt }) as never }] },
      });
      const messages = await collect(agent.query("hi"));
      const result = resultOf(messages);
      expect(result.subtype).toBe("error_during_execution");
      expect(result.error).toBeInstanceOf(PromptBlockedError);
      expect(hookErrors(messages)[0]!.error.message).toMatch(
        /userPromptSubmit hook #1 failed: .*updatedPrompt must be a non-empty string or a non-empty array of content blocks/,
      );
      expect(client.callCount).toBe(0);
      expect(await agent.getHistory()).toEqual([]);
    }
  });

  it("fails closed when a hook runs past its timeoutMs", async () => {
    const client = createScriptedClient([]);
    const agent = createAgent({
      model: "m",
      client,
      hooks: { userPromptSubmit: [{ timeoutMs: 20, handler: () => never() }] },
    });
    const messages = await collect(agent.query("hi"));
    const result = resultOf(messages);
    expect(result.subtype).toBe("error_during_execution");
    expect(result.error!.message).toMatch(/userPromptSubmit hook #1 failed: timed out after 20 ms/);
    expect(hookErrors(messages)).toHaveLength(1);
    expect(client.callCount).toBe(0);
  });
});
