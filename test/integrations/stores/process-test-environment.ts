/**
 * The shared setup of the process-level store tests: a bundled child script, a temporary folder,
 * and a PostgreSQL schema and Redis key prefix unique to this run, all removed afterwards.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import type { StoreLocation } from "../../fixtures/stores/store-workload";
import { bundleChild, killAllChildren } from "./child-runner";

/** Budget of a test that starts node processes (generous: the CI machine has 2 busy cores). */
export const PROCESS_TEST_TIMEOUT_MS = 120_000;

/** What a process-level store test file works in; `childScript` and `folder` exist once `beforeAll` ran. */
export interface ProcessTestEnvironment {
  readonly postgresUrl: string;
  readonly redisUrl: string;
  readonly schema: string;
  readonly keyPrefix: string;
  readonly childScript: string;
  readonly folder: string;
}

/** Registers the setup and cleanup hooks of one test file; `name` keeps runs and files apart. */
export function useProcessTestEnvironment(name: string, childEntry: string): ProcessTestEnvironment {
  const runId = randomBytes(5).toString("hex");
  let childScript = "";
  let folder = "";
  const environment = {
    postgresUrl: process.env.AGENT_LATTICE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    redisUrl: process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
    schema: `agent_lattice_${name}_${runId}`,
    keyPrefix: `agent-lattice-${name}:${runId}:`,
    get childScript() {
      return childScript;
    },
    get folder() {
      return folder;
    },
  };
  beforeAll(async () => {
    childScript = await bundleChild(childEntry);
    folder = await mkdtemp(join(tmpdir(), `store-${name}-`));
  });
  afterAll(async () => {
    killAllChildren();
    await rm(folder, { recursive: true, force: true });
    await rm(childScript, { force: true });
    const pool = new pg.Pool({ connectionString: environment.postgresUrl });
    await pool.query(`DROP SCHEMA IF EXISTS "${environment.schema}" CASCADE`);
    await pool.end();
    const redis = new Redis(environment.redisUrl);
    const keys = await redis.keys(`${environment.keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });
  return environment;
}

/**
 * Where each durable store keeps a conversation of `env`'s run: a JSONL file, a real SQLite file,
 * PostgreSQL (the run's schema) and Redis (the run's key prefix), by store kind.
 */
export function storeLocations(
  env: ProcessTestEnvironment,
): Record<"jsonl" | "sqlite" | "postgres" | "redis", (conversation: string) => StoreLocation> {
  return {
    jsonl: (conversation) => ({ kind: "jsonl", path: join(env.folder, `${conversation}.jsonl`) }),
    sqlite: (conversation) => ({
      kind: "sqlite",
      path: join(env.folder, "agents.db"),
      conversationId: conversation,
    }),
    postgres: (conversation) => ({
      kind: "postgres",
      connectionString: env.postgresUrl,
      schema: env.schema,
      conversationId: conversation,
    }),
    redis: (conversation) => ({
      kind: "redis",
      url: env.redisUrl,
      keyPrefix: env.keyPrefix,
      conversationId: conversation,
    }),
  };
}
