/**
 * The PostgreSQL store's connections: the pool (the caller's, or one of its own), transactions on a
 * client of it, and the credentials no store error may show.
 * @module
 */
import pg from "pg";
import { InvalidOptionError } from "../../errors";
import {
  borrowedResource,
  ownedResource,
  type SharedResource,
} from "../../history/store-kit/shared-resource";

/** The pool the options name: `pool` (borrowed), or one opened on `connectionString` (owned). */
export function openPool(options: { pool?: pg.Pool; connectionString?: string }): SharedResource<pg.Pool> {
  if (options.pool && options.connectionString) {
    throw new InvalidOptionError("Give createPostgresHistoryStore `pool` or `connectionString`, not both.");
  }
  if (options.pool) return borrowedResource(options.pool);
  if (typeof options.connectionString !== "string" || options.connectionString === "") {
    throw new InvalidOptionError("createPostgresHistoryStore needs `pool` or `connectionString`.");
  }
  const pool = new pg.Pool({ connectionString: options.connectionString });
  // The server may end an idle pooled connection (restart, failover, idle_session_timeout); the pool
  // then emits 'error', which would crash the process with no listener. The pool has already dropped
  // that client and the next query connects anew; a query that fails still rejects on its own.
  pool.on("error", () => undefined);
  return ownedResource(pool, (owned) => owned.end());
}

/** Runs `work` in a transaction on a client of the pool: committed when it settles, rolled back when it throws. */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A checked-out client emits 'error' when its connection ends (the server killed the backend):
  // unheard, that would crash the process. The running query rejects on its own; the client is
  // released as broken, so the pool discards it.
  const onError = (error: Error) => {
    broken ??= error;
  };
  client.on("error", onError);
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.off("error", onError);
    client.release(broken);
  }
}

/** The pool's credentials (from its connection string or options): kept out of store errors. */
export function connectionSecrets(pool: pg.Pool): string[] {
  const { password, connectionString } = (pool.options ?? {}) as {
    password?: unknown;
    connectionString?: unknown;
  };
  const secrets = typeof password === "string" && password !== "" ? [password] : [];
  if (typeof connectionString === "string") {
    try {
      const { password: inUrl } = new URL(connectionString);
      if (inUrl) secrets.push(inUrl, decodeURIComponent(inUrl));
    } catch {
      // not a URL (a key=value string): pg reports it without the password
    }
  }
  return secrets;
}
