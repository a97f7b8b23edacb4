/**
 * The loopback redirect of the OAuth code flow, against the real authorization server and protected
 * MCP server of test/fixtures/mcp/oauth-server.ts: a redirect with another `state` is refused, the
 * listener stops once the code is in (and listens again on the same port when a later
 * authorization needs it), `auth.signal` ends a wait for the person, and a wait that outlasts
 * `connectTimeoutMs` says so in words.
 */
import { afterEach, describe, expect, it } from "vitest";
import { connectMcpServers, type McpConnections } from "../../../src/integrations/mcp/connect";
import { type OAuthFixture, startOAuthMcpServer } from "../../fixtures/mcp/oauth-server";
import { runTool, textOf, toolNamed } from "./helpers";

/** The redirect URI an authorization URL sends the browser back to. */
function redirectUriOf(authorizationUrl: URL): string {
  return authorizationUrl.searchParams.get("redirect_uri")!;
}

/** Whether something listens at `url` (a refused connection: no). */
async function listening(url: string): Promise<boolean> {
  try {
    await (await fetch(url)).text();
    return true;
  } catch {
    return false;
  }
}

describe("the OAuth loopback redirect", () => {
  const opened: Array<OAuthFixture | McpConnections> = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((resource) => resource.close()));
  });
  async function track<T extends OAuthFixture | McpConnections>(resource: Promise<T>): Promise<T> {
    const value = await resource;
    opened.push(value);
    return value;
  }

  it("refuses a redirect with another state, takes the right one, then stops listening", async () => {
    const server = await track(startOAuthMcpServer());
    const refusals: Array<{ status: number; text: string }> = [];
    const shown: URL[] = [];
    const browser = async (authorizationUrl: URL) => {
      shown.push(authorizationUrl);
      const approval = await fetch(authorizationUrl, { redirect: "manual" });
      const callback = new URL(approval.headers.get("location")!);
      const forged = new URL(callback);
      forged.searchParams.set("state", "not-the-state-we-sent");
      forged.searchParams.set("code", "a-forged-code");
      const refused = await fetch(forged);
      refusals.push({ status: refused.status, text: await refused.text() });
      await (await fetch(callback)).text();
    };
    const connections = await track(
      connectMcpServers({ crm: { type: "http", url: server.url, auth: { redirect: browser } } }),
    );
    expect(connections.statuses()[0]?.status).toBe("connected");
    expect(refusals).toEqual([
      { status: 400, text: "This authorization response was not expected (unknown state).\n" },
    ]);
    // The forged code never reached the token endpoint.
    expect(server.tokenRequests.map((request) => request.code)).not.toContain("a-forged-code");
    // The code is in: the listener is closed while the connection lives on.
    expect(await listening(redirectUriOf(shown[0]!))).toBe(false);
    expect(textOf(await runTool(toolNamed(connections, "mcp__crm__whoami")))).toBe("an authorized user");
  });

  it("listens again on the same redirect URI when a refused refresh needs a new authorization", async () => {
    const server = await track(startOAuthMcpServer());
    const shown: URL[] = [];
    const browser = async (authorizationUrl: URL) => {
      shown.push(authorizationUrl);
      const approval = await fetch(authorizationUrl, { redirect: "manual" });
      await (await fetch(approval.headers.get("location")!)).text();
    };
    const connections = await track(
      connectMcpServers({ crm: { type: "http", url: server.url, auth: { redirect: browser } } }),
    );
    server.revokeAllTokens();
    const output = await runTool(toolNamed(connections, "mcp__crm__whoami"));
    expect(output).toEqual({ content: [{ type: "text", text: "an authorized user" }] });
    expect(shown).toHaveLength(2);
    expect(redirectUriOf(shown[1]!)).toBe(redirectUriOf(shown[0]!));
    expect(server.tokenRequests.map((request) => request.grant_type)).toEqual([
      "authorization_code",
      "refresh_token",
      "authorization_code",
    ]);
    expect(await listening(redirectUriOf(shown[1]!))).toBe(false);
  });

  it("ends the wait for the person when auth.signal aborts, with its reason, and closes the listener", async () => {
    const server = await track(startOAuthMcpServer());
    const cancel = new AbortController();
    const shown: URL[] = [];
    const connections = await track(
      connectMcpServers({
        crm: {
          type: "http",
          url: server.url,
          auth: {
            signal: cancel.signal,
            // The person is shown the URL and presses Ctrl-C instead of opening it.
            redirect: async (authorizationUrl) => {
              shown.push(authorizationUrl);
              setImmediate(() => cancel.abort(new Error("MCP authorization cancelled with Ctrl-C.")));
            },
          },
        },
      }),
    );
    expect(connections.statuses()).toEqual([
      { name: "crm", status: "failed", error: "MCP authorization cancelled with Ctrl-C." },
    ]);
    expect(shown).toHaveLength(1);
    expect(server.tokenRequests).toEqual([]);
    expect(await listening(redirectUriOf(shown[0]!))).toBe(false);
  });

  it("says that nobody authorized when connectTimeoutMs passes while waiting for the redirect", async () => {
    const server = await track(startOAuthMcpServer());
    const shown: URL[] = [];
    const connections = await track(
      connectMcpServers({
        crm: {
          type: "http",
          url: server.url,
          connectTimeoutMs: 1_000,
          auth: { redirect: async (authorizationUrl) => void shown.push(authorizationUrl) },
        },
      }),
    );
    const [status] = connections.statuses();
    expect(status?.status).toBe("failed");
    expect(status?.error).toBe(
      "Authorization was not completed within connectTimeoutMs (1 s): no redirect reached the loopback " +
        "listener (the authorization URL was not opened, or not approved in time).",
    );
    expect(await listening(redirectUriOf(shown[0]!))).toBe(false);
  });
});
