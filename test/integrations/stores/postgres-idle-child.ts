/**
 * A child process for the PostgreSQL idle-connection test: a store over a connection string (a pool
 * of its own) writes once, says "idle" and waits; on a line from stdin it loads again, says how many
 * messages it read, and closes. It says "dropped" when its pool reports the error of a connection the
 * server ended (the event the parent waits for, rather than a guessed pause). Its one argument is JSON: `{ connectionString, schema, conversationId }`.
 */
import { createInterface } from "node:readline";
import pg from "pg";
import { createPostgresHistoryStore } from "../../../src/integrations/stores/postgres";

const { connectionString, schema, conversationId } = JSON.parse(process.argv[2]!) as {
  connectionString: string;
  schema: string;
  conversationId: string;
};
// Announce the pool's "error" event (an idle connection the server ended), after the store's own handling.
const emit = pg.Pool.prototype.emit;
let announced = false;
pg.Pool.prototype.emit = function announce(this: pg.Pool, event: string | symbol, ...args: unknown[]) {
  const handled = emit.call(this, event, ...args);
  if (event === "error" && !announced) {
    announced = true;
    process.stdout.write("dropped\n");
  }
  return handled;
};
const store = createPostgresHistoryStore({ connectionString, schema, conversationId, failOnError: true });
await store.append({ role: "user", content: "hello" });
process.stdout.write("idle\n");
const input = createInterface({ input: process.stdin });
await new Promise((resolve) => input.once("line", resolve));
input.close();
const messages = await store.load();
process.stdout.write(`loaded ${messages.length}\n`);
await store.close();
