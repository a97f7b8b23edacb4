/**
 * `stop`: runs when the loop would end, may continue it with a user message (bounded by maxTurns),
 * and its failures are reported and ignored.
 */
import { describe, expect, it } from "vitest";
import { createAgent, MaxTurnsError, type StopInput } from "../../src/index";
import { createScriptedClient } from "../../src/testing";
import { collect, hookErrors, messageText, never, resultOf, toolUse, workshopTools } from "./support";

describe("stop", () => {
  it("runs once, when the model stops calling tools, with the result so far", async () => {
    const { tools } = workshopTools();
    const seen: StopInput[] = [];
    const client = createScriptedClient([
      { content: [{ type: "text", text: "Reading." }, toolUse("c1", "read_file", { path: "a" })] },
      { content: "All done." },
    ]);
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: { stop: [{ handler: (input) => void seen.push({ ...input }) }] },
    });
    const result = await agent.prompt("go");
    expect(result.subtype).toBe("success");
    expect(seen).toEqual([{ result: "All done.", stopReason: "end_turn", numTurns: 2 }]);
  });

  it("continues the loop with its message; the first continueWith wins", async () => {
    let stops = 0;
    const client = createScriptedClient([{ content: "draft" }, { content: "draft with tests" }]);
    const agent = createAgent({
      model: "m",
      client,
      hooks: {
        stop: [
          {
            handler: ({ result }) => (result.includes("tests") ? {} : { continueWith: "Add the tests too." }),
          },
          {
            handler: () => {
              stops += 1;
            },
          },
        ],
      },
    });
    const messages = await collect(agent.query("write it"));
    const result = resultOf(messages);
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("draft with tests");
    expect(result.num_turns).toBe(2);
    // The second hook ran only when the first did not continue.
    expect(stops).toBe(1);
    expect((await agent.getHistory()).map(messageText)).toEqual([
      "write it",
      "draft",
      "Add the tests too.",
      "draft with tests",
    ]);
    expect(client.requests[1]!.messages.at(-1)).toEqual({ role: "user", content: "Add the tests too." });
    // The continuation is yielded like any other user message.
    expect(messages.filter((message) => message.type === "user")).toHaveLength(1);
  });

  it("is bounded by maxTurns: a hook that always continues ends error_max_turns", async () => {
    let calls = 0;
    const client = createScriptedClient(() => ({ content: `answer ${++calls}` }));
    const agent = createAgent({
      model: "m",
      client,
      maxTurns: 3,
      hooks: { stop: [{ handler: () => ({ continueWith: "Again." }) }] },
    });
    const result = await agent.prompt("go");
    expect(result.subtype).toBe("error_max_turns");
    expect(result.error).toBeInstanceOf(MaxTurnsError);
    expect(result.num_turns).toBe(3);
    expect(client.callCount).toBe(3);
    expect(result.result).toBe("answer 3");
  });

  it("does not run when the query ends another way (a tool's endTurn)", async () => {
    const ran: string[] = [];
    const client = createScriptedClient([{ content: [toolUse("c1", "read_file", { path: "a" })] }]);
    const { tools } = workshopTools();
    const agent = createAgent({
      model: "m",
      client,
      tools,
      hooks: {
        postToolUse: [{ handler: () => ({ updatedOutput: { content: "stop here", endTurn: true } }) }],
        stop: [{ handler: () => void ran.push("stop") }],
      },
    });
    const result = await agent.prompt("go");
    expect(result.result).toBe("stop here");
    expect(ran).toEqual([]);
  });

  it("a stop hook that throws is reported and ignored: the query ends as it would have", async () => {
    const client = createScriptedClient([{ content: "the answer" }]);
    const agent = createAgent({
      model: "m",
      client,
      hooks: {
        stop: [
          {
            handler: () => {
              throw new TypeError("bad stop hook");
            },
          },
        ],
      },
    });
    const messages = await collect(agent.query("go"));
    const result = resultOf(messages);
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("the answer");
    const errors = hookErrors(messages);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.hook).toBe("stop");
    expect(errors[0]!.error.message).toMatch(/stop hook #1 failed: bad stop hook/);
    expect(messages.indexOf(messages.find((m) => m.type === "system" && m.subtype === "hook_error")!)).toBe(
      messages.length - 2,
    );
  });

  it("a continueWith that is not a string is reported and ignored: nothing malformed enters history", async () => {
    for (const continueWith of [true, ["more"], 7]) {
      const client = createScriptedClient([{ content: "the answer" }]);
      const agent = createAgent({
        model: "m",
        client,
        hooks: { stop: [{ handler: () => ({ continueWith }) as never }] },
      });
      const messages = await collect(agent.query("go"));
      const result = resultOf(messages);
      expect(result.subtype).toBe("success");
      expect(result.result).toBe("the answer");
      expect(hookErrors(messages)[0]!.error.message).toMatch(
        /stop hook #1 failed: .*continueWith must be a string/,
      );
      expect(client.callCount).toBe(1);
      expect((await agent.getHistory()).map((message) => message.role)).toEqual(["user", "assistant"]);
    }
  });

  it("a stop hook past its timeout is reported and ignored", async () => {
    const client = createScriptedClient([{ content: "the answer" }]);
    const agent = createAgent({
      model: "m",
      client,
      hooks: { stop: [{ timeoutMs: 20, handler: () => never() }] },
    });
    const messages = await collect(agent.query("go"));
    expect(resultOf(messages).subtype).toBe("success");
    expect(hookErrors(messages).map((error) => error.error.message)).toEqual([
      "stop hook #1 failed: timed out after 20 ms",
    ]);
  });
});
