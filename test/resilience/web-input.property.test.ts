/**
 * Bad input answers 4xx, never 500, on both web surfaces: fast-check throws ids (malformed
 * percent-escapes, paths, NUL, 300 characters, any Unicode), query strings and bodies (any JSON, any
 * bytes, any content type) at every route of the studio (over real HTTP, a JSONL folder and a
 * SQLite file, with createAgent) and of createChatHandler (agents over JSONL files, a mock model
 * that answers everything). Bounded: a fixed number of runs and a time limit per property.
 */

import { mkdir } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildStudioPage } from "../../scripts/build-studio-page.mjs";
import { createAgent, createJsonlHistoryStore } from "../../src/index";
import { createSqliteHistoryStore } from "../../src/integrations/stores/sqlite";
import { type Studio, startStudio } from "../../src/studio/index";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing/index";
import { type ChatHandler, createChatHandler } from "../../src/ui/index";
import { sharedTemporaryFolder } from "../support/temporary-folders";

/** Liveness bound of one property (fast-check stops starting new runs after it). */
const TIME_LIMIT_MS = 40_000;
const PROPERTY_TIMEOUT = 120_000;

/** A raw path segment: what an attacker may put between two slashes (already percent-encoded, or broken). */
const rawSegment = fc.oneof(
  fc.constantFrom(
    "%E0%A4%A",
    "alice-%E0%A4%A",
    "%",
    "%ZZ",
    "%C0%80",
    "%00",
    "..",
    "%2e%2e",
    "..%2Foutside%2Fvictim",
    "%2Ftmp%2Fx",
    "alice%2F..%2Falice",
    "a".repeat(300),
    "%F0%9F%98%80".repeat(60),
    "alice",
    "one",
  ),
  fc.string({ maxLength: 40, unit: "binary" }).map((text) => encodeURIComponent(text)),
  fc.string({ maxLength: 12 }).map((text) => `${encodeURIComponent(text)}%${text.length % 2 ? "E" : ""}`),
);

/** A value for a query parameter or an id, raw (encoded when sent). */
const value = fc.oneof(
  fc.constantFrom(
    "0",
    "1",
    "-1",
    "2",
    "1e3",
    "NaN",
    "",
    "alice",
    "one",
    "a".repeat(300),
    "\u0000",
    "../outside/victim",
    "/etc/passwd",
  ),
  fc.string({ maxLength: 30, unit: "binary" }),
  fc.integer().map(String),
);

/** A query string made of raw pieces (some malformed). */
const queryString = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        "source",
        "id",
        "from",
        "limit",
        "offset",
        "text",
        "model",
        "status",
        "c",
        "token",
        "x",
      ),
      fc.oneof(value.map(encodeURIComponent), rawSegment),
    ),
    { maxLength: 5 },
  )
  .map((pairs) => pairs.map(([key, item]) => `${key}=${item}`).join("&"));

/** A body: any JSON, a plausible one with hostile fields, or bytes that are not JSON. */
const body = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc
    .record({
      decisions: fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.dictionary(
          fc.string(),
          fc.record({ approved: fc.boolean(), message: fc.option(fc.string(), { nil: undefined }) }),
        ),
      ),
    })
    .map((item) => JSON.stringify(item)),
  fc
    .record({ at: fc.oneof(fc.integer(), fc.double(), fc.string()), newId: fc.oneof(value, fc.jsonValue()) })
    .map((item) => JSON.stringify(item)),
  fc.string({ maxLength: 60, unit: "binary" }),
  fc.uint8Array({ maxLength: 60 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
);

const contentType = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "",
  "multipart/form-data",
  "application/x-www-form-urlencoded",
);

/** A path for an id that keeps only what node:http accepts in a request line (no spaces, no controls). */
function requestPath(path: string): string {
  return path.replace(/[^\x21-\x7e]/g, (character) => encodeURIComponent(character));
}

describe("the studio never answers bad input with 500", () => {
  const folder = sharedTemporaryFolder("fuzz-studio-");
  let studio: Studio;
  let server: MockAnthropicServer;
  let token: string;
  let port: number;

  beforeAll(async () => {
    await buildStudioPage();
    server = await startMockAnthropicServer({ handler: () => ({ content: "ok" }) });
    const sessions = join(folder, "sessions");
    await mkdir(sessions);
    await createJsonlHistoryStore({ path: join(sessions, "alice.jsonl") }).replace([
      { role: "user", content: "hello" },
      { role: "assistant", content: [{ type: "text", text: "hi" }] },
    ]);
    const sqlite = join(folder, "db.sqlite");
    const database = new Database(sqlite);
    await createSqliteHistoryStore({ database, conversationId: "one" }).replace([
      { role: "user", content: "x" },
    ]);
    database.close();
    studio = await startStudio({
      stores: [sessions, `sqlite:${sqlite}`],
      createAgent: ({ conversationId }) =>
        createAgent({
          model: "claude-test",
          apiKey: "fuzz-key-12345678",
          baseURL: server.url,
          historyStore: createJsonlHistoryStore({ path: join(sessions, `${conversationId}.jsonl`) }),
        }),
    });
    const url = new URL(studio.url);
    token = url.searchParams.get("token")!;
    port = Number(url.port);
  }, PROPERTY_TIMEOUT);

  afterAll(async () => {
    await studio?.close();
    await server?.close();
  });

  function send(method: string, path: string, type: string, payload?: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { "x-studio-token": token, host: `127.0.0.1:${port}` };
      if (type) headers["content-type"] = type;
      const request = httpRequest(
        { host: "127.0.0.1", port, method, path: requestPath(path), headers },
        (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode ?? 0));
        },
      );
      request.on("error", reject);
      request.end(payload);
    });
  }

  it(
    "answers every route, id, query string and body with a status below 500",
    async () => {
      const route = fc.constantFrom(
        ["GET", "/api/info"],
        ["GET", "/api/conversations"],
        ["GET", "/api/conversation"],
        ["GET", "/api/summary"],
        ["GET", "/api/version"],
        ["GET", "/api/running"],
        ["POST", "/api/approvals"],
        ["POST", "/api/fork"],
        ["GET", "/api/nothing"],
        ["GET", "/api/evals"],
        ["GET", "/api/eval-run"],
        ["DELETE", "/api/conversation"],
        ["GET", "/"],
        ["POST", "/"],
        ["GET", "/app.js"],
        ["GET", "//["],
        ["POST", "//[/api/approvals"],
      );
      await fc.assert(
        fc.asyncProperty(
          route,
          queryString,
          body,
          contentType,
          async ([method, path], query, payload, type) => {
            const status = await send(
              method,
              `${path}?${query}`,
              type,
              method === "POST" ? payload : undefined,
            );
            expect({ method, path, query, payload, status }).toMatchObject({ status: expect.any(Number) });
            if (status >= 500)
              throw new Error(`${method} ${path}?${query} ${JSON.stringify(payload)} → ${status}`);
          },
        ),
        { numRuns: 300, interruptAfterTimeLimit: TIME_LIMIT_MS },
      );
    },
    PROPERTY_TIMEOUT,
  );
});

describe("createChatHandler never answers bad input with 500", () => {
  const folder = sharedTemporaryFolder("fuzz-chat-");
  let handler: ChatHandler;
  let server: MockAnthropicServer;

  beforeAll(async () => {
    server = await startMockAnthropicServer({ handler: () => ({ content: "ok" }) });
    handler = createChatHandler({
      agent: ({ conversationId }) =>
        createAgent({
          model: "claude-test",
          apiKey: "fuzz-key-12345678",
          baseURL: server.url,
          historyStore: createJsonlHistoryStore({ path: join(folder, `${conversationId}.jsonl`) }),
        }),
      reconnectGraceMs: 0,
    });
  });

  afterAll(async () => {
    await handler?.close();
    await server?.close();
  });

  /** A chat body: any JSON, or useChat's shape with hostile ids, roles, parts and triggers. */
  const chatBody = fc.oneof(
    body,
    fc
      .record({
        id: fc.oneof(value, fc.jsonValue()),
        messages: fc.array(
          fc.record({
            id: fc.oneof(fc.string(), fc.integer()),
            role: fc.constantFrom("user", "assistant", "system", "tool", 3),
            parts: fc.array(
              fc.oneof(
                fc.record({ type: fc.constant("text"), text: fc.oneof(fc.string(), fc.integer()) }),
                fc.record({
                  type: fc.constantFrom("tool-x", "dynamic-tool"),
                  state: fc.constantFrom("approval-responded", "output-available"),
                  toolCallId: fc.oneof(fc.string(), fc.constant(undefined)),
                  approval: fc.record({
                    id: fc.string(),
                    approved: fc.oneof(fc.boolean(), fc.string()),
                    reason: fc.jsonValue(),
                  }),
                }),
                fc.jsonValue(),
              ),
              { maxLength: 3 },
            ),
          }),
          { maxLength: 3 },
        ),
        trigger: fc.constantFrom("submit-message", "regenerate-message", "x", undefined),
        messageId: fc.option(fc.string(), { nil: undefined }),
      })
      .map((item) => JSON.stringify(item)),
  );

  it(
    "answers every route, id, query string and body with a status below 500",
    async () => {
      const request = fc.oneof(
        fc.tuple(fc.constant("POST"), fc.constant(""), chatBody, contentType),
        fc.tuple(
          fc.constantFrom("GET", "POST", "PUT"),
          rawSegment.map((id) => `/${id}/messages`),
          chatBody,
          contentType,
        ),
        fc.tuple(
          fc.constantFrom("GET", "POST"),
          rawSegment.map((id) => `/${id}/stream`),
          chatBody,
          contentType,
        ),
        fc.tuple(
          fc.constantFrom("POST", "GET"),
          rawSegment.map((id) => `/${id}/stop`),
          chatBody,
          fc.constantFrom("", "application/json", "text/plain"),
        ),
        fc.tuple(
          fc.constantFrom("GET", "POST"),
          rawSegment.map((id) => `/${id}`),
          chatBody,
          contentType,
        ),
      );
      await fc.assert(
        fc.asyncProperty(request, queryString, async ([method, path, payload, type], query) => {
          const headers: Record<string, string> = type ? { "content-type": type } : {};
          const response = await handler(
            new Request(`http://127.0.0.1:3000/api/chat${path}?${query}`, {
              method,
              headers,
              ...(method === "GET" ? {} : { body: payload }),
            }),
          );
          await response.body?.cancel();
          if (response.status >= 500)
            throw new Error(`${method} ${path}?${query} ${JSON.stringify(payload)} → ${response.status}`);
        }),
        { numRuns: 400, interruptAfterTimeLimit: TIME_LIMIT_MS },
      );
    },
    PROPERTY_TIMEOUT,
  );
});
