import { join } from "node:path";
import type { DynamicToolUIPart, UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type Agent, createAgent, createJsonlHistoryStore, defineTool } from "../../src/index";
import { mockServerPerTest } from "../support/mock-server";
import { temporaryFolder } from "../support/temporary-folders";
import { type ChatEndpoint, post, readReply, send, serveChat, textOf, userMessage } from "./chat-test-kit";

const server = mockServerPerTest();

const deployments: string[] = [];
const deploy = defineTool({
  name: "deploy",
  description: "Deploys a service",
  inputSchema: z.object({ target: z.string() }),
  needsApproval: true,
  async execute({ target }) {
    deployments.push(target);
    return `deployed ${target}`;
  },
});

function durableAgents(folder: string) {
  return ({ conversationId }: { conversationId: string }): Agent<unknown> =>
    createAgent({
      model: "claude-test",
      apiKey: "test-key",
      baseURL: server.url,
      includePartialMessages: true,
      tools: [deploy],
      historyStore: createJsonlHistoryStore({ path: join(folder, `${conversationId}.jsonl`) }),
    });
}

/** What useChat's addToolApprovalResponse does to the message before its automatic resend. */
function respond(message: UIMessage, approved: boolean, reason?: string): UIMessage {
  const copy = structuredClone(message);
  for (const part of copy.parts) {
    if (part.type === "dynamic-tool" && part.state === "approval-requested") {
      Object.assign(part, {
        state: "approval-responded",
        approval: { id: part.approval.id, approved, reason },
      });
    }
  }
  return copy;
}

async function pauseFor(
  endpoint: ChatEndpoint,
  chatId: string,
  target: string,
): Promise<{ user: UIMessage; paused: UIMessage }> {
  server.enqueue({
    content: [{ type: "tool_use", id: `toolu_${chatId}`, name: "deploy", input: { target } }],
  });
  const user = userMessage(`Deploy ${target}`);
  const { message } = await send(endpoint, chatId, [user]);
  return { user, paused: message };
}

function toolPart(message: UIMessage): DynamicToolUIPart {
  return message.parts.find((part): part is DynamicToolUIPart => part.type === "dynamic-tool")!;
}

describe("approvals in the browser", () => {
  it("approve: the paused call runs and the same assistant message continues", async () => {
    const endpoint = await serveChat({ agent: durableAgents(temporaryFolder("ui-approve-")) });
    const { user, paused } = await pauseFor(endpoint, "a1", "staging");
    expect(toolPart(paused)).toMatchObject({ state: "approval-requested", approval: { id: "toolu_a1" } });
    expect(paused.metadata).toMatchObject({ end: "requires_approval" });

    server.enqueue({ content: "Staging is live." });
    const approved = respond(paused, true);
    const { chunks, message } = await send(endpoint, "a1", [user, approved], { continuing: approved });
    expect(chunks[0]).toEqual(expect.objectContaining({ type: "start", messageId: paused.id }));
    expect(message.id).toBe(paused.id);
    expect(toolPart(message)).toMatchObject({ state: "output-available", output: "deployed staging" });
    expect(textOf(message)).toBe("Staging is live.");
    expect(deployments).toContain("staging");
  });

  it("a page reconnecting while the approved call runs gets the same answer whole: the paused part, then the rest", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const heldDeploy = defineTool({
      name: "deploy",
      description: "Deploys a service",
      inputSchema: z.object({ target: z.string() }),
      needsApproval: true,
      async execute({ target }) {
        started();
        await released;
        return `deployed ${target}`;
      },
    });
    const folder = temporaryFolder("ui-approve-reconnect-");
    const endpoint = await serveChat({
      agent: ({ conversationId }) =>
        createAgent({
          model: "claude-test",
          apiKey: "test-key",
          baseURL: server.url,
          includePartialMessages: true,
          tools: [heldDeploy],
          historyStore: createJsonlHistoryStore({ path: join(folder, `${conversationId}.jsonl`) }),
        }),
    });
    server.enqueue({
      content: [
        { type: "text", text: "Deploying once you say so." },
        { type: "tool_use", id: "toolu_r1", name: "deploy", input: { target: "prod" } },
      ],
    });
    const user = userMessage("Deploy prod");
    const { message: paused } = await send(endpoint, "ar1", [user]);
    server.enqueue({ content: "Prod is live." });
    const approved = respond(paused, true);
    const approving = send(endpoint, "ar1", [user, approved], { continuing: approved });
    await running;

    // The page reloads: the history route leaves the continued answer to the stream …
    const page = (await (await fetch(`${endpoint.api}/ar1/messages`)).json()) as { messages: UIMessage[] };
    expect(page.messages.map((message) => message.role)).toEqual(["user"]);
    // … and the reconnect rebuilds it, its call running (no second approval request), then follows the run.
    const reconnected = await endpoint.transport.reconnectToStream({ chatId: "ar1" });
    release();
    const { chunks, message, errors } = await readReply(reconnected!);
    expect(errors).toEqual([]);
    expect(chunks.filter((chunk) => chunk.type === "start")).toHaveLength(1);
    expect(chunks.some((chunk) => chunk.type === "tool-approval-request")).toBe(false);
    expect(message.id).toBe(paused.id);
    expect(textOf(message)).toBe("Deploying once you say so.Prod is live.");
    expect(message.parts.filter((part) => part.type === "dynamic-tool")).toHaveLength(1);
    expect(toolPart(message)).toMatchObject({ state: "output-available", output: "deployed prod" });
    // The page that sent the approval got the continuation only (it holds the paused part already).
    const sender = await approving;
    expect(sender.chunks.some((chunk) => chunk.type === "tool-input-available")).toBe(false);
    expect(textOf(sender.message)).toBe("Deploying once you say so.Prod is live.");
  });

  it("deny: the call is output-denied and the model reads the reason", async () => {
    const endpoint = await serveChat({ agent: durableAgents(temporaryFolder("ui-deny-")) });
    const { user, paused } = await pauseFor(endpoint, "a2", "production");
    server.enqueue({ content: "Understood, not deploying." });
    const denied = respond(paused, false, "Not on a Friday");
    const { chunks, message } = await send(endpoint, "a2", [user, denied], { continuing: denied });
    expect(chunks).toContainEqual({ type: "tool-output-denied", toolCallId: "toolu_a2" });
    expect(toolPart(message).state).toBe("output-denied");
    const result = JSON.stringify(server.requests.at(-1)!.body.messages.at(-1));
    expect(result).toContain("tool_result");
    expect(result).toContain("Not on a Friday");
    expect(deployments).not.toContain("production");
  });

  it("refuses an approval for an unknown call or a call of another conversation", async () => {
    const endpoint = await serveChat({ agent: durableAgents(temporaryFolder("ui-forged-")) });
    const first = await pauseFor(endpoint, "a3", "one");
    const second = await pauseFor(endpoint, "a4", "two");
    const forged = respond(first.paused, true);
    toolPart(forged).toolCallId = "toolu_made_up";
    (toolPart(forged) as { approval: { id: string } }).approval.id = "toolu_made_up";
    const unknown = await post(endpoint, {
      id: "a3",
      messages: [first.user, forged],
      trigger: "submit-message",
    });
    expect(unknown.status).toBe(409);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("unknown_approval");
    // a4's call, approved through conversation a3.
    const crossed = await post(endpoint, { id: "a3", messages: [second.user, respond(second.paused, true)] });
    expect(crossed.status).toBe(409);
    expect(deployments).not.toContain("one");
    expect(deployments).not.toContain("two");
  });

  it("the pause survives a server restart: approve after it", async () => {
    const folder = temporaryFolder("ui-restart-approve-");
    const before = await serveChat({ agent: durableAgents(folder) });
    const { user, paused } = await pauseFor(before, "a5", "canary");
    await before.close();

    const after = await serveChat({ agent: durableAgents(folder) });
    const history = (await (await fetch(`${after.api}/a5/messages`)).json()) as { messages: UIMessage[] };
    expect(toolPart(history.messages[1]!)).toMatchObject({
      state: "approval-requested",
      approval: { id: "toolu_a5" },
    });
    server.enqueue({ content: "Canary deployed after the restart." });
    const { message } = await send(after, "a5", [user, respond(paused, true)], {
      continuing: respond(paused, true),
    });
    expect(toolPart(message)).toMatchObject({ state: "output-available", output: "deployed canary" });
    expect(textOf(message)).toBe("Canary deployed after the restart.");
  });
});
