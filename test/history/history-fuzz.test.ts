/**
 * Fuzz: 1,000 random prompts and tool outputs per store (JSONL, SQLite, PostgreSQL, Redis) —
 * valid ones, and ones holding what JSON cannot keep (functions, Symbols, BigInts, NaN, class
 * instances, getters that throw, `undefined` in arrays, lone surrogates, blank text, odd shapes).
 * After each: a prompt is answered or refused with `InvalidOptionError` (nothing else),
 * `getHistory()` works and is well-formed; every 50 the store (read back fresh) equals memory,
 * then `replaceHistory([])` starts over (keeping each request small).
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import fc from "fast-check";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createJsonlHistoryStore,
  defineTool,
  type HistoryStore,
  InvalidOptionError,
  isWellFormedHistory,
  type ToolOutput,
} from "../../src/index";
import { createPostgresHistoryStore } from "../../src/integrations/stores/postgres";
import { createRedisHistoryStore } from "../../src/integrations/stores/redis";
import { createSqliteHistoryStore } from "../../src/integrations/stores/sqlite";
import { createScriptedClient } from "../../src/testing/index";
import { sharedTemporaryFolder } from "../support/temporary-folders";

const ITEMS_PER_STORE = 1_000;
const CHUNK = 50;
const USE_TOOL = "Use the tool.";

class Thing {
  kind = "thing";
}
function withThrowingGetter(): object {
  const block: Record<string, unknown> = { type: "text", text: "getter" };
  Object.defineProperty(block, "extra", {
    enumerable: true,
    get() {
      throw new Error("getter exploded");
    },
  });
  return block;
}

const loneSurrogate = fc.constantFrom("\uD83D", "\uDE00", "x\uD83Dy", "\uDE00\uD83D");
const text = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: loneSurrogate },
  { weight: 1, arbitrary: fc.constantFrom("", "  ", "\n") },
);
const weird: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constant(undefined),
  fc.constant(() => "fn"),
  fc.constant(Symbol("s")),
  fc.bigInt({ min: -5n, max: 5n }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY),
  fc.constant(null).map(() => new Thing()),
  fc.constant(null).map(() => new Date(0)),
  fc.constant(null).map(() => [1, undefined, 3]),
  fc.constant(null).map(() => new Map([["k", 1]])),
  loneSurrogate,
);
const block: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ type: fc.constant("text"), text }) },
  {
    weight: 3,
    arbitrary: fc.record(
      { type: fc.constant("text"), text, extra: weird },
      { requiredKeys: ["type", "text"] },
    ),
  },
  { weight: 1, arbitrary: fc.constant(null).map(withThrowingGetter) },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constantFrom("image", "hologram", "tool_use"), source: weird }),
  },
  { weight: 1, arbitrary: weird },
);
const content = fc.oneof(text, fc.array(block, { maxLength: 3 }), weird);
const item = fc.oneof(
  fc.record({ kind: fc.constant("prompt" as const), value: content }),
  fc.record({
    kind: fc.constant("tool" as const),
    value: fc.oneof(
      text,
      weird,
      fc.record({ content, isError: fc.boolean() }, { requiredKeys: ["content"] }),
    ),
  }),
);

const folder = sharedTemporaryFolder("lattice-history-fuzz-");
const schema = `agent_lattice_fuzz_${randomBytes(5).toString("hex")}`;
const keyPrefix = `agent-lattice-fuzz:${randomBytes(5).toString("hex")}:`;
const pool = new pg.Pool({
  connectionString: process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  max: 4,
});
const redis = new Redis(process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379");

afterAll(async () => {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

const stores: Array<[string, () => HistoryStore]> = [
  ["JSONL", () => createJsonlHistoryStore({ path: join(folder, "fuzz.jsonl") })],
  ["SQLite", () => createSqliteHistoryStore({ path: join(folder, "fuzz.sqlite"), conversationId: "fuzz" })],
  ["PostgreSQL", () => createPostgresHistoryStore({ pool, schema, conversationId: "fuzz" })],
  ["Redis", () => createRedisHistoryStore({ client: redis, keyPrefix, conversationId: "fuzz" })],
];

describe("fuzz: random prompts and tool outputs never stop history from reading", () => {
  it.each(stores)(
    "%s: 1,000 items; answered or InvalidOptionError; getHistory() works; store equals memory",
    async (_name, createStore) => {
      const seed = Number.parseInt(randomBytes(4).toString("hex"), 16);
      const items = fc.sample(item, { numRuns: ITEMS_PER_STORE, seed });
      let nextOutput: unknown;
      const tool = defineTool({
        name: "fuzz",
        inputSchema: z.object({}),
        readOnly: true,
        execute: () => nextOutput as ToolOutput,
      });
      const client = createScriptedClient(
        (request) => {
          const last = request.messages.at(-1);
          const asked = last?.role === "user" && last.content === USE_TOOL;
          return asked
            ? {
                content: [
                  {
                    type: "tool_use",
                    id: `t${Math.random().toString(36).slice(2)}`,
                    name: "fuzz",
                    input: {},
                  },
                ],
              }
            : { content: "ok" };
        },
        { record: false },
      );
      const agent = createAgent({
        model: "claude-sonnet-4-6",
        client,
        tools: [tool],
        historyStore: createStore(),
      });
      const counts = { answered: 0, refused: 0 };
      try {
        for (const [index, entry] of items.entries()) {
          const context = `seed ${seed}, item ${index}`;
          if (entry.kind === "prompt") {
            const outcome: unknown = await agent
              .prompt(entry.value as never)
              .catch((error: unknown) => error);
            if (outcome instanceof Error || !outcome || typeof outcome !== "object") {
              expect(outcome, context).toBeInstanceOf(InvalidOptionError);
              counts.refused++;
            } else {
              expect((outcome as { subtype: string }).subtype, context).toBe("success");
              counts.answered++;
            }
          } else {
            nextOutput = entry.value;
            expect((await agent.prompt(USE_TOOL)).subtype, context).toBe("success");
            counts.answered++;
          }
          const history = await agent.getHistory();
          expect(isWellFormedHistory(history), context).toBe(true);
          if ((index + 1) % CHUNK === 0) {
            expect(await createStore().load(), context).toEqual(history);
            expect(JSON.parse(JSON.stringify(history)), context).toEqual(history);
            await agent.replaceHistory([]);
          }
        }
      } finally {
        await agent.close();
      }
      expect(counts.answered + counts.refused).toBe(ITEMS_PER_STORE);
      expect(counts.refused).toBeGreaterThan(50);
      expect(counts.answered).toBeGreaterThan(300);
    },
    240_000,
  );
});
