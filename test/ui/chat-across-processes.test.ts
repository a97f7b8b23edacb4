/**
 * Two server processes over one durable store (JSONL file, SQLite file, PostgreSQL, Redis), each a
 * `createChatHandler` with no lock option: while one runs a conversation, the other answers 409
 * `conversation_busy` and records nothing (the store's run claim); once the run ended, the other
 * runs it. A server killed mid-run leaves its claim, which holds until its time to live passes.
 * Runs end when the test says so (a `release` line), never by a clock.
 */
import { basename } from "node:path";
import { describe, expect, it } from "vitest";
import { openStore } from "../fixtures/stores/open-store";
import type { StoreLocation } from "../fixtures/stores/store-workload";
import { type RunningChild, startChild } from "../integrations/stores/child-runner";
import {
  PROCESS_TEST_TIMEOUT_MS,
  storeLocations,
  useProcessTestEnvironment,
} from "../integrations/stores/process-test-environment";
import { submitMessageBody } from "./chat-test-kit";

const env = useProcessTestEnvironment("ui_claims", "test/fixtures/ui/chat-server-child.ts");
const locations = storeLocations(env);

async function startServer(location: StoreLocation): Promise<{ child: RunningChild; api: string }> {
  // A time to live far beyond the test: a claim left by a killed server must not expire while a busy
  // machine starts the next one (renewal itself is tested in integrations/stores/run-claims).
  const child = startChild(env.childScript, { location, runClaimTtlMs: 600_000 });
  const line = await child.waitForLine((text) => text.includes('"url"'));
  return { child, api: (JSON.parse(line) as { url: string }).url };
}

function send(api: string, conversationId: string, text: string): Promise<Response> {
  return fetch(api, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: submitMessageBody(conversationId, text),
  });
}

/** Every `data:` chunk of an SSE body, read to its end. */
async function chunksOf(
  response: Response,
): Promise<Array<{ type: string; messageMetadata?: { end?: string } }>> {
  const text = await response.text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice(6)));
}

/** The stored conversation, read from the store itself (an Agent would repair the running tail). */
async function storedHistory(location: StoreLocation) {
  const store = openStore(location);
  try {
    return await store.load();
  } finally {
    await store.close();
  }
}

/** The conversation's id in the chat requests: the database stores' own, a JSONL file's name. */
function conversationOf(location: StoreLocation): string {
  return "conversationId" in location
    ? location.conversationId
    : basename(location.path).replace(/\.jsonl$/, "");
}

describe.each(["jsonl", "sqlite", "postgres", "redis"] as const)(
  "chat runs across processes over %s",
  (kind) => {
    it(
      "a second server answers 409 while the first runs the conversation, and runs it once the first ended",
      async () => {
        const location = locations[kind](`busy-${kind}`);
        const first = await startServer(location);
        const second = await startServer(location);
        const conversationId = conversationOf(location);
        const running = send(first.api, conversationId, "one");
        await first.child.waitForLine((line) => line.includes('"holding"'));
        const before = await storedHistory(location);

        const refused = await send(second.api, conversationId, "two");
        expect(refused.status).toBe(409);
        expect(await refused.json()).toMatchObject({ error: { code: "conversation_busy" } });
        // The other server's history route does not load (and so repair) the running conversation either.
        const page = await fetch(`${second.api}/${encodeURIComponent(conversationId)}/messages`);
        expect(page.status).toBe(409);
        expect(await storedHistory(location)).toEqual(before); // nothing recorded

        first.child.process.stdin.write("release\n");
        const firstChunks = await chunksOf(await running);
        expect(
          firstChunks.at(-1),
          JSON.stringify(firstChunks.filter((chunk) => chunk.type === "error")),
        ).toMatchObject({ type: "finish", messageMetadata: { end: "success" } });

        second.child.process.stdin.write("release\n");
        const accepted = await send(second.api, conversationId, "two");
        expect(accepted.status).toBe(200);
        const secondChunks = await chunksOf(accepted);
        expect(secondChunks.at(-1)).toMatchObject({ type: "finish", messageMetadata: { end: "success" } });
        const prompts = (await storedHistory(location)).filter(
          (message) => message.role === "user" && typeof message.content === "string",
        );
        expect(prompts.map((message) => message.content)).toEqual(["one", "two"]);
        first.child.process.kill("SIGKILL");
        second.child.process.kill("SIGKILL");
      },
      PROCESS_TEST_TIMEOUT_MS,
    );

    it(
      "a server killed mid-run leaves its claim: another server answers 409 (the claim expires after its time to live)",
      async () => {
        const location = locations[kind](`killed-${kind}`);
        const conversationId = conversationOf(location);
        const first = await startServer(location);
        const running = send(first.api, conversationId, "one").catch(() => undefined);
        await first.child.waitForLine((line) => line.includes('"holding"'));
        first.child.process.kill("SIGKILL");
        await first.child.exited;
        await running;
        const second = await startServer(location);
        const refused = await send(second.api, conversationId, "two");
        expect(refused.status).toBe(409);
        second.child.process.kill("SIGKILL");
      },
      PROCESS_TEST_TIMEOUT_MS,
    );
  },
);
