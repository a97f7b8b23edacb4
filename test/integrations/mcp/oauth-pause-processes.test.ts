/**
 * The server app's OAuth pause across OS processes, over JSONL, SQLite, PostgreSQL and Redis (real
 * services; the token store on the matching backend): a first process pauses before the model is
 * called and is killed with SIGKILL; the test's "browser" follows the authorization URL to the
 * app's callback; a second process — the app's callback route — finishes it with
 * `finishMcpAuthorization` from the token store alone (the PKCE verifier and state were kept there);
 * a third answers `accept`, connects with the stored tokens, and the model's tool call gets the
 * protected server's real result. A callback replayed in a fourth process is refused.
 */
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PendingInput } from "../../../src/messages/pending-inputs";
import type { ModelMessage } from "../../../src/messages/types";
import { type OAuthFixture, startOAuthMcpServer } from "../../fixtures/mcp/oauth-server";
import type { TokenLocation } from "../../fixtures/stores/oauth-pause-child";
import { expectWellFormed } from "../../loop/support";
import { startChild } from "../stores/child-runner";
import {
  PROCESS_TEST_TIMEOUT_MS,
  storeLocations,
  useProcessTestEnvironment,
} from "../stores/process-test-environment";
import { CALLBACK, followAuthorization } from "./oauth-pause-kit";

const env = useProcessTestEnvironment("oauthproc", "test/fixtures/stores/oauth-pause-child.ts");
const locations = storeLocations(env);
const tokenTable = `agent_lattice_oauthproc_tokens_${env.schema.slice(-10)}`;

const tokenLocations: Record<string, () => TokenLocation> = {
  jsonl: () => ({ kind: "file", path: join(env.folder, "mcp-tokens.json") }),
  sqlite: () => ({ kind: "sqlite", path: join(env.folder, "tokens.db") }),
  postgres: () => ({ kind: "postgres", connectionString: env.postgresUrl, table: tokenTable }),
  redis: () => ({ kind: "redis", url: env.redisUrl, keyPrefix: `${env.keyPrefix}tokens:` }),
};

let server: OAuthFixture;
beforeAll(async () => {
  server = await startOAuthMcpServer();
});
afterAll(async () => {
  await server?.close();
  const pool = new pg.Pool({ connectionString: env.postgresUrl });
  await pool.query(`DROP TABLE IF EXISTS ${tokenTable}`);
  await pool.end();
});

interface Resumed {
  subtype: string;
  result: string;
  pending: PendingInput[];
  history: ModelMessage[];
}

/** Runs one phase in its own process; resolves with its JSON line (and, but for "pause", exit 0). */
async function phase<R>(config: Record<string, unknown>): Promise<R> {
  const child = startChild(env.childScript, config);
  const line = await child.waitForLine((text) => text.startsWith("{"));
  const { code, signal } = await child.exited;
  if (config.phase === "pause") expect(signal, child.stderr()).toBe("SIGKILL");
  else expect(code, child.stderr()).toBe(0);
  return JSON.parse(line) as R;
}

describe.each(Object.keys(locations) as Array<keyof typeof locations>)(
  "the OAuth pause over a %s store, across processes",
  (kind) => {
    it(
      "pauses and dies, the callback is finished by another process, a third resumes with the real result",
      async () => {
        const base = {
          location: locations[kind](`oauth-${kind}`),
          tokens: tokenLocations[kind]!(),
          url: server.url,
          callback: CALLBACK,
        };
        const paused = await phase<{ subtype: string; pending: PendingInput[]; requests: number }>({
          ...base,
          phase: "pause",
        });
        expect(paused.subtype).toBe("requires_input");
        expect(paused.requests).toBe(0); // paused before the model was called
        expect(paused.pending).toEqual([
          expect.objectContaining({
            kind: "authorization",
            server: "crm",
            mode: "url",
            id: "authorization/crm",
          }),
        ]);
        const authorizationUrl = paused.pending[0]!.url!;
        expect(new URL(authorizationUrl).searchParams.get("code_challenge_method")).toBe("S256");
        expect(new URL(authorizationUrl).searchParams.get("redirect_uri")).toBe(CALLBACK);

        const callbackUrl = await followAuthorization(authorizationUrl);
        expect(callbackUrl.startsWith(CALLBACK)).toBe(true);
        const finished = await phase<{ server?: string; errorName?: string }>({
          ...base,
          phase: "finish",
          callbackUrl,
        });
        expect(finished).toEqual({ server: "crm" });

        const resumed = await phase<Resumed>({ ...base, phase: "resume" });
        expect(resumed.pending.map((input) => input.id)).toEqual(["authorization/crm"]);
        expect(resumed).toMatchObject({ subtype: "success", result: "You are an authorized user." });
        const results = resumed.history.flatMap((message) =>
          Array.isArray(message.content)
            ? message.content.filter((block) => block.type === "tool_result")
            : [],
        );
        expect(results).toEqual([
          expect.objectContaining({
            tool_use_id: "toolu_1",
            content: [{ type: "text", text: "an authorized user" }],
          }),
        ]);
        expectWellFormed(resumed.history);
        const stored = JSON.stringify(resumed.history);
        for (const secret of server.issuedSecrets()) expect(stored).not.toContain(secret);
        expect(stored).not.toContain(new URL(callbackUrl).searchParams.get("code")!);

        // The same callback again, from yet another process: its state was taken once.
        const replayed = await phase<{ errorName?: string; reason?: string }>({
          ...base,
          phase: "finish",
          callbackUrl,
        });
        expect(replayed).toEqual({ errorName: "McpAuthorizationError", reason: "unknown_state" });
      },
      PROCESS_TEST_TIMEOUT_MS,
    );
  },
);
