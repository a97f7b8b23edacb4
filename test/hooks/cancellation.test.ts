/**
 * The query's signal and `interrupt()` bound the hooks that run outside a tool call too:
 * `userPromptSubmit`, `stop` and `preCompact`. A hook still running when the query is cancelled is
 * abandoned at once (not waited for up to its timeout), and the query ends as cancelled — never
 * `success`, never a `hook_error`.
 */
import { describe, expect, it } from "vitest";
import { createAgent, type SDKMessage } from "../../src/index";
import { createScriptedClient } from "../../src/testing";
import { collect, hookErrors, resultOf, toolUse, workshopTools } from "./support";

/** A hook handler that calls `started` and then never settles. */
function stuckHook(started: () => void) {
  return () => {
    started();
    return new Promise<never>(() => {});
  };
}

/** Runs `agent.query(prompt)`, cancelling it (abort or interrupt) once the stuck hook has started. */
async function cancelDuringHook(
  how: "abort" | "interrupt",
  build: (started: () => void) => ReturnType<typeof createAgent>,
): Promise<{ messages: SDKMessage[]; agent: ReturnType<typeof createAgent> }> {
  const controller = new AbortController();
  let agent!: ReturnType<typeof createAgent>;
  // Once the hook has returned its promise: the query is then waiting on a hook that never settles.
  const started = () =>
    queueMicrotask(() => (how === "abort" ? controller.abort(new Error("user left")) : agent.interrupt()));
  agent = build(started);
  const messages = await collect(agent.query("go", { signal: controller.signal }));
  return { messages, agent };
}

const SUBTYPE = { abort: "error_abort", interrupt: "interrupted" } as const;

describe.each(["abort", "interrupt"] as const)("%s while a hook runs", (how) => {
  it("userPromptSubmit: the query ends at once and records nothing", async () => {
    const client = createScriptedClient([]);
    const { messages, agent } = await cancelDuringHook(how, (started) =>
      createAgent({
        model: "m",
        client,
        hooks: { userPromptSubmit: [{ handler: stuckHook(started), timeoutMs: 60_000 }] },
      }),
    );
    expect(resultOf(messages).subtype).toBe(SUBTYPE[how]);
    expect(hookErrors(messages)).toEqual([]);
    expect(client.callCount).toBe(0);
    expect(await agent.getHistory()).toEqual([]);
  });

  it("stop: the query ends cancelled, not success, and the answer stays in history", async () => {
    const client = createScriptedClient([{ content: "All done." }]);
    const { messages, agent } = await cancelDuringHook(how, (started) =>
      createAgent({
        model: "m",
        client,
        hooks: { stop: [{ handler: stuckHook(started), timeoutMs: 60_000 }] },
      }),
    );
    const result = resultOf(messages);
    expect(result.subtype).toBe(SUBTYPE[how]);
    expect(result.result).toBe("All done.");
    expect(hookErrors(messages)).toEqual([]);
    expect(await agent.getHistory()).toEqual([
      { role: "user", content: "go" },
      expect.objectContaining({ role: "assistant" }),
    ]);
  });

  it("preCompact: no summary request is made and history is left as it was", async () => {
    const { tools } = workshopTools();
    const client = createScriptedClient([
      {
        content: [toolUse("c1", "read_file", { path: "a" })],
        usage: { input_tokens: 5_000, output_tokens: 10 },
      },
    ]);
    const { messages, agent } = await cancelDuringHook(how, (started) =>
      createAgent({
        model: "m",
        client,
        tools,
        autoCompact: { thresholdTokens: 1_000, keepRecentMessages: 2 },
        hooks: { preCompact: [{ handler: stuckHook(started), timeoutMs: 60_000 }] },
      }),
    );
    expect(resultOf(messages).subtype).toBe(SUBTYPE[how]);
    expect(hookErrors(messages)).toEqual([]);
    expect(client.callCount).toBe(1);
    expect((await agent.getHistory()).map((message) => message.role)).toEqual(["user", "assistant", "user"]);
  });
});

describe("a cancellation after the final response, with no stop hook to abandon", () => {
  it.each(["abort", "interrupt"] as const)("%s: the finished answer stays a success", async (how) => {
    const client = createScriptedClient([{ content: "The final answer." }]);
    const agent = createAgent({ model: "m", client });
    const controller = new AbortController();

    const messages: SDKMessage[] = [];
    for await (const message of agent.query("go", { signal: controller.signal })) {
      messages.push(message);
      if (message.type === "assistant") {
        if (how === "abort") controller.abort(new Error("too late"));
        else agent.interrupt();
      }
    }

    const result = resultOf(messages);
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("The final answer.");
  });
});
