/**
 * The studio's guard: loopback by default, every request without the printed token refused (401),
 * a foreign Host (DNS rebinding) or Origin (another site) refused (403), credentials never printed;
 * and without `createAgent` the acting endpoints are absent.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildStudioPage } from "../../scripts/build-studio-page.mjs";
import { createJsonlHistoryStore } from "../../src/index";
import { type Studio, startStudio } from "../../src/studio/index";
import { locationLabel } from "../../src/studio/location-source";
import { CREDENTIAL_SAMPLES } from "../support/credential-shapes";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function studioOverOneConversation(): Promise<Studio> {
  await buildStudioPage();
  const folder = await mkdtemp(join(tmpdir(), "studio-safety-"));
  await createJsonlHistoryStore({ path: join(folder, "one.jsonl") }).replace([
    { role: "user", content: "hello" },
  ]);
  const studio = await startStudio({ store: folder });
  cleanups.push(
    () => rm(folder, { recursive: true, force: true }),
    () => studio.close(),
  );
  return studio;
}

/** A raw request, so the Host and Origin headers can be anything. */
function raw(
  url: string,
  headers: Record<string, string>,
  method = "GET",
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

describe("the studio's guard", () => {
  it("binds loopback and prints a URL with a random token", async () => {
    const studio = await studioOverOneConversation();
    const url = new URL(studio.url);
    expect(url.hostname).toBe("127.0.0.1");
    expect(url.searchParams.get("token")).toMatch(/^[\w-]{32}$/);
    const other = await studioOverOneConversation();
    expect(new URL(other.url).searchParams.get("token")).not.toBe(url.searchParams.get("token"));
  });

  it("refuses every request without the token, or with a wrong one: 401", async () => {
    const studio = await studioOverOneConversation();
    const url = new URL(studio.url);
    const token = url.searchParams.get("token")!;
    const base = `${url.origin}`;
    for (const path of [
      "/",
      "/app.js",
      "/app.css",
      "/api/info",
      "/api/conversations",
      "/api/conversation?id=one",
    ]) {
      expect((await fetch(`${base}${path}`)).status).toBe(401);
      expect((await fetch(`${base}${path}`, { headers: { "x-studio-token": `${token}x` } })).status).toBe(
        401,
      );
    }
    expect((await fetch(`${base}/?token=${token.slice(1)}`)).status).toBe(401);
    expect((await fetch(studio.url)).status).toBe(200);
    const list = await fetch(`${base}/api/conversations`, { headers: { "x-studio-token": token } });
    expect(list.status).toBe(200);
    expect(
      ((await list.json()) as { items: Array<{ conversationId: string }> }).items[0]?.conversationId,
    ).toBe("one");
  });

  it("takes the token in the query for the page and its files only: the API needs the header", async () => {
    const studio = await studioOverOneConversation();
    const url = new URL(studio.url);
    const token = url.searchParams.get("token")!;
    for (const path of ["/", "/app.js", "/app.css"])
      expect((await fetch(`${url.origin}${path}?token=${token}`)).status, path).toBe(200);
    for (const path of ["/api/info", "/api/conversations", "/api/conversation?id=one&source=0"]) {
      const inQuery = await fetch(`${url.origin}${path}${path.includes("?") ? "&" : "?"}token=${token}`);
      expect(inQuery.status, path).toBe(401);
      expect(await inQuery.text()).toContain("x-studio-token header only");
    }
  });

  it("warns once at start when bound to another address than loopback, through onWarning", async () => {
    await buildStudioPage();
    const folder = await mkdtemp(join(tmpdir(), "studio-exposed-"));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const warnings: string[] = [];
    const exposed = await startStudio({
      store: folder,
      host: "0.0.0.0",
      onWarning: (message) => warnings.push(message),
    });
    cleanups.push(() => exposed.close());
    const token = new URL(exposed.url).searchParams.get("token")!;
    await fetch(`${new URL(exposed.url).origin}/api/info`, { headers: { "x-studio-token": token } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("0.0.0.0");
    expect(warnings[0]).toContain("plain HTTP");
    expect(warnings[0]).not.toContain(token);
    const quiet: string[] = [];
    const local = await startStudio({ store: folder, onWarning: (message) => quiet.push(message) });
    cleanups.push(() => local.close());
    expect(quiet).toEqual([]);
  });

  it("refuses a foreign Host (DNS rebinding) and a foreign Origin (another site), token or not: 403", async () => {
    const studio = await studioOverOneConversation();
    const url = new URL(studio.url);
    const token = url.searchParams.get("token")!;
    const api = `${url.origin}/api/info`;
    expect((await raw(api, { host: `evil.example:${url.port}`, "x-studio-token": token })).status).toBe(403);
    expect(
      (await raw(api, { host: url.host, origin: "https://evil.example", "x-studio-token": token })).status,
    ).toBe(403);
    expect(
      (await raw(api, { host: url.host, "sec-fetch-site": "cross-site", "x-studio-token": token })).status,
    ).toBe(403);
    expect((await raw(api, { host: url.host, origin: url.origin, "x-studio-token": token })).status).toBe(
      200,
    );
    expect((await raw(api, { host: `localhost:${url.port}`, "x-studio-token": token })).status).toBe(200);
  });

  it("has no acting endpoints without createAgent: approvals and fork answer 404", async () => {
    const studio = await studioOverOneConversation();
    const url = new URL(studio.url);
    const token = url.searchParams.get("token")!;
    const headers = { "x-studio-token": token, "content-type": "application/json" };
    const info = await (await fetch(`${url.origin}/api/info`, { headers })).json();
    expect(info).toMatchObject({ canAct: false });
    for (const path of ["/api/approvals?id=one", "/api/fork?id=one"]) {
      const response = await fetch(`${url.origin}${path}`, { method: "POST", headers, body: "{}" });
      expect(response.status).toBe(404);
    }
  });

  it("shows credential-shaped text redacted, in messages and pending calls", async () => {
    await buildStudioPage();
    const folder = await mkdtemp(join(tmpdir(), "studio-secrets-"));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    await createJsonlHistoryStore({ path: join(folder, "leaky.jsonl") }).replace([
      { role: "user", content: "my key is sk-ant-api03-leakedleakedleaked and Bearer abcdefghijklmnop" },
    ]);
    const studio = await startStudio({ store: folder });
    cleanups.push(() => studio.close());
    const url = new URL(studio.url);
    const response = await fetch(`${url.origin}/api/conversation?source=0&id=leaky`, {
      headers: { "x-studio-token": url.searchParams.get("token")! },
    });
    const text = await response.text();
    expect(text).toContain("[redacted]");
    expect(text).not.toContain("leakedleakedleaked");
    expect(text).not.toContain("abcdefghijklmnop");
  });

  it("shows every credential shape redacted: OpenAI project and gateway keys, AWS key ids", async () => {
    await buildStudioPage();
    const folder = await mkdtemp(join(tmpdir(), "studio-shapes-"));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    await createJsonlHistoryStore({ path: join(folder, "shapes.jsonl") }).replace([
      { role: "user", content: CREDENTIAL_SAMPLES.map(({ shape, key }) => `${shape}: ${key}`).join("\n") },
      {
        role: "assistant",
        content: CREDENTIAL_SAMPLES.map(({ key }, index) => ({
          type: "text" as const,
          text: `[${index}] ${key}`,
        })),
      },
    ]);
    const studio = await startStudio({ store: folder });
    cleanups.push(() => studio.close());
    const url = new URL(studio.url);
    const headers = { "x-studio-token": url.searchParams.get("token")! };
    for (const path of [
      "/api/conversation?source=0&id=shapes",
      "/api/summary?source=0&id=shapes",
      "/api/conversations",
    ]) {
      const text = await (await fetch(`${url.origin}${path}`, { headers })).text();
      for (const { shape, piece } of CREDENTIAL_SAMPLES)
        expect(text, `${shape} in ${path}`).not.toContain(piece);
    }
    const window = (await (
      await fetch(`${url.origin}/api/conversation?source=0&id=shapes`, { headers })
    ).json()) as { messages: unknown };
    expect(JSON.stringify(window.messages)).toContain("[redacted]");
  });

  it("never prints a location's credentials", () => {
    expect(locationLabel("postgres://ada:s3cret-pw@db.internal:5432/app?schema=x")).not.toContain(
      "s3cret-pw",
    );
    expect(locationLabel("redis://:hunter2-token@cache:6379")).not.toContain("hunter2-token");
    expect(locationLabel("redis://cache:6379?password=hunter3")).not.toContain("hunter3");
  });
});
