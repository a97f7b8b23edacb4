/**
 * A pause inside a subagent, over the mock Messages API server (HTTP, streaming): a child's own
 * call that needs approval pauses the parent with the flat list of calls waiting (each with
 * `parent_tool_use_id` and `agent`); approving resumes the child, which runs the call once and
 * finishes, and the parent goes on; a denial reaches the child's tool result. Calls that finished
 * before the pause are not run again; grandchildren and two children pausing in one concurrent
 * batch; a new prompt instead of decisions; mistaken decisions.
 */
import { describe, expect, it } from "vitest";
import {
  createAgent,
  defineSubagent,
  defineTool,
  InvalidOptionError,
  type ModelMessage,
  type SDKMessage,
} from "../../src/index";
import {
  collect,
  createMemoryStore,
  expectWellFormed,
  lastResult,
  MODEL,
  toolResults,
} from "../loop/support";
import { mockServerPerTest } from "../support/mock-server";
import {
  call,
  deployTool,
  httpClient,
  parentCallsOnce,
  releaser,
  releaserDeploys,
  routeBySystem,
  SYSTEM,
} from "./child-pause-support";
import { childOf, own } from "./support";

const C1 = {
  tool_use_id: "c1",
  name: "deploy",
  input: { target: "production" },
  parent_tool_use_id: "p1",
  agent: "releaser",
};

type Marker = ModelMessage & {
  pending_approvals: unknown[];
  settled_results?: Array<{ tool_use_id: string; content: unknown }>;
  suspended_calls?: Array<{
    tool_use_id: string;
    agent: string;
    pending_ids: string[];
    history?: ModelMessage[];
  }>;
};

/** A tool that records each note it is given, in `notes`. */
function noteTool(notes: string[]) {
  return defineTool({
    name: "note",
    inputSchema: { parse: (input: unknown) => input as { text: string }, jsonSchema: { type: "object" } },
    execute: ({ text }) => {
      notes.push(text);
      return `noted ${text}`;
    },
  });
}

function markerOf(history: ModelMessage[]): Marker {
  const marker = history.at(-1) as Marker;
  expect(marker.pending_approvals).toBeDefined();
  return marker;
}

describe("a pause inside a subagent", () => {
  const server = mockServerPerTest();

  it("pauses the parent on a child's call; approving runs it once, the child finishes, the parent goes on", async () => {
    const runs: string[] = [];
    server.setHandler(
      routeBySystem({ "": parentCallsOnce("releaser"), [SYSTEM.releaser]: releaserDeploys() }),
    );
    const agent = createAgent({
      model: MODEL,
      client: httpClient(server.url),
      tools: [releaser(deployTool(runs))],
    });
    const paused = await agent.prompt("Release 4.2");
    expect(paused.subtype).toBe("requires_approval");
    expect(paused.is_error).toBe(false);
    expect(paused.pending_approvals).toEqual([C1]);
    expect(paused.num_turns).toBe(1);
    expect(paused.usage.input_tokens).toBeGreaterThan(0); // the child's request counted too
    expect(await agent.getPendingApprovals()).toEqual([C1]);
    expect(runs).toEqual([]);
    const marker = markerOf(await agent.getHistory());
    expect(marker.suspended_calls).toEqual([
      { tool_use_id: "p1", agent: "releaser", pending_ids: ["c1"], history: expect.any(Array) },
    ]);
    // The child's copy is its history up to its own pause: its prompt, its call, its marker.
    expect(marker.suspended_calls![0]!.history!.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
    ]);

    const messages = await collect(agent.query({ approvals: { c1: { approved: true } } }));
    const result = lastResult(own(messages));
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("Parent saw: Child: deployed to production");
    expect(runs).toEqual(["production"]);
    expect(childOf(messages, "p1").some((message) => message.type === "result")).toBe(true);
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(history.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(toolResults(history)).toEqual([
      expect.objectContaining({ tool_use_id: "p1", content: "Child: deployed to production" }),
    ]);
    expect(await agent.getPendingApprovals()).toEqual([]);
    await agent.close();
  });

  it("a denial with a message reaches the child's tool result; the child and the parent go on", async () => {
    const runs: string[] = [];
    server.setHandler(
      routeBySystem({ "": parentCallsOnce("releaser"), [SYSTEM.releaser]: releaserDeploys() }),
    );
    const agent = createAgent({
      model: MODEL,
      client: httpClient(server.url),
      tools: [releaser(deployTool(runs))],
    });
    await agent.prompt("Release 4.2");
    const result = await agent.prompt({
      approvals: { c1: { approved: false, message: "Not on a Friday." } },
    });
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("Parent saw: Child: Permission denied: Not on a Friday.");
    expect(runs).toEqual([]);
    expectWellFormed(await agent.getHistory());
    await agent.close();
  });

  it("a call that finished before the subagent paused keeps its result and does not run again", async () => {
    const runs: string[] = [];
    const notes: string[] = [];
    const hookCalls: string[] = [];
    const note = noteTool(notes);
    server.setHandler(
      routeBySystem({
        "": (results) =>
          results.length === 0
            ? {
                content: [
                  call("p0", "note", { text: "before" }),
                  call("p1", "releaser", { prompt: "Ship" }),
                  call("p2", "note", { text: "after" }),
                ],
              }
            : { content: `Parent saw: ${results.join(" | ")}` },
        [SYSTEM.releaser]: releaserDeploys(),
      }),
    );
    const agent = createAgent({
      model: MODEL,
      client: httpClient(server.url),
      tools: [note, releaser(deployTool(runs))],
      hooks: {
        preToolUse: [{ handler: ({ toolUseId }) => void hookCalls.push(`pre ${toolUseId}`) }],
        postToolUse: [{ handler: ({ toolUseId }) => void hookCalls.push(`post ${toolUseId}`) }],
      },
    });
    const paused = await agent.prompt("Note, release, note");
    expect(paused.subtype).toBe("requires_approval");
    expect(notes).toEqual(["before"]); // the call after the subagent did not start
    const marker = markerOf(await agent.getHistory());
    expect(marker.settled_results).toEqual([
      expect.objectContaining({ tool_use_id: "p0", content: "noted before" }),
    ]);
    expect(hookCalls).toEqual(["pre p0", "post p0", "pre p1"]);
    hookCalls.length = 0;

    const result = await agent.prompt({ approvals: { c1: { approved: true } } });
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("Parent saw: noted before | Child: deployed to production | noted after");
    expect(notes).toEqual(["before", "after"]); // "before" ran once
    expect(runs).toEqual(["production"]);
    // The finished call's hooks do not run again, nor the suspended call's preToolUse; its
    // postToolUse runs once it finishes. The resumed batch clears the call not yet run first.
    expect(hookCalls).toEqual(["pre p2", "post p1", "post p2"]);
    expectWellFormed(await agent.getHistory());
    await agent.close();
  });

  it("a finished call that asked to end the turn still ends it after the resumed batch", async () => {
    const runs: string[] = [];
    let parentRequests = 0;
    const finish = defineTool({
      name: "finish",
      inputSchema: { parse: (input: unknown) => input as object, jsonSchema: { type: "object" } },
      execute: () => ({ content: "All done early.", endTurn: true }),
    });
    server.setHandler(
      routeBySystem({
        "": (results) => {
          parentRequests += 1;
          return results.length === 0
            ? { content: [call("p0", "finish", {}), call("p1", "releaser", { prompt: "Ship" })] }
            : { content: "The turn should have ended." };
        },
        [SYSTEM.releaser]: releaserDeploys(),
      }),
    );
    const agent = createAgent({
      model: MODEL,
      client: httpClient(server.url),
      tools: [finish, releaser(deployTool(runs))],
    });
    const paused = await agent.prompt("Finish, then release");
    expect(paused.subtype).toBe("requires_approval");
    expect(markerOf(await agent.getHistory())).toMatchObject({ settled_end_turn: ["p0"] });

    const result = await agent.prompt({ approvals: { c1: { approved: true } } });
    expect(runs).toEqual(["production"]);
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("All done early.");
    expect(parentRequests).toBe(1); // no request after the resumed batch
    expectWellFormed(await agent.getHistory());
    await agent.close();
  });

  it("a grandchild's call pauses the parent through two levels, and the resume goes down both", async () => {
    const runs: string[] = [];
    const planner = defineSubagent({
      name: "planner",
      description: "Plans and releases",
      systemPrompt: SYSTEM.planner,
      tools: [releaser(deployTool(runs))],
    });
    server.setHandler(
      routeBySystem({
        "": parentCallsOnce("planner"),
        [SYSTEM.planner]: (results) =>
          results.length === 0
            ? { content: [call("m1", "releaser", { prompt: "Ship it" })] }
            : { content: `Planner: ${results.at(-1)}` },
        [SYSTEM.releaser]: releaserDeploys(),
      }),
    );
    const agent = createAgent({ model: MODEL, client: httpClient(server.url), tools: [planner] });
    const paused = await agent.prompt("Plan the release");
    expect(paused.subtype).toBe("requires_approval");
    const grandchildCall = { ...C1, parent_tool_use_id: "m1" };
    expect(paused.pending_approvals).toEqual([grandchildCall]);
    const marker = markerOf(await agent.getHistory());
    expect(marker.suspended_calls).toEqual([
      expect.objectContaining({ tool_use_id: "p1", agent: "planner", pending_ids: ["c1"] }),
    ]);
    // The child's copy holds its own pause, with the grandchild's copy inside.
    const childMarker = markerOf(marker.suspended_calls![0]!.history!);
    expect(childMarker.suspended_calls).toEqual([
      expect.objectContaining({ tool_use_id: "m1", agent: "releaser", pending_ids: ["c1"] }),
    ]);
    const result = await agent.prompt({ approvals: { c1: { approved: true } } });
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("Parent saw: Planner: Child: deployed to production");
    expect(runs).toEqual(["production"]);
    expectWellFormed(await agent.getHistory());
    await agent.close();
  });

  it("two subagents of one concurrent read-only batch both pause: one flat list, each resumed", async () => {
    const runs: string[] = [];
    const checker = defineSubagent({
      name: "checker",
      description: "Checks",
      systemPrompt: SYSTEM.checker,
      readOnly: true,
      tools: [deployTool(runs)],
    });
    server.setHandler(
      routeBySystem({
        "": (results) =>
          results.length === 0
            ? { content: [call("p1", "releaser", { prompt: "a" }), call("p2", "checker", { prompt: "b" })] }
            : { content: `Parent saw: ${results.join(" | ")}` },
        [SYSTEM.releaser]: releaserDeploys("c1"),
        [SYSTEM.checker]: (results) =>
          results.length === 0
            ? { content: [call("k1", "deploy", { target: "staging" })] }
            : { content: `Checker: ${results.at(-1)}` },
      }),
    );
    const agent = createAgent({
      model: MODEL,
      client: httpClient(server.url),
      tools: [releaser(deployTool(runs), { readOnly: true }), checker],
    });
    const paused = await agent.prompt("Both");
    expect(paused.pending_approvals).toEqual([
      C1,
      {
        tool_use_id: "k1",
        name: "deploy",
        input: { target: "staging" },
        parent_tool_use_id: "p2",
        agent: "checker",
      },
    ]);
    await expect(agent.prompt({ approvals: { c1: { approved: true } } })).rejects.toThrow(InvalidOptionError);
    const result = await agent.prompt({
      approvals: { c1: { approved: true }, k1: { approved: false, message: "No staging today." } },
    });
    expect(result.subtype).toBe("success");
    expect(result.result).toBe(
      "Parent saw: Child: deployed to production | Checker: Permission denied: No staging today.",
    );
    expect(runs).toEqual(["production"]);
    expectWellFormed(await agent.getHistory());
    await agent.close();
  });

  it("children whose calls repeat one id (a provider numbering calls per response): listed apart, each decision reaches its own", async () => {
    const runs: string[] = [];
    const checker = defineSubagent({
      name: "checker",
      description: "Checks",
      systemPrompt: SYSTEM.checker,
      readOnly: true,
      tools: [deployTool(runs)],
    });
    server.setHandler(
      routeBySystem({
        "": (results) =>
          results.length === 0
            ? { content: [call("p1", "releaser", { prompt: "a" }), call("p2", "checker", { prompt: "b" })] }
            : { content: `Parent saw: ${results.join(" | ")}` },
        [SYSTEM.releaser]: releaserDeploys("call_0"),
        [SYSTEM.checker]: (results) =>
          results.length === 0
            ? { content: [call("call_0", "deploy", { target: "staging" })] }
            : { content: `Checker: ${results.at(-1)}` },
      }),
    );
    const agent = createAgent({
      model: MODEL,
      client: httpClient(server.url),
      tools: [releaser(deployTool(runs), { readOnly: true }), checker],
    });
    const paused = await agent.prompt("Both");
    const ids = (paused.pending_approvals ?? []).map((pending) => pending.tool_use_id);
    expect(ids).toEqual(["call_0", "p2/call_0"]);
    expect(await agent.getPendingApprovals()).toEqual(paused.pending_approvals);
    expect(markerOf(await agent.getHistory()).suspended_calls).toEqual([
      expect.objectContaining({ tool_use_id: "p1", pending_ids: ["call_0"] }),
      expect.objectContaining({ tool_use_id: "p2", pending_ids: ["p2/call_0"], child_ids: ["call_0"] }),
    ]);
    // Approve the releaser's deploy only: the checker's, though the model gave it the same id, is denied.
    const result = await agent.prompt({
      approvals: { call_0: { approved: true }, "p2/call_0": { approved: false, message: "Not staging." } },
    });
    expect(result.subtype).toBe("success");
    expect(result.result).toBe(
      "Parent saw: Child: deployed to production | Checker: Permission denied: Not staging.",
    );
    expect(runs).toEqual(["production"]);
    expectWellFormed(await agent.getHistory());
    await agent.close();
  });

  it("a child that asks again after its resume pauses the parent again with the new list", async () => {
    const runs: string[] = [];
    server.setHandler(
      routeBySystem({
        "": parentCallsOnce("releaser"),
        [SYSTEM.releaser]: (results) =>
          results.length === 0
            ? { content: [call("c1", "deploy", { target: "staging" })] }
            : results.length === 1
              ? { content: [call("c2", "deploy", { target: "production" })] }
              : { content: `Child: ${results.join(", ")}` },
      }),
    );
    const agent = createAgent({
      model: MODEL,
      client: httpClient(server.url),
      tools: [releaser(deployTool(runs))],
    });
    await agent.prompt("Release");
    const again = await agent.prompt({ approvals: { c1: { approved: true } } });
    expect(again.subtype).toBe("requires_approval");
    expect(again.pending_approvals).toEqual([{ ...C1, tool_use_id: "c2" }]);
    expect(runs).toEqual(["staging"]);
    const done = await agent.prompt({ approvals: { c2: { approved: true } } });
    expect(done.result).toBe("Parent saw: Child: deployed to staging, deployed to production");
    expect(runs).toEqual(["staging", "production"]);
    await agent.close();
  });

  it("a new prompt while a child's call waits: the subagent call is answered as superseded, finished calls keep their results", async () => {
    const runs: string[] = [];
    server.setHandler(
      routeBySystem({
        "": (results) =>
          results.length === 0
            ? { content: [call("p0", "releaser", { prompt: "x" })] }
            : { content: `Parent saw: ${results.join(" | ")}` },
        [SYSTEM.releaser]: releaserDeploys(),
      }),
    );
    const agent = createAgent({
      model: MODEL,
      client: httpClient(server.url),
      tools: [releaser(deployTool(runs))],
    });
    await agent.prompt("Release");
    const result = await agent.prompt("Never mind, stop.");
    expect(result.subtype).toBe("success");
    expect(runs).toEqual([]);
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(toolResults(history)).toEqual([
      expect.objectContaining({
        tool_use_id: "p0",
        is_error: true,
        content: `The subagent "releaser" did not finish: it waited for a person's approval of its own calls, and the user sent a new message instead.`,
      }),
    ]);
    expect(await agent.getPendingApprovals()).toEqual([]);
    await agent.close();
  });

  it("a new prompt after a call finished and a subagent paused in one batch: the finished result stays, the rest are denied", async () => {
    const runs: string[] = [];
    const notes: string[] = [];
    const note = noteTool(notes);
    server.setHandler(
      routeBySystem({
        "": (results) =>
          results.length === 0
            ? {
                content: [
                  call("p0", "note", { text: "before" }),
                  call("p1", "releaser", { prompt: "Ship" }),
                  call("p2", "note", { text: "after" }),
                ],
              }
            : { content: "Understood, stopping." },
        [SYSTEM.releaser]: releaserDeploys(),
      }),
    );
    const agent = createAgent({
      model: MODEL,
      client: httpClient(server.url),
      tools: [note, releaser(deployTool(runs))],
    });
    expect((await agent.prompt("Note, release, note")).subtype).toBe("requires_approval");
    const result = await agent.prompt("Never mind, stop.");
    expect(result.subtype).toBe("success");
    expect(notes).toEqual(["before"]); // ran once, before the pause; "after" never ran
    expect(runs).toEqual([]);
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(
      toolResults(history).map((block) => [block.tool_use_id, block.is_error === true, block.content]),
    ).toEqual([
      ["p0", false, "noted before"],
      [
        "p1",
        true,
        `The subagent "releaser" did not finish: it waited for a person's approval of its own calls, and the user sent a new message instead.`,
      ],
      [
        "p2",
        true,
        `The call to "note" was not run: it waited for approval, and the user sent a new message instead.`,
      ],
    ]);
    expect(await agent.getPendingApprovals()).toEqual([]);
    await agent.close();
  });

  it("decisions that do not match the flat list are refused, nothing changed", async () => {
    const runs: string[] = [];
    server.setHandler(
      routeBySystem({ "": parentCallsOnce("releaser"), [SYSTEM.releaser]: releaserDeploys() }),
    );
    const agent = createAgent({
      model: MODEL,
      client: httpClient(server.url),
      tools: [releaser(deployTool(runs))],
    });
    await agent.prompt("Release");
    const before = await agent.getHistory();
    // The subagent call itself is not pending: its child's call is.
    await expect(agent.prompt({ approvals: { p1: { approved: true } } })).rejects.toThrow(InvalidOptionError);
    await expect(agent.prompt({ approvals: {} })).rejects.toThrow(/no decision for "c1"/);
    await expect(
      agent.prompt({ approvals: { c1: { approved: true }, c9: { approved: true } } }),
    ).rejects.toThrow(/a decision for an id that is not pending \(the pending calls: "c1"\)/);
    expect(await agent.getHistory()).toEqual(before);
    expect(runs).toEqual([]);
    await agent.close();
  });

  it("keeps the parent's secrets out of the stored child copy", async () => {
    const secret = "sk-parent-secret-abcdefghijklmnop";
    const runs: string[] = [];
    const leaky = defineTool({
      name: "inspect",
      inputSchema: { parse: (input: unknown) => input, jsonSchema: { type: "object" } },
      execute: () => `the key is ${secret}`,
    });
    const child = defineSubagent({
      name: "releaser",
      description: "Releases",
      systemPrompt: SYSTEM.releaser,
      tools: [leaky, deployTool(runs)],
    });
    server.setHandler(
      routeBySystem({
        "": parentCallsOnce("releaser"),
        [SYSTEM.releaser]: (results) =>
          results.length === 0
            ? { content: [call("i1", "inspect", {})] }
            : results.length === 1
              ? { content: [call("c1", "deploy", { target: "production" })] }
              : { content: "Child done." },
      }),
    );
    const agent = createAgent({ model: MODEL, apiKey: secret, baseURL: server.url, tools: [child] });
    const messages: SDKMessage[] = await collect(agent.query("Release"));
    expect(lastResult(own(messages)).subtype).toBe("requires_approval");
    const stored = JSON.stringify(await agent.getHistory());
    expect(stored).toContain("the key is [redacted]");
    expect(stored).not.toContain(secret);
    await agent.close();
  });

  it("streamInput() resumes a pause inside a subagent too", async () => {
    const runs: string[] = [];
    server.setHandler(
      routeBySystem({ "": parentCallsOnce("releaser"), [SYSTEM.releaser]: releaserDeploys() }),
    );
    const agent = createAgent({
      model: MODEL,
      client: httpClient(server.url),
      tools: [releaser(deployTool(runs))],
    });
    await agent.prompt("Release");
    const messages = await collect(agent.streamInput([{ approvals: { c1: { approved: true } } }]));
    expect(lastResult(own(messages)).result).toBe("Parent saw: Child: deployed to production");
    expect(runs).toEqual(["production"]);
    await agent.close();
  });

  it("resumed by an Agent whose tool of that name is no subagent: the call gets an error result, nothing runs", async () => {
    const runs: string[] = [];
    const store = createMemoryStore();
    server.setHandler(
      routeBySystem({ "": parentCallsOnce("releaser"), [SYSTEM.releaser]: releaserDeploys() }),
    );
    const first = createAgent({
      model: MODEL,
      client: httpClient(server.url),
      tools: [releaser(deployTool(runs))],
      historyStore: store,
    });
    await first.prompt("Release");
    await first.close();
    const impostor = defineTool({
      name: "releaser",
      inputSchema: { parse: (input: unknown) => input, jsonSchema: { type: "object" } },
      execute: () => {
        runs.push("impostor");
        return "ran";
      },
    });
    const second = createAgent({
      model: MODEL,
      client: httpClient(server.url),
      tools: [impostor],
      historyStore: store,
    });
    const result = await second.prompt({ approvals: { c1: { approved: true } } });
    expect(result.subtype).toBe("success");
    expect(runs).toEqual([]);
    const history = await second.getHistory();
    expectWellFormed(history);
    expect(toolResults(history)).toEqual([
      expect.objectContaining({
        tool_use_id: "p1",
        is_error: true,
        content: expect.stringContaining("could not be resumed"),
      }),
    ]);
    await second.close();
  });
});
