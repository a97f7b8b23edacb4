/**
 * The durable-history contract. An Agent loads its store lazily once, appends every message that
 * enters history, and replaces the whole transcript on compaction and `replaceHistory`.
 * @module
 */
import type { ModelMessage } from "../messages/types";
import type { HistoryRange, HistoryWindow } from "./history-window";
import type { RunClaim, RunClaimOptions } from "./run-claim";

/** Durable storage for one conversation. */
export interface HistoryStore {
  /** The stored conversation; called once per Agent, before its first query (again after a failure). */
  load(): Promise<ModelMessage[]>;
  /**
   * Optional: a window of the stored conversation (`{ from?, limit }`; no `from`: the newest
   * `limit` messages) and its message count, read together, without reading the rest. A read only:
   * unlike `load()`, it does not make what it saw the version this store writes against. The
   * built-in stores all have it; readers fall back to `load()` where a store has none
   * (`readHistoryWindow`). The agent never calls it.
   */
  loadRange?(range: HistoryRange): Promise<HistoryWindow>;
  /** Called after every message that enters history, in order. */
  append(message: ModelMessage): Promise<void>;
  /** Called when history is rewritten wholesale (compaction, `replaceHistory`). */
  replace(messages: ModelMessage[]): Promise<void>;
  /**
   * Optional: replaces the stored messages from index `from` on with `messages`, keeping the ones
   * before it — what `replace` of the whole would store when those are unchanged, written in
   * proportion to the tail. The agent calls it instead of `replace` when only the last messages of
   * its history changed (a batch's approval record taken back, a pause recorded over it), and only
   * while the store holds exactly what the agent holds. Atomic and version-checked like `replace`.
   * The SQLite, PostgreSQL and Redis stores have it.
   */
  replaceTail?(from: number, messages: ModelMessage[]): Promise<void>;
  /** When true, store failures propagate out of `query()` / `prompt()` instead of being reported. */
  readonly failOnError?: boolean;
  /** Releases connections the store opened itself. Called by `agent.close()`. */
  close?(): Promise<void>;
  /**
   * Claims the conversation for one run, seen by every process over the same storage: a claim to
   * renew while the run goes on and release at its end, or `undefined` when another run holds it.
   * The JSONL, SQLite, PostgreSQL and Redis stores have it; `Agent.claimRun()` uses it.
   */
  claimRun?(options?: RunClaimOptions): Promise<RunClaim | undefined>;
  /**
   * Optional, beside `claimRun`: whether a run's claim holds the conversation now (taken by any
   * process over the same storage, not yet released or expired). A read only; the built-in stores
   * have it, and the studio shows such a conversation as running (basis "run claim").
   */
  isRunClaimed?(): Promise<boolean>;
}

/**
 * Wraps a custom store, binding `failOnError` to it.
 *
 * @example
 * const store = defineHistoryStore({
 *   load: async () => rows.map(JSON.parse),
 *   append: async (message) => { rows.push(JSON.stringify(message)); },
 *   replace: async (messages) => { rows = messages.map((m) => JSON.stringify(m)); },
 *   failOnError: true,
 * });
 */
export function defineHistoryStore(store: HistoryStore & { failOnError?: boolean }): HistoryStore {
  for (const method of ["load", "append", "replace"] as const) {
    if (typeof store[method] !== "function")
      throw new TypeError(`A HistoryStore needs a ${method}() method.`);
  }
  return {
    load: () => store.load(),
    append: (message) => store.append(message),
    replace: (messages) => store.replace(messages),
    ...(typeof store.replaceTail === "function"
      ? { replaceTail: (from: number, messages: ModelMessage[]) => store.replaceTail!(from, messages) }
      : {}),
    ...(typeof store.loadRange === "function"
      ? { loadRange: (range: HistoryRange) => store.loadRange!(range) }
      : {}),
    failOnError: store.failOnError ?? false,
    close: store.close ? () => store.close!() : undefined,
    claimRun: store.claimRun ? (options) => store.claimRun!(options) : undefined,
    ...(typeof store.isRunClaimed === "function" ? { isRunClaimed: () => store.isRunClaimed!() } : {}),
  };
}
