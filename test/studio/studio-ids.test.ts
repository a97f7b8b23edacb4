/**
 * The studio's one id check: every route refuses an id that could name a conversation outside its
 * stores — `../outside/victim` (percent-encoded), an absolute path, `alice/../alice`, a NUL, an id
 * too long for a file name — with a 404 (a new fork id: 400), before a store is opened or
 * `createAgent` is called. The outside conversation's file is byte-identical after every attempt.
 */
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildStudioPage } from "../../scripts/build-studio-page.mjs";
import { createAgent, createJsonlHistoryStore, type ModelMessage } from "../../src/index";
import { isSafeConversationId } from "../../src/studio/conversation-id";
import { type Studio, startStudio } from "../../src/studio/index";

/** A conversation paused on a call nobody answered: loading it would append a repair. */
const PAUSED: ModelMessage[] = [
  { role: "user", content: "delete the files" },
  {
    role: "assistant",
    content: [{ type: "tool_use", id: "toolu_victim", name: "remove", input: { path: "/" } }],
  },
];

let root: string;
let studio: Studio;
const factoryCalls: string[] = [];

beforeAll(async () => {
  await buildStudioPage();
  root = await mkdtemp(join(tmpdir(), "studio-ids-"));
  const sessions = join(root, "sessions");
  await mkdir(sessions);
  await mkdir(join(root, "outside"));
  await createJsonlHistoryStore({ path: join(root, "outside", "victim.jsonl") }).replace(PAUSED);
  await createJsonlHistoryStore({ path: join(sessions, "alice.jsonl") }).replace([
    { role: "user", content: "hello" },
    { role: "assistant", content: [{ type: "text", text: "hi" }] },
  ]);
  studio = await startStudio({
    store: sessions,
    // The factory the docs show: <folder>/<id>.jsonl.
    createAgent: ({ conversationId }) => {
      factoryCalls.push(conversationId);
      return createAgent({
        model: "claude-test",
        apiKey: "unused-key-1234",
        baseURL: "http://127.0.0.1:9",
        historyStore: createJsonlHistoryStore({ path: join(sessions, `${conversationId}.jsonl`) }),
      });
    },
  });
});

afterAll(async () => {
  await studio?.close();
  await rm(root, { recursive: true, force: true });
});

/** The forms of an id that must never reach a store or the factory (raw, before encoding). */
function hostileIds(): string[] {
  return [
    "../outside/victim",
    join(root, "outside", "victim"),
    "alice/../alice",
    "alice/./alice",
    "..",
    "alice\u0000",
    "\u0000",
    "..\\outside\\victim",
    "C:/outside/victim",
    "a".repeat(300),
  ];
}

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const url = new URL(studio.url);
  return fetch(`${url.origin}${path}`, {
    ...init,
    headers: {
      "x-studio-token": url.searchParams.get("token")!,
      "content-type": "application/json",
      ...init.headers,
    },
  });
}

describe("the studio's id check", () => {
  it("says which ids are safe", () => {
    for (const id of hostileIds()) expect(isSafeConversationId(id), JSON.stringify(id)).toBe(false);
    for (const id of ["alice", "user-7:chat.2", "team/alice", "toolu_01ABC", "a".repeat(200)])
      expect(isSafeConversationId(id), id).toBe(true);
  });

  it("refuses every hostile id on every route before the factory is called or anything is loaded", async () => {
    const victim = join(root, "outside", "victim.jsonl");
    const before = await readFile(victim);
    const aliceBefore = await readFile(join(root, "sessions", "alice.jsonl"));
    for (const id of hostileIds()) {
      const q = `source=0&id=${encodeURIComponent(id)}`;
      const answers: Array<[string, Response]> = [
        ["conversation", await call(`/api/conversation?${q}`)],
        ["summary", await call(`/api/summary?${q}`)],
        ["version", await call(`/api/version?${q}`)],
        ["running", await call(`/api/running?c=${encodeURIComponent(`0/${id}`)}`)],
        [
          "approvals",
          await call(`/api/approvals?${q}`, {
            method: "POST",
            body: JSON.stringify({ decisions: { toolu_victim: { approved: true } } }),
          }),
        ],
        ["fork", await call(`/api/fork?${q}`, { method: "POST", body: JSON.stringify({ at: 0 }) })],
      ];
      for (const [route, response] of answers) {
        expect({ route, id: id.slice(0, 40), status: response.status }).toEqual({
          route,
          id: id.slice(0, 40),
          status: 404,
        });
      }
    }
    expect(factoryCalls).toEqual([]);
    expect(await readFile(victim)).toEqual(before);
    expect(await readFile(join(root, "sessions", "alice.jsonl"))).toEqual(aliceBefore);
  });

  it("refuses a hostile new id for a fork: 400, nothing written outside", async () => {
    for (const newId of hostileIds()) {
      const response = await call("/api/fork?source=0&id=alice", {
        method: "POST",
        body: JSON.stringify({ at: 1, newId }),
      });
      expect({ newId: newId.slice(0, 40), status: response.status }).toEqual({
        newId: newId.slice(0, 40),
        status: 400,
      });
    }
    const taken = await call("/api/fork?source=0&id=alice", {
      method: "POST",
      body: JSON.stringify({ at: 1, newId: "alice-copy" }),
    });
    expect(taken.status).toBe(200);
    expect(await readFile(join(root, "outside", "victim.jsonl"), "utf8")).not.toContain("alice");
  });
});
