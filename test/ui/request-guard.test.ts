/**
 * createChatHandler's request checks, called directly: other sites refused (403) unless listed,
 * other content types refused (415) unless listed, malformed chat ids a 400 — before any Agent.
 */
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/index";
import { type ChatHandlerOptions, createChatHandler, toNodeHandler } from "../../src/ui/index";

const API = "http://127.0.0.1:3000/api/chat";
const BODY = JSON.stringify({ id: "c1", messages: [] });

function handler(options: Partial<ChatHandlerOptions> = {}) {
  const built: string[] = [];
  const handle = createChatHandler({
    agent: ({ conversationId }) => {
      built.push(conversationId);
      throw new Error("no agent in this test");
    },
    ...options,
  });
  return { handle, built };
}

async function answer(handle: (request: Request) => Promise<Response>, request: Request) {
  const response = await handle(request);
  const body =
    response.status === 204 ? undefined : ((await response.json()) as { error?: { code: string } });
  return { status: response.status, code: body?.error?.code };
}

const chat = (headers: Record<string, string>, url = API) =>
  new Request(url, { method: "POST", headers, body: BODY });

describe("createChatHandler's request checks", () => {
  it("refuses another site's origin, a cross-site fetch and an opaque origin; takes its own", async () => {
    const { handle, built } = handler();
    const json = { "content-type": "application/json" };
    expect(await answer(handle, chat({ ...json, origin: "http://localhost:3000" }))).toEqual({
      status: 403,
      code: "cross_site_request",
    });
    expect(await answer(handle, chat({ ...json, origin: "https://evil.example" }))).toEqual({
      status: 403,
      code: "cross_site_request",
    });
    expect(await answer(handle, chat({ ...json, origin: "null" }))).toEqual({
      status: 403,
      code: "cross_site_request",
    });
    expect(await answer(handle, chat({ ...json, "sec-fetch-site": "cross-site" }))).toEqual({
      status: 403,
      code: "cross_site_request",
    });
    expect(
      await answer(
        handle,
        new Request(`${API}/c1/stop`, { method: "POST", headers: { "sec-fetch-site": "cross-site" } }),
      ),
    ).toEqual({ status: 403, code: "cross_site_request" });
    expect(
      await answer(
        handle,
        new Request(`${API}/c1/messages`, { headers: { "sec-fetch-site": "cross-site" } }),
      ),
    ).toEqual({ status: 403, code: "cross_site_request" });
    // Its own origin (any scheme: a proxy may end TLS), or no browser headers at all: on to the body checks.
    expect(await answer(handle, chat({ ...json, origin: "http://127.0.0.1:3000" }))).toEqual({
      status: 400,
      code: "no_user_message",
    });
    expect(
      await answer(
        handle,
        chat({ ...json, origin: "https://127.0.0.1:3000", "sec-fetch-site": "same-origin" }),
      ),
    ).toEqual({ status: 400, code: "no_user_message" });
    expect(await answer(handle, chat(json))).toEqual({ status: 400, code: "no_user_message" });
    expect(built).toEqual([]);
  });

  it("refuses other content types with 415; the stop route may have no body", async () => {
    const { handle } = handler();
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonp",
      "",
    ]) {
      expect(await answer(handle, chat({ "content-type": type })), type).toEqual({
        status: 415,
        code: "unsupported_media_type",
      });
    }
    expect(await answer(handle, chat({ "content-type": "Application/JSON; charset=utf-8" }))).toEqual({
      status: 400,
      code: "no_user_message",
    });
    expect(await answer(handle, new Request(`${API}/c1/stop`, { method: "POST" }))).toEqual({
      status: 204,
      code: undefined,
    });
    expect(
      await answer(
        handle,
        new Request(`${API}/c1/stop`, {
          method: "POST",
          headers: { "content-type": "text/plain" },
          body: "x",
        }),
      ),
    ).toEqual({ status: 415, code: "unsupported_media_type" });
  });

  it("lets listed origins and content types in, or every origin with *", async () => {
    const listed = handler({
      allowedOrigins: ["https://App.example.com:443/"],
      allowedContentTypes: ["application/json", "text/plain"],
    });
    expect(
      await answer(listed.handle, chat({ "content-type": "text/plain", origin: "https://app.example.com" })),
    ).toEqual({ status: 400, code: "no_user_message" });
    expect(
      await answer(
        listed.handle,
        chat({ "content-type": "text/plain", origin: "https://other.example.com" }),
      ),
    ).toEqual({ status: 403, code: "cross_site_request" });
    const any = handler({ allowedOrigins: ["*"] });
    expect(
      await answer(
        any.handle,
        chat({
          "content-type": "application/json",
          origin: "https://anyone.example",
          "sec-fetch-site": "cross-site",
        }),
      ),
    ).toEqual({ status: 400, code: "no_user_message" });
    expect(() => handler({ allowedOrigins: ["not an origin"] })).toThrow(InvalidOptionError);
  });

  it("answers a malformed percent-escape in a route's chat id with 400 invalid_conversation_id", async () => {
    const { handle } = handler();
    for (const path of ["alice-%E0%A4%A/messages", "%/stream", "%ZZ/stop", "a%C0%80/messages"]) {
      const method = path.endsWith("stop") ? "POST" : "GET";
      expect(await answer(handle, new Request(`${API}/${path}`, { method })), path).toEqual({
        status: 400,
        code: "invalid_conversation_id",
      });
    }
  });
});

describe("toNodeHandler", () => {
  it("answers a request target or Host that makes no URL with 400, not 500", async () => {
    const { createServer, request } = await import("node:http");
    const { handle } = handler();
    const server = createServer(toNodeHandler(handle));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as import("node:net").AddressInfo).port;
    const status = (path: string, host: string) =>
      new Promise<number>((resolve, reject) => {
        const sent = request({ host: "127.0.0.1", port, path, headers: { host } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        sent.on("error", reject);
        sent.end();
      });
    try {
      expect(await status("//[", `127.0.0.1:${port}`)).toBe(400);
      expect(await status("/api/chat/x/messages", "[")).toBe(400);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
