/**
 * An agent using an OAuth-protected MCP server: the server answers 401, the client discovers its
 * authorization server, registers itself, sends the person to authorize (PKCE, `resource`), takes
 * the code on its loopback listener, and calls the tool with the access token.
 *
 *   npx tsx examples/mcp-oauth.ts
 *
 * The script starts both servers on 127.0.0.1: a minimal authorization server (metadata, dynamic
 * registration, an authorization endpoint that approves at once, a token endpoint checking PKCE)
 * and an MCP server serving one tool through `createMcpServer`, wanting a token it issued. The
 * `redirect` callback plays the person's browser; in a CLI you would print the URL or open a
 * browser. Then the same server as a server app meets it (`redirect: "pause"`): the query pauses
 * `requires_input` with the authorization URL, the app's callback route (here a plain function)
 * finishes it with `finishMcpAuthorization`, and another agent — another request — continues.
 * Without ANTHROPIC_API_KEY the model is the bundled mock server (offline). In your own project,
 * import from "agent-lattice", "agent-lattice/mcp" and "agent-lattice/testing".
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { createAgent, createJsonlHistoryStore, defineTool } from "../src/index";
import {
  createMcpServer,
  createMcpTokenStore,
  finishMcpAuthorization,
  type McpServerConfig,
} from "../src/integrations/mcp/index";
import { type MockHandler, startMockAnthropicServer } from "../src/testing/index";

const lookUpInvoice = defineTool({
  name: "look_up_invoice",
  description: "The status of an invoice by number",
  inputSchema: z.object({ number: z.string() }),
  readOnly: true,
  execute: ({ number }) => `Invoice ${number}: paid on 2026-11-30`,
});

/** An authorization server and a protected MCP server on one origin. */
async function startProtectedServer(): Promise<{ url: string; close: () => void }> {
  const served = createMcpServer([lookUpInvoice], { name: "billing" });
  const codes = new Map<string, string>(); // code → PKCE challenge
  const tokens = new Set<string>();
  const send = (response: ServerResponse, status: number, body: unknown, headers = {}) =>
    response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
  let origin = "";
  const server = createServer(async (request: IncomingMessage, response) => {
    const url = new URL(request.url ?? "/", origin);
    let body = "";
    for await (const chunk of request) body += chunk;
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
      return send(response, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    }
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      return send(response, 200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    }
    if (url.pathname === "/register") {
      return send(response, 201, {
        ...JSON.parse(body),
        client_id: `client-${randomBytes(4).toString("hex")}`,
      });
    }
    if (url.pathname === "/authorize") {
      const code = randomBytes(12).toString("hex");
      codes.set(code, url.searchParams.get("code_challenge") ?? "");
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      return void response.writeHead(302, { location: back.toString() }).end();
    }
    if (url.pathname === "/token") {
      const form = new URLSearchParams(body);
      const verifier = createHash("sha256")
        .update(form.get("code_verifier") ?? "")
        .digest("base64url");
      if (codes.get(form.get("code") ?? "") !== verifier)
        return send(response, 400, { error: "invalid_grant" });
      const token = randomBytes(16).toString("hex");
      tokens.add(token);
      return send(response, 200, { access_token: token, token_type: "Bearer", expires_in: 3600 });
    }
    if (!tokens.has(request.headers.authorization?.replace("Bearer ", "") ?? "")) {
      const challenge = `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
      return send(response, 401, { error: "invalid_token" }, { "www-authenticate": challenge });
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const sdkServer = served.createSdkServer();
    response.on("close", () => void sdkServer.close());
    await sdkServer.connect(transport);
    await transport.handleRequest(request, response, body ? JSON.parse(body) : undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${origin}/mcp`, close: () => server.close() };
}

/** The offline stand-in for a model: it looks the invoice up, then answers from the result. */
const offlineModel: MockHandler = (body) => {
  const last = body.messages.at(-1);
  const result = Array.isArray(last?.content)
    ? last.content.find((block: { type: string }) => block.type === "tool_result")
    : undefined;
  if (!result) {
    const input = { number: "INV-42" };
    return {
      content: [{ type: "tool_use", id: "toolu_invoice", name: "mcp__billing__look_up_invoice", input }],
    };
  }
  return { content: `Here is what billing says: ${JSON.stringify(result.content)}` };
};

async function main(): Promise<void> {
  const billing = await startProtectedServer();
  const live = Boolean(process.env.ANTHROPIC_API_KEY);
  const model = live ? undefined : await startMockAnthropicServer({ handler: offlineModel });
  console.log(live ? "Using the real API." : `Offline, against the mock server at ${model!.url}.`);
  const agent = createAgent({
    model: process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-6",
    ...(model ? { apiKey: "offline", baseURL: model.url } : {}),
    mcpServers: {
      billing: {
        type: "http",
        url: billing.url,
        auth: {
          // The person's browser: open the URL, follow the redirect to the client's listener.
          redirect: async (authorizationUrl) => {
            console.log(`Authorize at ${authorizationUrl.origin}${authorizationUrl.pathname} …`);
            const approval = await fetch(authorizationUrl, { redirect: "manual" });
            await (await fetch(approval.headers.get("location") ?? "")).text();
          },
        },
      },
    },
  });
  try {
    const result = await agent.prompt("Is invoice INV-42 paid?");
    console.log(result.result);
    await serverApp(billing.url, model ? { apiKey: "offline", baseURL: model.url } : {});
  } finally {
    await agent.close();
    await model?.close();
    billing.close();
  }
}

/** A server app: nothing listens; the query pauses and the app's callback route finishes it. */
async function serverApp(url: string, connection: { apiKey?: string; baseURL?: string }): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "mcp-oauth-app-"));
  // Shared by every process of the app: the history and the token store.
  const tokenStore = createMcpTokenStore({ path: join(folder, "mcp-tokens.json") });
  const mcpServers: Record<string, McpServerConfig> = {
    billing: {
      type: "http",
      url,
      auth: { redirect: "pause", redirectUri: "https://app.example.com/oauth/callback", tokenStore },
    },
  };
  try {
    const agentForRequest = () =>
      createAgent({
        model: process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-6",
        ...connection,
        historyStore: createJsonlHistoryStore({ path: join(folder, "chat.jsonl") }),
        mcpServers,
      });
    // Request 1: the chat message. The query pauses before the model, with the authorization URL.
    const first = agentForRequest();
    const paused = await first.prompt("Is invoice INV-42 paid?").finally(() => first.close());
    const [authorization] = paused.pending_inputs ?? [];
    console.log(`Paused: ${paused.subtype}, ${authorization?.kind} of "${authorization?.server}".`);
    // The person opens the URL; the authorization server sends the browser to the app's callback.
    const approval = await fetch(authorization?.url ?? "", { redirect: "manual" });
    const callbackUrl = approval.headers.get("location") ?? "";
    // Request 2: GET /oauth/callback — the route finishes the authorization.
    const { server } = await finishMcpAuthorization({ callbackUrl, mcpServers });
    console.log(`Callback: "${server}" authorized.`);
    // Request 3: the page answers accept; the query continues with the server's tools.
    const next = agentForRequest();
    const resumed = await next
      .prompt({ inputs: { [authorization?.id ?? ""]: { action: "accept" } } })
      .finally(() => next.close());
    console.log(`Resumed: ${resumed.result}`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
