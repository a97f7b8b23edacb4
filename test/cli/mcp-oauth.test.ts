/**
 * The command line's OAuth for `--mcp` http servers, end to end: the real command (dist/cli) runs a
 * prompt whose model calls a tool of a real OAuth-protected MCP server (test/fixtures/mcp/oauth-server.ts:
 * discovery, dynamic registration, PKCE, an authorization endpoint that approves at once). The test
 * plays the person: it reads the authorization URL the command prints, first sends a redirect with
 * a forged state (refused), then follows the URL with fetch to the command's loopback listener.
 * Ctrl-C while the command waits cancels the authorization; a wait past `connectTimeoutMs` says so.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type OAuthFixture, startOAuthMcpServer } from "../fixtures/mcp/oauth-server";
import { mockServerPerTest } from "../support/mock-server";
import { temporaryFolder } from "../support/temporary-folders";
import { cleanEnvironment, DUMMY_KEY, ensureBuiltCli, runCli } from "./helpers";

const AUTHORIZATION_URL = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/;

/** Calls `onUrl` once with the authorization URL the command prints on stderr. */
function whenUrlPrinted(onUrl: (url: URL, child: ChildProcess) => Promise<void>) {
  const done: Array<Promise<void>> = [];
  const onSpawn = (child: ChildProcess) => {
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer | string) => {
      const before = AUTHORIZATION_URL.test(stderr);
      stderr += chunk.toString();
      const found = AUTHORIZATION_URL.exec(stderr);
      if (!before && found) done.push(onUrl(new URL(found[1]!), child));
    });
  };
  return { onSpawn, settled: () => Promise.all(done) };
}

describe("the CLI's --mcp servers with OAuth", () => {
  beforeAll(ensureBuiltCli, 600_000);
  const model = mockServerPerTest();
  let server: OAuthFixture | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  function configFile(folder: string, extra: Record<string, unknown> = {}): string {
    const file = path.join(folder, "mcp.json");
    const crm = { type: "http", url: server!.url, ...extra };
    writeFileSync(file, JSON.stringify({ mcpServers: { crm } }));
    return file;
  }

  it("prints the URL, takes the redirect on 127.0.0.1 (state checked), exchanges the code and calls the tool; the next run needs no browser", async () => {
    server = await startOAuthMcpServer();
    const folder = temporaryFolder("lattice-cli-mcp-");
    const env = cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY, XDG_CONFIG_HOME: folder });
    const call = { content: [{ type: "tool_use" as const, id: "t1", name: "mcp__crm__whoami", input: {} }] };
    model.enqueue(call, { content: "You are an authorized user." });
    const refusals: number[] = [];
    const person = whenUrlPrinted(async (url) => {
      const redirectUri = url.searchParams.get("redirect_uri")!;
      expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      refusals.push((await fetch(`${redirectUri}?code=forged&state=forged`)).status);
      const approval = await fetch(url, { redirect: "manual" });
      const callback = await fetch(approval.headers.get("location")!);
      expect(await callback.text()).toContain("Authorization complete");
    });
    const session = path.join(folder, "chat.jsonl");
    const args = ["--base-url", model.url, "--mcp", configFile(folder), "--session", session, "Who am I?"];
    const run = await runCli(args, { env, onSpawn: person.onSpawn });
    await person.settled();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('MCP server "crm" needs authorization. Open this URL in a browser');
    expect(run.stderr).toContain("Ctrl-C cancels");
    expect(refusals).toEqual([400]);
    expect(run.stdout).toContain("You are an authorized user.");
    expect(JSON.stringify(model.requests[1]!.body.messages)).toContain("an authorized user");
    expect(server.tokenRequests.map((request) => request.grant_type)).toEqual(["authorization_code"]);
    // The tokens are kept in the default file under $XDG_CONFIG_HOME, readable by the owner only…
    const tokenFile = path.join(folder, "agent-lattice", "mcp-tokens.json");
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const secrets = server.issuedSecrets().filter((secret) => !secret.startsWith("code-"));
    for (const secret of secrets) expect(readFileSync(tokenFile, "utf8")).toContain(secret);
    // …and nowhere the command writes for people or keeps the conversation.
    for (const surface of [run.stdout, run.stderr, readFileSync(session, "utf8")]) {
      for (const secret of secrets) expect(surface).not.toContain(secret);
    }

    model.enqueue(call, { content: "Still you." });
    const again = await runCli(["--base-url", model.url, "--mcp", configFile(folder), "Who am I?"], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain("needs authorization");
    expect(again.stdout).toContain("Still you.");
    expect(server.tokenRequests).toHaveLength(1);
  });

  it("--mcp-browser opens the URL with $BROWSER, whose redirect completes the authorization", async () => {
    server = await startOAuthMcpServer();
    const folder = temporaryFolder("lattice-cli-mcp-");
    // A stand-in browser: follows the authorization server's redirect back to the listener.
    const opener = path.join(folder, "browser.mjs");
    writeFileSync(
      opener,
      [
        "#!/usr/bin/env node",
        'const approval = await fetch(process.argv[2], { redirect: "manual" });',
        'await (await fetch(approval.headers.get("location"))).text();',
      ].join("\n"),
      { mode: 0o755 },
    );
    const env = cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY, BROWSER: opener });
    model.enqueue(
      { content: [{ type: "tool_use" as const, id: "t1", name: "mcp__crm__whoami", input: {} }] },
      { content: "Opened and authorized." },
    );
    const tokens = path.join(folder, "tokens.json");
    const args = ["--base-url", model.url, "--mcp", configFile(folder), "--mcp-tokens", tokens];
    const run = await runCli([...args, "--mcp-browser", "Who am I?"], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('MCP server "crm" needs authorization');
    expect(run.stdout).toContain("Opened and authorized.");
    expect(server.tokenRequests.map((request) => request.grant_type)).toEqual(["authorization_code"]);
    expect(statSync(tokens).mode & 0o777).toBe(0o600);
  });

  it("Ctrl-C while waiting for the browser cancels the authorization and stops the query", async () => {
    server = await startOAuthMcpServer();
    const folder = temporaryFolder("lattice-cli-mcp-");
    const env = cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY });
    let redirectUri = "";
    const person = whenUrlPrinted(async (url, child) => {
      redirectUri = url.searchParams.get("redirect_uri")!;
      child.kill("SIGINT");
    });
    const tokens = path.join(folder, "tokens.json");
    const args = ["--base-url", model.url, "--mcp", configFile(folder), "--mcp-tokens", tokens, "Hi"];
    const run = await runCli(args, { env, onSpawn: person.onSpawn });
    await person.settled();
    expect(run.stderr).toContain('MCP server "crm" failed: MCP authorization cancelled with Ctrl-C.');
    expect(run.stderr).toContain("interrupted");
    expect(run.code).toBe(0);
    expect(model.requests).toHaveLength(0);
    expect(server.tokenRequests).toEqual([]);
    await expect(fetch(redirectUri)).rejects.toThrow();
  });

  it("says what happened when nobody authorizes within connectTimeoutMs, and answers without the server", async () => {
    server = await startOAuthMcpServer();
    const folder = temporaryFolder("lattice-cli-mcp-");
    const env = cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY });
    model.enqueue({ content: "Hello without the CRM." });
    const file = configFile(folder, { connectTimeoutMs: 1_000 });
    const tokens = path.join(folder, "tokens.json");
    const run = await runCli(["--base-url", model.url, "--mcp", file, "--mcp-tokens", tokens, "Hi"], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("waiting up to 1 s");
    expect(run.stderr).toContain(
      'MCP server "crm" failed: Authorization was not completed within connectTimeoutMs (1 s)',
    );
    expect(run.stdout).toContain("Hello without the CRM.");
    expect(model.requests[0]!.body.tools ?? []).toEqual([]);
  });

  it("refuses a --mcp file that is not usable, before any request", async () => {
    const folder = temporaryFolder("lattice-cli-mcp-");
    const file = path.join(folder, "mcp.json");
    // The file names a variable the environment does not have.
    const url = ["$", "{CRM_URL}"].join("");
    writeFileSync(file, JSON.stringify({ mcpServers: { crm: { type: "http", url } } }));
    const env = cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY });
    const run = await runCli(["--base-url", model.url, "--mcp", file, "Hi"], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--mcp ${file}: server "crm": the environment variable CRM_URL is not set`);
    expect(model.requests).toHaveLength(0);
  });
});
