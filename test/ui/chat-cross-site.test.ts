/**
 * createChatHandler's defaults against other sites, from real pages in headless Chromium (Debian's,
 * through playwright-core): the endpoint listens on 127.0.0.1, the attacker's page on `localhost`
 * (another site). A `no-cors` `text/plain` POST — no preflight — starts no run and records nothing;
 * a cross-site POST to the stop route does not stop a run someone else reads; the endpoint's own
 * page still chats. Listing the other origin (and text/plain) in the options lets it in.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Agent, createAgent } from "../../src/index";
import { type ChatHandlerOptions, createChatHandler, toNodeHandler } from "../../src/ui/index";
import { CHROMIUM } from "../studio/support";
import { mockServerPerTest } from "../support/mock-server";
import { userMessage } from "./chat-test-kit";

const server = mockServerPerTest();
const BROWSER_TEST = { timeout: 240_000 };
let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/** What the endpoint answered, as the server saw it. */
interface Seen {
  method: string;
  path: string;
  status: number;
  origin: string | undefined;
  site: string | undefined;
}

/** A node:http server on 127.0.0.1 (or `host`): `/api/chat…` is the handler, anything else `page`. */
async function serve(
  handle: (
    request: import("node:http").IncomingMessage,
    response: import("node:http").ServerResponse,
  ) => void,
): Promise<{ port: number; server: Server }> {
  const http = createServer(handle);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return { port: (http.address() as AddressInfo).port, server: http };
}

/** The chat endpoint at http://127.0.0.1:<port>/api/chat, its own page at `/`, every answer recorded. */
async function endpoint(options: Partial<ChatHandlerOptions> = {}) {
  const agents = new Map<string, Agent<unknown>>();
  const handler = createChatHandler({
    agent: ({ conversationId }) => {
      let agent = agents.get(conversationId);
      if (!agent) {
        agent = createAgent({
          model: "claude-test",
          apiKey: "test-key-1234",
          baseURL: server.url,
          includePartialMessages: true,
        });
        agents.set(conversationId, agent);
      }
      return agent;
    },
    ...options,
  });
  const node = toNodeHandler(handler);
  const seen: Seen[] = [];
  const { port, server: http } = await serve((request, response) => {
    if (!request.url?.startsWith("/api/chat")) {
      response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>own page</title>");
      return;
    }
    // Recorded once the status is sent (a streamed answer may stay open while the page ignores it).
    const record = () =>
      seen.push({
        method: request.method ?? "",
        path: request.url ?? "",
        status: response.statusCode,
        origin: request.headers.origin,
        site: request.headers["sec-fetch-site"] as string | undefined,
      });
    const writeHead = response.writeHead.bind(response);
    response.writeHead = ((...args: Parameters<typeof writeHead>) => {
      const result = writeHead(...args);
      record();
      return result;
    }) as typeof response.writeHead;
    node(request, response);
  });
  const close = async () => {
    await handler.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return { api: `http://127.0.0.1:${port}/api/chat`, port, agents, seen, close, handler };
}

/** The attacker's page: served from http://localhost:<port>/ — another site than 127.0.0.1. */
async function attackerPage() {
  const { port, server: http } = await serve((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>elsewhere</title>");
  });
  const page = await browser.newPage();
  await page.goto(`http://localhost:${port}/`);
  return {
    page,
    origin: `http://localhost:${port}`,
    close: async () => {
      await page.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** What a hostile page sends: a chat message as text/plain, no-cors (no preflight, cookies included). */
const NO_CORS_CHAT = async ([api, body]: [string, string]) => {
  await fetch(api, {
    method: "POST",
    mode: "no-cors",
    credentials: "include",
    headers: { "content-type": "text/plain" },
    body,
  });
};

/** Waits until the endpoint saw `count` requests (each answer is recorded when it finishes). */
async function seenAtLeast(seen: Seen[], count: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (seen.length < count) {
    if (Date.now() > deadline) throw new Error(`saw ${seen.length} requests, waiting for ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("createChatHandler from another site, in Chromium", BROWSER_TEST, () => {
  it("refuses a no-cors text/plain POST from another origin: no run, nothing recorded", async () => {
    const chat = await endpoint();
    const attacker = await attackerPage();
    try {
      const body = JSON.stringify({ id: "victim", messages: [userMessage("transfer everything")] });
      await attacker.page.evaluate(NO_CORS_CHAT, [chat.api, body] as [string, string]);
      // The same with application/json is not a simple request: Chromium preflights it and stops.
      await seenAtLeast(chat.seen, 1);
      expect(chat.seen[0]).toMatchObject({
        method: "POST",
        status: 403,
        origin: attacker.origin,
        site: "cross-site",
      });
      expect(server.requests).toHaveLength(0);
      expect(chat.agents.size).toBe(0);
    } finally {
      await attacker.close();
      await chat.close();
    }
  });

  it("does not let another site stop a run someone is reading", async () => {
    const chat = await endpoint();
    const attacker = await attackerPage();
    try {
      server.enqueue({ content: "A long and careful answer.", delayMs: 1_500 });
      const response = await fetch(chat.api, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: "busy", messages: [userMessage("Think it over")] }),
      });
      expect(response.status).toBe(200);
      await attacker.page.evaluate(async (stop: string) => {
        await fetch(stop, { method: "POST", mode: "no-cors", credentials: "include" });
      }, `${chat.api}/busy/stop`);
      await seenAtLeast(chat.seen, 1);
      const stopAttempt = chat.seen.find((entry) => entry.path.endsWith("/stop"));
      expect(stopAttempt).toMatchObject({ status: 403, site: "cross-site" });
      const text = await response.text();
      expect(text).toContain('"end":"success"');
      expect(text).toContain("careful answer");
    } finally {
      await attacker.close();
      await chat.close();
    }
  });

  it("still serves its own page: a same-origin JSON chat and stop from 127.0.0.1 work", async () => {
    const chat = await endpoint();
    const page = await browser.newPage();
    try {
      await page.goto(`http://127.0.0.1:${chat.port}/`);
      server.enqueue({ content: "Hello from home." }, { content: "A long essay.", delayMs: 30_000 });
      const home = await page.evaluate(async (api: string) => {
        const chat = (id: string, text: string) =>
          fetch(api, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              id,
              messages: [{ id: `u-${id}`, role: "user", parts: [{ type: "text", text }] }],
            }),
          });
        const first = await chat("home", "hi");
        const firstText = await first.text();
        // A second run, stopped by the page's stop button while the model is still thinking.
        const second = await chat("essay", "write an essay");
        const stop = await fetch(`${api}/essay/stop`, { method: "POST" });
        return { status: first.status, text: firstText, stop: stop.status, stopped: await second.text() };
      }, chat.api);
      expect(home).toMatchObject({ status: 200, stop: 204 });
      expect(home.text).toContain("Hello from home.");
      expect(home.stopped).toContain('"end":"interrupted"');
    } finally {
      await page.close();
      await chat.close();
    }
  });

  it("lets a listed origin in: allowedOrigins (and text/plain in allowedContentTypes)", async () => {
    const attacker = await attackerPage();
    const chat = await endpoint({
      allowedOrigins: [attacker.origin],
      allowedContentTypes: ["application/json", "text/plain"],
    });
    try {
      server.enqueue({ content: "Hello, partner site." });
      const body = JSON.stringify({ id: "partner", messages: [userMessage("hello")] });
      await attacker.page.evaluate(NO_CORS_CHAT, [chat.api, body] as [string, string]);
      await seenAtLeast(chat.seen, 1);
      expect(chat.seen[0]).toMatchObject({ status: 200, origin: attacker.origin });
      const deadline = Date.now() + 60_000;
      while ((await chat.agents.get("partner")?.getHistory())?.length !== 2) {
        if (Date.now() > deadline) throw new Error("the partner's run did not finish");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(server.requests).toHaveLength(1);
    } finally {
      await attacker.close();
      await chat.close();
    }
  });
});
