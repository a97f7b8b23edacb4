/**
 * Approvals in a web server: one request starts a query that pauses for a person's decision, a
 * later request — possibly on another worker, hours later — approves (or denies) and resumes it.
 *
 *   npx tsx examples/approval-server.ts
 *
 * The server (node:http) has two routes:
 *   POST /conversations/:id          { "prompt": "…" }  → 202 { pending_approvals } or 200 { result }
 *   POST /conversations/:id/approvals { "<tool_use_id>": { "approved": true } | { "approved": false, "message": "…" } }
 *                                                       → 200 { result } (409 when another request won)
 * Each request builds a fresh Agent over the conversation's JSONL file, as a stateless worker would:
 * the pause lives in that file, not in memory. Without ANTHROPIC_API_KEY it runs offline against the
 * bundled mock Messages API server, and this script plays the browser: it sends the first request,
 * shows the pending call, approves it and prints the answer. In your own project, import from
 * "agent-lattice" and "agent-lattice/testing".
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { z } from "zod";
import {
  type Agent,
  ConversationConflictError,
  createAgent,
  createJsonlHistoryStore,
  defineTool,
  InvalidOptionError,
  type SDKResultMessage,
} from "../src/index";
import { type MockHandler, startMockAnthropicServer } from "../src/testing/index";

const deploy = defineTool({
  name: "deploy",
  description: "Deploy the current release to an environment",
  inputSchema: z.object({ target: z.enum(["staging", "production"]) }),
  // Production needs a person; staging does not.
  needsApproval: ({ target }) => target === "production",
  execute: ({ target }) => `Release 4.2.0 is live on ${target}.`,
});

/** The offline model: it asks to deploy to production, then reports what the tool said. */
const offlineModel: MockHandler = (body) => {
  const last = body.messages.at(-1);
  const result = Array.isArray(last?.content)
    ? last.content.find((block: { type: string }) => block.type === "tool_result")
    : undefined;
  if (!result) {
    return {
      content: [
        { type: "text", text: "Deploying to production." },
        { type: "tool_use", id: "toolu_deploy_1", name: "deploy", input: { target: "production" } },
      ],
    };
  }
  const text = typeof result.content === "string" ? result.content : JSON.stringify(result.content);
  return { content: result.is_error ? `I did not deploy: ${text}` : `Done. ${text}` };
};

/** What every request needs to build its Agent. */
interface Backend {
  sessions: string;
  /** Offline: the local mock server (any key will do). Live: ANTHROPIC_API_KEY and the real API. */
  offline?: { apiKey: string; baseURL: string };
}

/** A fresh Agent over one conversation's durable history, as any worker would build it. */
function agentFor(backend: Backend, conversation: string): Agent {
  return createAgent({
    model: process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-6",
    ...backend.offline,
    tools: [deploy],
    historyStore: createJsonlHistoryStore({ path: path.join(backend.sessions, `${conversation}.jsonl`) }),
  });
}

/** The JSON reply for a finished (or paused) query. */
function reply(result: SDKResultMessage): { status: number; body: unknown } {
  if (result.subtype === "requires_approval")
    return { status: 202, body: { status: "waiting", pending_approvals: result.pending_approvals } };
  return {
    status: 200,
    body: { status: result.subtype, result: "result" in result ? result.result : undefined },
  };
}

/** Handles one request: a prompt, or decisions for the pending calls. */
async function handle(
  backend: Backend,
  request: IncomingMessage,
): Promise<{ status: number; body: unknown }> {
  const match = /^\/conversations\/([\w-]+)(\/approvals)?$/.exec(request.url ?? "");
  if (request.method !== "POST" || !match) return { status: 404, body: { error: "not found" } };
  const [, conversation, approvals] = match as unknown as [string, string, string | undefined];
  const input = JSON.parse(await readBody(request));
  const agent = agentFor(backend, conversation);
  try {
    if (!approvals) return reply(await agent.prompt(String(input.prompt)));
    return reply(await agent.prompt({ approvals: input }));
  } catch (error) {
    if (error instanceof InvalidOptionError) return { status: 400, body: { error: error.message } };
    if (error instanceof ConversationConflictError) return { status: 409, body: { error: error.message } };
    throw error;
  } finally {
    await agent.close();
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text || "{}";
}

function send(response: ServerResponse, { status, body }: { status: number; body: unknown }): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

async function post(base: string, route: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${route}`, { method: "POST", body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

async function main(): Promise<void> {
  const live = Boolean(process.env.ANTHROPIC_API_KEY);
  const model = live ? undefined : await startMockAnthropicServer({ handler: offlineModel });
  const sessions = await mkdtemp(path.join(tmpdir(), "approval-server-"));
  const backend: Backend = {
    sessions,
    ...(model ? { offline: { apiKey: "offline", baseURL: model.url } } : {}),
  };
  const server = createServer((request, response) => {
    handle(backend, request).then(
      (answer) => send(response, answer),
      (error: unknown) => send(response, { status: 500, body: { error: String(error) } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    console.log(
      live ? "Live, against the Messages API." : `Offline, against the mock server at ${model!.url}`,
    );
    const started = await post(base, "/conversations/release-42", {
      prompt: "Deploy the release to production.",
    });
    console.log(`POST /conversations/release-42 → ${started.status} ${started.body.status}`);
    for (const call of started.body.pending_approvals ?? [])
      console.log(`  waiting: ${call.name}(${JSON.stringify(call.input)}) [${call.tool_use_id}]`);
    // … a person reads the request in a web page and clicks "Approve"; the decisions name every call.
    const decisions = Object.fromEntries(
      (started.body.pending_approvals ?? []).map((call: { tool_use_id: string }) => [
        call.tool_use_id,
        { approved: true },
      ]),
    );
    const resumed = await post(base, "/conversations/release-42/approvals", decisions);
    console.log(`POST /conversations/release-42/approvals → ${resumed.status} ${resumed.body.status}`);
    console.log(`  ${resumed.body.result}`);
    // Deciding again finds nothing pending: the store said the pause was resolved.
    const again = await post(base, "/conversations/release-42/approvals", decisions);
    console.log(`POST /conversations/release-42/approvals again → ${again.status} ${again.body.error}`);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await model?.close();
    await rm(sessions, { recursive: true, force: true });
  }
}

await main();
