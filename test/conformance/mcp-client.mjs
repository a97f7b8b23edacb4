#!/usr/bin/env node
/**
 * The client the MCP conformance suite (`@modelcontextprotocol/conformance`, client mode) runs for
 * each scenario: `node mcp-client.mjs <agent|connect> <server-url>`, the scenario named by
 * MCP_CONFORMANCE_SCENARIO and its data in MCP_CONFORMANCE_CONTEXT. It uses only the built
 * package's public API, as a user would:
 *
 * - `agent`: `createAgent({ mcpServers })`, the servers connected by the agent;
 * - `connect`: `connectMcpServers(...)`, its tools handed to `createAgent({ tools })`.
 *
 * A scripted model (agent-lattice/testing) calls every tool the server offers once, then answers.
 * The program exits 1 when a server failed to connect or a tool call came back as an error, so a
 * scenario where the client should refuse (a resource mismatch) shows the refusal.
 */
import { createAgent } from "agent-lattice";
import { connectMcpServers } from "agent-lattice/mcp";
import { createScriptedClient } from "agent-lattice/testing";

/** The CIMD client id the suite's authorization servers accept (it is never fetched). */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/** Arguments for the tools the suite's servers offer; any other tool is called with `{}`. */
const TOOL_ARGUMENTS = { add_numbers: { a: 2, b: 3 } };

const [via, serverUrl] = process.argv.slice(2);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");

/**
 * The user's browser: opens the authorization URL and follows the authorization server's redirect
 * to our loopback callback (the suite's authorization servers approve at once).
 */
async function browser(authorizationUrl) {
  const approval = await fetch(authorizationUrl, { redirect: "manual" });
  const callback = approval.headers.get("location");
  if (!callback) throw new Error(`the authorization server did not redirect (HTTP ${approval.status})`);
  await (await fetch(callback)).text();
}

/** The cross-app access flow (SEP-990): an ID-JAG from the IdP, exchanged for an access token. */
async function crossAppAccessToken() {
  const resource = await (
    await fetch(new URL("/.well-known/oauth-protected-resource/mcp", serverUrl))
  ).json();
  const issuerUrl = new URL("/.well-known/oauth-authorization-server", resource.authorization_servers[0]);
  const metadata = await (await fetch(issuerUrl)).json();
  const form = (fields) => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  const grant = await fetch(
    context.idp_token_endpoint,
    form({
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      audience: metadata.issuer,
      resource: resource.resource,
      subject_token: context.idp_id_token,
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      client_id: context.idp_client_id,
    }),
  );
  const { access_token: assertion } = await grant.json();
  const basic = Buffer.from(
    `${encodeURIComponent(context.client_id)}:${encodeURIComponent(context.client_secret)}`,
  ).toString("base64");
  const exchange = form({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion });
  exchange.headers.authorization = `Basic ${basic}`;
  const token = await (await fetch(metadata.token_endpoint, exchange)).json();
  return token.access_token;
}

/** The server's config for this scenario. */
async function serverConfig() {
  const config = { type: "http", url: serverUrl };
  if (scenario === "auth/cross-app-access-complete-flow") {
    return { ...config, headers: { Authorization: `Bearer ${await crossAppAccessToken()}` } };
  }
  if (scenario === "auth/client-credentials-basic") {
    const { client_id: clientId, client_secret: clientSecret } = context;
    return { ...config, auth: { grant: "client_credentials", clientId, clientSecret } };
  }
  if (scenario === "auth/client-credentials-jwt") {
    const { client_id: clientId, private_key_pem: privateKey, signing_algorithm: algorithm } = context;
    const privateKeyJwt = { privateKey, algorithm: algorithm ?? "ES256" };
    return { ...config, auth: { grant: "client_credentials", clientId, privateKeyJwt } };
  }
  if (scenario === "auth/pre-registration") {
    const { client_id: clientId, client_secret: clientSecret } = context;
    return { ...config, auth: { clientId, clientSecret, redirect: browser } };
  }
  if (scenario.startsWith("auth/")) {
    return { ...config, auth: { clientMetadataUrl: CLIENT_METADATA_URL, redirect: browser } };
  }
  return config;
}

/**
 * Accepts every elicitation with empty content: the schema's defaults fill it. Given only where the
 * scenario elicits, so the other scenarios measure the agent as configured without it.
 */
const onElicitation = scenario.startsWith("elicitation")
  ? async () => ({ action: "accept", content: {} })
  : undefined;

/** A model that calls each MCP tool offered once, then answers. */
function scriptedModel() {
  return createScriptedClient((request) => {
    const last = request.messages.at(-1);
    const answered =
      Array.isArray(last?.content) && last.content.some((block) => block.type === "tool_result");
    const tools = (request.tools ?? []).filter((tool) => tool.name?.startsWith("mcp__"));
    if (answered || tools.length === 0) return { content: "done" };
    return {
      content: tools.map((tool, index) => ({
        type: "tool_use",
        id: `toolu_conformance_${index}`,
        name: tool.name,
        input: TOOL_ARGUMENTS[tool.name.split("__").at(-1)] ?? {},
      })),
    };
  });
}

/** Runs one prompt; returns the failures seen (server statuses, error tool results, the result). */
async function run(agent) {
  const failures = [];
  for await (const message of agent.query("Call the server's tools.")) {
    if (message.type === "system" && message.subtype === "init") {
      for (const status of message.mcp_servers ?? []) {
        if (status.status === "failed") failures.push(`server ${status.name} failed: ${status.error}`);
      }
    }
    if (message.type === "user" && Array.isArray(message.message.content)) {
      for (const block of message.message.content) {
        if (block.type === "tool_result" && block.is_error)
          failures.push(`tool error: ${JSON.stringify(block.content)}`);
      }
    }
    if (message.type === "result" && message.is_error) failures.push(`result ${message.subtype}`);
  }
  return failures;
}

async function main() {
  const mcpServers = { conformance: await serverConfig() };
  const model = "claude-sonnet-4-6";
  let failures;
  if (via === "connect") {
    const connections = await connectMcpServers(mcpServers, onElicitation ? { onElicitation } : {});
    try {
      const statuses = connections.statuses().filter((status) => status.status === "failed");
      const agent = createAgent({ model, client: scriptedModel(), tools: connections.tools() });
      failures = [
        ...statuses.map((status) => `server ${status.name} failed: ${status.error}`),
        ...(await run(agent)),
      ];
      await agent.close();
    } finally {
      await connections.close();
    }
  } else {
    const agent = createAgent({
      model,
      client: scriptedModel(),
      mcpServers,
      ...(onElicitation ? { onElicitation } : {}),
    });
    try {
      failures = await run(agent);
    } finally {
      await agent.close();
    }
  }
  for (const failure of failures) console.error(failure);
  // Exit now: idle keep-alive sockets of fetch would hold the process a few seconds more.
  process.exit(failures.length > 0 ? 1 : 0);
}

if (via !== "agent" && via !== "connect") {
  console.error("usage: mcp-client.mjs <agent|connect> <server-url>");
  process.exit(2);
}
await main();
