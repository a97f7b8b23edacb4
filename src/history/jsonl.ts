/**
 * `createJsonlHistoryStore`: one conversation in one file, one JSON message per line.
 *
 * - **Append-only.** An append is one `write` at the end of the file (O(1) per message); the file is
 *   never rewritten on append.
 * - **Torn tails are harmless.** Load skips lines that are not a JSON message, so a write cut short
 *   by a crash loses at most that line; the next append starts on a new line so it never glues onto
 *   the fragment.
 * - **Atomic replace.** The new transcript is written to a temporary file in the same folder,
 *   fsynced, and renamed over the old one: a crash leaves the old transcript or the new, never a mix.
 * - **One writer per conversation, across processes: optimistic versioning.** The file's identity
 *   and size at `load()` are the version this store expects. Every write takes a short exclusive
 *   lock (`<path>.lock`, a symlink created atomically whose target names pid, host and a token; a
 *   hard-linked file where symlinks are not allowed), checks that the file is still the one it
 *   loaded (same inode, same size — or absent if it was absent), writes, and releases the lock. A writer whose view is stale — another Agent appended or replaced since its
 *   load — gets {@link ConversationConflictError} naming the path and writes nothing. The lock is
 *   held only for the duration of one write, so an Agent that is never closed blocks nobody. A lock
 *   left by a killed process is stale once its pid is dead (same host) or it is older than
 *   `staleLockMs` (any host).
 * - **One run per conversation, across processes: run claims.** `claimRun()` keeps its claim in a
 *   file beside the transcript (`<path>.run`: owner token and expiry), changed only under a short
 *   lock of its own, so processes on one machine (or one shared file system) see one holder; a
 *   claim nobody renews expires. See `jsonl-run-claim.ts`.
 *
 * Files are created with mode 0600 (transcripts hold user data); parent folders are created.
 * @module
 */
import type { ModelMessage } from "../messages/types";
import { assertKnownOptions } from "../shared/known-options";
import type { HistoryRange, HistoryWindow } from "./history-window";
import { claimRunWith, type RunClaim, type RunClaimOptions, type RunClaimRecord } from "./run-claim";
import type { HistoryStore } from "./store";
import { createVersionedStoreCore, type VersionedBackend } from "./store-kit/versioned-store";

/** How long a write lock may be held before another writer treats it as abandoned. */
export const DEFAULT_JSONL_STALE_LOCK_MS = 30_000;

/** Options of {@link createJsonlHistoryStore}. */
export interface JsonlHistoryStoreOptions {
  /** The transcript file. Parent folders are created on the first write. */
  path: string;
  /** Propagate store failures out of `query()` / `prompt()`. @default false */
  failOnError?: boolean;
  /**
   * fsync the file after every append, so appended messages survive a power loss (a killed process
   * never loses them either way). `replace` always fsyncs. @default false
   */
  fsync?: boolean;
  /**
   * A write lock older than this (milliseconds) is abandoned and may be broken, whatever host holds
   * it. A lock whose process is dead on this host is broken at once. @default 30_000
   */
  staleLockMs?: number;
}

/** A JSONL history store. */
export interface JsonlHistoryStore extends HistoryStore {
  /** The transcript file, as given. */
  readonly path: string;
  /** A window of the transcript (see `HistoryStore.loadRange`): the file is read, only the window's lines parsed. */
  loadRange(range: HistoryRange): Promise<HistoryWindow>;
  readonly failOnError: boolean;
  /** Closes the append handle. Safe to call twice. */
  close(): Promise<void>;
  /**
   * Claims the conversation for one run, across every process that uses this file (see
   * `HistoryStore.claimRun`): the claim lives in `<path>.run`, removed on release.
   */
  claimRun(options?: RunClaimOptions): Promise<RunClaim | undefined>;
  /** Whether a live claim (of any process) holds the conversation now. */
  isRunClaimed(): Promise<boolean>;
}

/**
 * Every option name of `createJsonlHistoryStore` — the one list to extend when an option is added; any other
 * name is refused, naming the closest of these.
 */
export const JSONL_STORE_OPTION_NAMES: readonly string[] = ["path", "failOnError", "fsync", "staleLockMs"];

/**
 * Creates a history store that keeps one conversation in a JSON Lines file.
 *
 * @example
 * const agent = createAgent({
 *   model: "claude-sonnet-4-6",
 *   historyStore: createJsonlHistoryStore({ path: ".agent-sessions/ada.jsonl" }),
 * });
 */
export function createJsonlHistoryStore(options: JsonlHistoryStoreOptions): JsonlHistoryStore {
  assertKnownOptions("createJsonlHistoryStore", options, JSONL_STORE_OPTION_NAMES);
  if (typeof options?.path !== "string" || options.path === "") {
    throw new TypeError("createJsonlHistoryStore needs a non-empty `path`.");
  }
  const core = createVersionedStoreCore(new LazyJsonlBackend(options), options);
  const runRecord = lazyRunClaimRecord(options);
  return {
    path: options.path,
    failOnError: core.failOnError,
    load: core.load,
    loadRange: core.loadRange!,
    append: core.append,
    replace: core.replace,
    close: core.close,
    claimRun: async (claimOptions) => claimRunWith(await runRecord(), claimOptions),
    isRunClaimed: async () => (await runRecord()).isHeld(),
  };
}

/** The run-claim record of the store's file, loaded on first use (like the backend, below). */
function lazyRunClaimRecord(options: JsonlHistoryStoreOptions): () => Promise<RunClaimRecord> {
  let record: Promise<RunClaimRecord> | undefined;
  return () => {
    record ??= import("./jsonl-run-claim").then(({ jsonlRunClaimRecord }) =>
      jsonlRunClaimRecord(options.path, options.staleLockMs ?? DEFAULT_JSONL_STALE_LOCK_MS),
    );
    return record;
  };
}

/**
 * The file backend, loaded on the first operation: the root entry imports no Node built-in
 * (`fs`, `path`, `crypto` …) until a JSONL store is actually used, so it bundles for worker and
 * edge runtimes.
 */
class LazyJsonlBackend implements VersionedBackend {
  private backend: Promise<VersionedBackend> | undefined;

  constructor(private readonly options: JsonlHistoryStoreOptions) {}

  private loaded(): Promise<VersionedBackend> {
    const { path, fsync, staleLockMs = DEFAULT_JSONL_STALE_LOCK_MS } = this.options;
    this.backend ??= import("./jsonl-backend").then(
      ({ JsonlBackend }) => new JsonlBackend({ path, fsync, staleLockMs }),
    );
    return this.backend;
  }

  async load(): Promise<ModelMessage[]> {
    return (await this.loaded()).load();
  }

  async loadRange(range: HistoryRange): Promise<HistoryWindow> {
    return (await this.loaded()).loadRange!(range);
  }

  async append(serializedMessages: readonly string[]): Promise<void> {
    return (await this.loaded()).append(serializedMessages);
  }

  async replace(serializedMessages: readonly string[]): Promise<void> {
    return (await this.loaded()).replace(serializedMessages);
  }

  async close(): Promise<void> {
    if (this.backend) await (await this.backend).close();
  }
}
