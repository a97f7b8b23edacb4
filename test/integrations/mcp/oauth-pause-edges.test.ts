/**
 * The OAuth pause's edges, against the real OAuth-protected MCP server (file token store, JSONL
 * history): a forged or missing state, an expired one, the authorization server's refusal and the
 * person's decline, an aborted resume, one long-lived Agent that resumes itself, a new prompt sent
 * instead of an answer, `connectMcpServers` with `reconnectPaused()`, and options that cannot work.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent/create-agent";
import { defineGuardrail } from "../../../src/guardrails/guardrail";
import { createJsonlHistoryStore } from "../../../src/history/jsonl";
import { connectMcpServers } from "../../../src/integrations/mcp/connect";
import type { McpTokenStore } from "../../../src/integrations/mcp/oauth/auth-options";
import { finishMcpAuthorization } from "../../../src/integrations/mcp/oauth/finish-authorization";
import { createMcpTokenStore } from "../../../src/integrations/mcp/oauth/token-stores";
import type { SDKMessage, SDKResultMessage } from "../../../src/messages/sdk-messages";
import { createScriptedClient } from "../../../src/testing/scripted-client";
import { type OAuthFixture, startOAuthMcpServer } from "../../fixtures/mcp/oauth-server";
import { expectWellFormed } from "../../loop/support";
import { temporaryFolder } from "../../support/temporary-folders";
import { runTool, textOf, toolNamed } from "./helpers";
import { CALLBACK, followAuthorization, pausingServers, whoamiModel } from "./oauth-pause-kit";

const ACCEPT = { inputs: { "authorization/crm": { action: "accept" as const } } };

describe("the OAuth pause: edges", { timeout: 60_000 }, () => {
  const fixtures: OAuthFixture[] = [];
  afterEach(async () => {
    await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
  });
  async function setup(options: Parameters<typeof startOAuthMcpServer>[0] = {}) {
    const crm = await startOAuthMcpServer(options);
    fixtures.push(crm);
    const folder = temporaryFolder("lattice-oauth-pause-edges-");
    const tokens = () => createMcpTokenStore({ path: join(folder, "tokens.json") });
    const history = () => createJsonlHistoryStore({ path: join(folder, "history.jsonl") });
    return { crm, folder, tokens, history };
  }
  function agentOver(
    url: string,
    stores: { tokens: McpTokenStore; history: ReturnType<typeof createJsonlHistoryStore> },
    model = whoamiModel(),
    extra: { stateTtlMs?: number } = {},
  ) {
    return createAgent({
      model: "claude-sonnet-4-6",
      client: model,
      historyStore: stores.history,
      mcpServers: pausingServers(url, stores.tokens, extra),
    });
  }
  async function pausedUrl(result: SDKResultMessage): Promise<string> {
    expect(result.subtype).toBe("requires_input");
    return result.pending_inputs![0]!.url!;
  }

  it("refuses a forged, a missing and an unknown-server state: nothing is exchanged", async () => {
    const { crm, tokens, history } = await setup();
    const agent = agentOver(crm.url, { tokens: tokens(), history: history() });
    const url = await pausedUrl(await agent.prompt("Who am I?"));
    await agent.close();
    const servers = pausingServers(crm.url, tokens());
    for (const callbackUrl of [
      `${CALLBACK}?code=made-up&state=forged-state`,
      `${CALLBACK}?code=made-up`,
      new URLSearchParams({ code: "made-up", state: "" }),
    ]) {
      const error = await finishMcpAuthorization({ callbackUrl, mcpServers: servers }).catch(
        (thrown) => thrown,
      );
      expect(error).toMatchObject({ name: "McpAuthorizationError", reason: "unknown_state" });
      expect(error.message).not.toContain("made-up");
    }
    // The right state, but mcpServers configure the server otherwise (another redirect URI).
    const callbackUrl = await followAuthorization(url);
    const other = pausingServers(crm.url, tokens());
    (other.crm as { auth: { redirectUri: string } }).auth.redirectUri = "https://evil.example.com/cb";
    const error = await finishMcpAuthorization({ callbackUrl, mcpServers: other }).catch((thrown) => thrown);
    expect(error).toMatchObject({ reason: "unknown_server", server: "crm" });
    expect(error.message).not.toContain(new URL(callbackUrl).searchParams.get("code")!);
    expect(crm.tokenRequests).toEqual([]);
    // A server app with no pausing server cannot finish anything.
    await expect(
      finishMcpAuthorization({ callbackUrl, mcpServers: { crm: { type: "http", url: crm.url } } }),
    ).rejects.toThrow(/redirect "pause"/);
  });

  it("refuses an expired state; the next answer pauses again with a new URL, which then works", async () => {
    const { crm, tokens, history } = await setup();
    const ttl = { stateTtlMs: 50 };
    const first = agentOver(crm.url, { tokens: tokens(), history: history() }, whoamiModel(), ttl);
    const url = await pausedUrl(await first.prompt("Who am I?"));
    await first.close();
    const callbackUrl = await followAuthorization(url);
    await new Promise((resolve) => setTimeout(resolve, 80));
    const expired = await finishMcpAuthorization({
      callbackUrl,
      mcpServers: pausingServers(crm.url, tokens(), ttl),
    }).catch((thrown) => thrown);
    expect(expired).toMatchObject({ name: "McpAuthorizationError", reason: "expired", server: "crm" });
    expect(expired.message).toContain("Start again");
    expect(crm.tokenRequests).toEqual([]);
    // Accepted anyway: no tokens, so the query pauses again, with a new state.
    const second = agentOver(crm.url, { tokens: tokens(), history: history() });
    const again = await pausedUrl(await second.prompt(ACCEPT));
    await second.close();
    expect(new URL(again).searchParams.get("state")).not.toBe(new URL(url).searchParams.get("state"));
    await finishMcpAuthorization({
      callbackUrl: await followAuthorization(again),
      mcpServers: pausingServers(crm.url, tokens()),
    });
    const third = agentOver(crm.url, { tokens: tokens(), history: history() });
    const result = await third.prompt(ACCEPT);
    const stored = await third.getHistory();
    await third.close();
    expect(result).toMatchObject({ subtype: "success", result: "You are an authorized user." });
    expectWellFormed(stored);
  });

  it("an expired pause is deleted when the next pause is recorded: its late callback is unknown_state, start again", async () => {
    const { crm, folder, tokens, history } = await setup();
    const ttl = { stateTtlMs: 50 };
    const first = agentOver(crm.url, { tokens: tokens(), history: history() }, whoamiModel(), ttl);
    const url = await pausedUrl(await first.prompt("Who am I?"));
    await first.close();
    const lateCallbackUrl = await followAuthorization(url);
    await new Promise((resolve) => setTimeout(resolve, 80));
    // The query is answered meanwhile: it pauses again, and the expired pause is deleted.
    const second = agentOver(crm.url, { tokens: tokens(), history: history() });
    const again = await pausedUrl(await second.prompt(ACCEPT));
    await second.close();
    const kept = Object.keys(JSON.parse(readFileSync(join(folder, "tokens.json"), "utf8")));
    expect(kept.filter((key) => key.startsWith("paused-authorization "))).toHaveLength(1);
    const late = await finishMcpAuthorization({
      callbackUrl: lateCallbackUrl,
      mcpServers: pausingServers(crm.url, tokens(), ttl),
    }).catch((thrown) => thrown);
    expect(late).toMatchObject({ name: "McpAuthorizationError", reason: "unknown_state" });
    expect(late.message).toMatch(/expired .*Start again/);
    expect(crm.tokenRequests).toEqual([]);
    await finishMcpAuthorization({
      callbackUrl: await followAuthorization(again),
      mcpServers: pausingServers(crm.url, tokens()),
    });
    expect(crm.tokenRequests).toHaveLength(1);
  });

  it("the authorization server refuses (access_denied); the person declines: the query runs without the server", async () => {
    const { crm, tokens, history } = await setup({ denyAuthorization: true });
    const model = createScriptedClient((request) => ({
      content: `tools: ${(request.tools ?? []).map((tool) => tool.name).join(",") || "none"}`,
    }));
    const agent = agentOver(crm.url, { tokens: tokens(), history: history() }, model);
    try {
      const url = await pausedUrl(await agent.prompt("Who am I?"));
      const refused = await finishMcpAuthorization({
        callbackUrl: await followAuthorization(url),
        mcpServers: pausingServers(crm.url, tokens()),
      }).catch((thrown) => thrown);
      expect(refused).toMatchObject({ name: "McpAuthorizationError", reason: "refused", server: "crm" });
      expect(refused.message).toContain("access_denied");
      // The person (the app's UI) answers decline: the model is called without crm's tools.
      const messages: SDKMessage[] = [];
      for await (const message of agent.query({ inputs: { "authorization/crm": { action: "decline" } } }))
        messages.push(message);
      expect(messages.at(-1)).toMatchObject({ subtype: "success", result: "tools: none" });
      // This agent does not ask again; the next query's init says why crm is missing.
      const next: SDKMessage[] = [];
      for await (const message of agent.query("And now?")) next.push(message);
      expect(next.at(-1)).toMatchObject({ subtype: "success", result: "tools: none" });
      expect((next[0] as Extract<SDKMessage, { subtype: "init" }>).mcp_servers).toEqual([
        { name: "crm", status: "failed", error: expect.stringContaining("declined by the user") },
      ]);
      expectWellFormed(await agent.getHistory());
    } finally {
      await agent.close();
    }
  });

  it("a resume aborted before it starts leaves the pause as it was; answered later, it completes", async () => {
    const { crm, tokens, history } = await setup();
    const agent = agentOver(crm.url, { tokens: tokens(), history: history() });
    try {
      const url = await pausedUrl(await agent.prompt("Who am I?"));
      const pending = await agent.getPendingInputs();
      const controller = new AbortController();
      controller.abort(new Error("the user left"));
      const aborted = await agent.prompt(ACCEPT, { signal: controller.signal });
      expect(aborted).toMatchObject({ type: "result", subtype: "error_abort" });
      expect(await agent.getPendingInputs()).toEqual(pending);
      await finishMcpAuthorization({
        callbackUrl: await followAuthorization(url),
        mcpServers: pausingServers(crm.url, tokens()),
      });
      expect(await agent.prompt(ACCEPT)).toMatchObject({ subtype: "success" });
    } finally {
      await agent.close();
    }
  });

  it("one long-lived Agent: pauses, the callback finishes elsewhere, the same Agent connects again on accept", async () => {
    const { crm, tokens, history } = await setup();
    const model = whoamiModel();
    const agent = agentOver(crm.url, { tokens: tokens(), history: history() }, model);
    try {
      const url = await pausedUrl(await agent.prompt("Who am I?"));
      await finishMcpAuthorization({
        callbackUrl: await followAuthorization(url),
        mcpServers: pausingServers(crm.url, tokens()),
      });
      const messages: SDKMessage[] = [];
      for await (const message of agent.query(ACCEPT)) messages.push(message);
      expect((messages[0] as Extract<SDKMessage, { subtype: "init" }>).mcp_servers).toEqual([
        { name: "crm", status: "connected", tools: ["mcp__crm__whoami"] },
      ]);
      expect(messages.at(-1)).toMatchObject({ subtype: "success", result: "You are an authorized user." });
      const stored = await agent.getHistory();
      expectWellFormed(stored);
      expect(JSON.stringify(stored)).toContain("an authorized user");
    } finally {
      await agent.close();
    }
  });

  it("a new prompt instead of an answer: the pause moves after it; both prompts reach the model", async () => {
    const { crm, tokens, history } = await setup();
    const model = whoamiModel();
    const agent = agentOver(crm.url, { tokens: tokens(), history: history() }, model);
    try {
      await pausedUrl(await agent.prompt("Who am I?"));
      const url = await pausedUrl(await agent.prompt("Please, who am I?"));
      const stored = await agent.getHistory();
      expect(stored.map((message) => [message.role, "pending_inputs" in message])).toEqual([
        ["user", false],
        ["user", false],
        ["user", true],
      ]);
      await finishMcpAuthorization({
        callbackUrl: await followAuthorization(url),
        mcpServers: pausingServers(crm.url, tokens()),
      });
      expect(await agent.prompt(ACCEPT)).toMatchObject({ subtype: "success" });
      const sent = JSON.stringify(model.requests[0]!.messages);
      expect(sent).toContain("Who am I?");
      expect(sent).toContain("Please, who am I?");
      expect(sent).not.toContain("waiting for a person");
      expectWellFormed(await agent.getHistory());
    } finally {
      await agent.close();
    }
  });

  it.each([
    ["allow", "success"],
    ["tripwire", "guardrail_tripwire"],
  ] as const)(
    "a parallel input guardrail (%s) checks the paused prompt when the query resumes",
    async (verdict, subtype) => {
      const { crm, tokens, history } = await setup();
      const checked: string[] = [];
      const guardrail = defineGuardrail({
        name: "racer",
        stage: "input",
        mode: "parallel",
        check: async ({ text }) => {
          checked.push(text);
          await new Promise((resolve) => setTimeout(resolve, 20));
          return verdict === "allow" ? { verdict: "allow" } : { verdict: "tripwire", message: "no" };
        },
      });
      const model = whoamiModel();
      const stores = { tokens: tokens(), history: history() };
      const agent = createAgent({
        model: "claude-sonnet-4-6",
        client: model,
        historyStore: stores.history,
        guardrails: [guardrail],
        mcpServers: pausingServers(crm.url, stores.tokens),
      });
      try {
        const url = await pausedUrl(await agent.prompt("Who am I?"));
        // Paused before the model: the prompt is kept unchecked (never sent as it is).
        expect((await agent.getHistory())[0]!.meta?.withdrawn).toBe("unchecked");
        await finishMcpAuthorization({
          callbackUrl: await followAuthorization(url),
          mcpServers: pausingServers(crm.url, tokens()),
        });
        const result = await agent.prompt(ACCEPT);
        expect(result.subtype).toBe(subtype);
        expect(checked.at(-1)).toBe("Who am I?");
        const stored = await agent.getHistory();
        expect(stored[0]!.meta?.withdrawn).toBe(verdict === "allow" ? undefined : "guardrail");
        if (verdict === "allow") expect(JSON.stringify(stored)).toContain("an authorized user");
        else expect(stored.some((message) => message.role === "assistant")).toBe(false);
      } finally {
        await agent.close();
      }
    },
  );

  it("tokens revoked mid-query: the call gets an error result, and the next query pauses for a new authorization", async () => {
    const { crm, tokens, history } = await setup();
    const url = await (async () => {
      const first = agentOver(crm.url, { tokens: tokens(), history: history() });
      const paused = await pausedUrl(await first.prompt("Who am I?"));
      await first.close();
      return paused;
    })();
    await finishMcpAuthorization({
      callbackUrl: await followAuthorization(url),
      mcpServers: pausingServers(crm.url, tokens()),
    });
    let requests = 0;
    const model = createScriptedClient((request) => {
      requests++;
      const results = request.messages.flatMap((message) =>
        Array.isArray(message.content) ? message.content.filter((block) => block.type === "tool_result") : [],
      );
      if (results.length === 0) {
        // The server revokes every token (refresh tokens too) before the call arrives.
        crm.revokeAllTokens();
        return { content: [{ type: "tool_use", id: "toolu_1", name: "mcp__crm__whoami", input: {} }] };
      }
      return { content: "It failed." };
    });
    const agent = agentOver(crm.url, { tokens: tokens(), history: history() }, model);
    try {
      const answered = await agent.prompt(ACCEPT);
      expect(answered).toMatchObject({ subtype: "success", result: "It failed." });
      const stored = await agent.getHistory();
      const result = stored
        .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
        .find((block) => block.type === "tool_result");
      expect(result).toMatchObject({ tool_use_id: "toolu_1", is_error: true });
      expect(JSON.stringify(result)).toContain("needs authorization");
      // The next query pauses before the model, with a new authorization URL.
      const again = await agent.prompt("Try again?");
      expect(requests).toBe(2);
      const next = await pausedUrl(again);
      expect(next).not.toBe(url);
      await finishMcpAuthorization({
        callbackUrl: await followAuthorization(next),
        mcpServers: pausingServers(crm.url, tokens()),
      });
      expect(await agent.prompt(ACCEPT)).toMatchObject({ subtype: "success" });
      expectWellFormed(await agent.getHistory());
    } finally {
      await agent.close();
    }
  });

  it("connectMcpServers: the paused server is listed with its URL, and reconnectPaused() connects it once finished", async () => {
    const { crm, tokens } = await setup();
    const changed: number[] = [];
    const connections = await connectMcpServers(pausingServers(crm.url, tokens()), {
      onToolsChanged: () => changed.push(Date.now()),
    });
    try {
      expect(connections.statuses()).toEqual([
        { name: "crm", status: "failed", error: expect.stringContaining("Waiting for authorization") },
      ]);
      const [paused] = connections.pendingAuthorizations();
      expect(paused).toEqual({ server: "crm", url: expect.any(String), expiresAt: expect.any(String) });
      expect(Date.parse(paused!.expiresAt)).toBeGreaterThan(Date.now());
      await connections.reconnectPaused();
      // Not finished yet: still paused, with a new authorization URL.
      const [still] = connections.pendingAuthorizations();
      expect(still!.url).not.toBe(paused!.url);
      await finishMcpAuthorization({
        callbackUrl: await followAuthorization(still!.url),
        mcpServers: pausingServers(crm.url, tokens()),
      });
      await connections.reconnectPaused();
      expect(connections.pendingAuthorizations()).toEqual([]);
      expect(changed).toHaveLength(1);
      expect(textOf(await runTool(toolNamed(connections, "mcp__crm__whoami")))).toBe("an authorized user");
    } finally {
      await connections.close();
    }
  });

  it("options that cannot work: the server is reported failed, saying what is missing", async () => {
    const { crm, tokens } = await setup();
    const connections = await connectMcpServers({
      noStore: { type: "http", url: crm.url, auth: { redirect: "pause", redirectUri: CALLBACK } },
      noRoute: { type: "http", url: crm.url, auth: { redirect: "pause", tokenStore: tokens() } },
      headless: {
        type: "http",
        url: crm.url,
        auth: {
          redirect: "pause",
          redirectUri: CALLBACK,
          tokenStore: tokens(),
          grant: "client_credentials",
          clientId: "a",
          clientSecret: "b",
        },
      },
    });
    try {
      expect(connections.statuses().map((status) => status.error)).toEqual([
        expect.stringContaining("needs auth.tokenStore"),
        expect.stringContaining("needs auth.redirectUri"),
        expect.stringContaining("authorization_code grant"),
      ]);
      expect(connections.pendingAuthorizations()).toEqual([]);
    } finally {
      await connections.close();
    }
  });
});
