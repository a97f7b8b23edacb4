/**
 * The part every durable store shares: operations run one at a time in call order, messages are
 * serialized before anything is written, a failed append is retried (in order) before the next one,
 * and failures surface as {@link HistoryStoreError} — except {@link ConversationConflictError}, which
 * passes through unchanged so the loser of a race can recognise it.
 *
 * A store plugs in a {@link VersionedBackend}: the storage itself plus its optimistic version check.
 * @module
 */
import { AgentLatticeError, HistoryStoreError } from "../../errors";
import type { ModelMessage } from "../../messages/types";
import { containsSecret, redact, secretsWorthRedacting } from "../../shared/redact";
import { SerialQueue } from "../../shared/serial-queue";
import { assertHistoryRange, type HistoryRange, type HistoryWindow } from "../history-window";
import type { HistoryStore } from "../store";
import { serializeMessage } from "./message-codec";

/**
 * Storage for one conversation guarded by an optimistic version.
 *
 * The version a backend expects is the one it saw at `load()`; when it never loaded, it adopts the
 * stored version at its first write. `append` and `replace` write only when the stored version is
 * still the expected one (then advance it) and otherwise throw `ConversationConflictError` having
 * written nothing. Each call is atomic: all of its messages are written, or none.
 */
export interface VersionedBackend {
  /** Reads the conversation and makes its current version the expected one. */
  load(): Promise<ModelMessage[]>;
  /**
   * Reads a window of the conversation and its message count together (see `HistoryStore.loadRange`),
   * leaving the expected version as it was. Optional: a store over a backend without it has no
   * `loadRange`.
   */
  loadRange?(range: HistoryRange): Promise<HistoryWindow>;
  /** Appends serialized messages, in order, after the stored ones. */
  append(serializedMessages: readonly string[]): Promise<void>;
  /** Replaces the whole conversation with these serialized messages. */
  replace(serializedMessages: readonly string[]): Promise<void>;
  /**
   * Optional: replaces the stored messages from index `from` on with these, the ones before it
   * kept (see `HistoryStore.replaceTail`); throws a RangeError, having written nothing, when `from`
   * is past the stored messages.
   */
  replaceTail?(from: number, serializedMessages: readonly string[]): Promise<void>;
  /** Releases what the backend opened itself. */
  close(): Promise<void>;
}

/** `from` of a `replaceTail`, when it is an index (a caller's mistake otherwise: a TypeError). */
function assertTailIndex(from: number): number {
  if (Number.isInteger(from) && from >= 0) return from;
  throw new TypeError(`replaceTail needs a whole number from 0 on as \`from\`, not ${String(from)}.`);
}

/** The error of a `replaceTail` whose `from` is past the `stored` messages (nothing was written). */
export function tailPastTheEnd(from: number, stored: number): RangeError {
  return new RangeError(`Cannot replace the messages from index ${from} on: ${stored} are stored.`);
}

/**
 * A backend whose store can delete its own conversation: `forgetConversation()` then makes "no
 * conversation yet" (version 0) the expected state, so the next write starts the conversation anew.
 */
export interface DeletableVersionedBackend extends VersionedBackend {
  forgetConversation(): void;
}

/** A {@link HistoryStore} whose `close()` is always present. */
export interface ClosableHistoryStore extends HistoryStore {
  readonly failOnError: boolean;
  close(): Promise<void>;
}

/** The store core wrapped around a backend; the stores build their public object on it. */
export interface VersionedStoreCore extends ClosableHistoryStore {
  /**
   * Runs `operation` after every earlier call of this store has settled, in the same queue; a
   * failure that holds a connection secret is rethrown as a redacted copy.
   */
  exclusive<T>(operation: () => Promise<T>): Promise<T>;
  /** Runs `operation` now; a failure that holds a connection secret is rethrown as a redacted copy. */
  withoutSecrets<T>(operation: () => Promise<T>): Promise<T>;
}

/**
 * Wraps a backend into a history store: serialized calls, pending-append retry, error wrapping.
 * @param backend the storage and its version check
 * @param options.failOnError exposed as the store's `failOnError`
 * @param options.secrets credentials of the connection (a password in its URL): an error that
 *   holds one anywhere (ioredis keeps an `AUTH` command's arguments on its reply error) is reported
 *   as a redacted copy of its message, never itself
 */
export function createVersionedStoreCore(
  backend: VersionedBackend,
  options: { failOnError?: boolean | undefined; secrets?: readonly string[] },
): VersionedStoreCore {
  const secrets = secretsWorthRedacting(options.secrets ?? []);
  const asStoreError = <T>(operation: "load" | "append" | "replace", action: () => Promise<T>) =>
    wrapStoreError(operation, action, secrets);
  const queue = new SerialQueue();
  let pending: string[] = [];
  let closed = false;
  let closing: Promise<void> | undefined;

  function exclusive<T>(operation: () => Promise<T>): Promise<T> {
    return queue.run(() => {
      if (closed) throw new Error("The history store is closed.");
      return redacting(operation);
    });
  }

  async function redacting<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw error instanceof AgentLatticeError ? error : withoutSecrets(error, secrets);
    }
  }

  async function load(): Promise<ModelMessage[]> {
    return asStoreError("load", () =>
      exclusive(async () => {
        const messages = await backend.load();
        pending = [];
        return messages;
      }),
    );
  }

  async function append(message: ModelMessage): Promise<void> {
    return asStoreError("append", () => {
      const line = serializeMessage(message);
      return exclusive(async () => {
        pending.push(line);
        await backend.append(pending);
        pending = [];
      });
    });
  }

  async function replaceFrom(from: number, messages: ModelMessage[]): Promise<void> {
    return asStoreError("replace", () => {
      const lines = messages.map(serializeMessage);
      return exclusive(async () => {
        await (from === 0 ? backend.replace(lines) : backend.replaceTail!(from, lines));
        pending = [];
      });
    });
  }

  function close(): Promise<void> {
    // Queued like a write: it runs after every earlier call, and one queued after it finds it closed.
    closing ??= queue.run(async () => {
      closed = true;
      await backend.close();
    });
    return closing;
  }

  return {
    load,
    ...windowReader(backend, (read) => asStoreError("load", () => exclusive(read))),
    append,
    replace: (messages) => replaceFrom(0, messages),
    ...tailReplacer(backend, replaceFrom),
    close,
    exclusive,
    withoutSecrets: redacting,
    failOnError: options.failOnError ?? false,
  };
}

/**
 * The store's `replaceTail` when the backend has one: `from` checked first (a TypeError of the
 * caller's), then the messages from it on replaced (`replaceFrom`: 0 is a whole `replace`).
 */
function tailReplacer(
  backend: VersionedBackend,
  replaceFrom: (from: number, messages: ModelMessage[]) => Promise<void>,
): Pick<HistoryStore, "replaceTail"> {
  if (typeof backend.replaceTail !== "function") return {};
  return { replaceTail: async (from, messages) => replaceFrom(assertTailIndex(from), messages) };
}

/**
 * The store's `loadRange` when the backend has one: the range checked first (a TypeError of the
 * caller's, not a store failure), then read after the calls before it (a writer reads its own writes).
 */
function windowReader(
  backend: VersionedBackend,
  run: (read: () => Promise<HistoryWindow>) => Promise<HistoryWindow>,
): { loadRange?: (range: HistoryRange) => Promise<HistoryWindow> } {
  if (typeof backend.loadRange !== "function") return {};
  return {
    async loadRange(range) {
      assertHistoryRange(range);
      return run(() => backend.loadRange!(range));
    },
  };
}

async function wrapStoreError<T>(
  operation: "load" | "append" | "replace",
  action: () => Promise<T>,
  secrets: readonly string[],
): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof AgentLatticeError) throw error;
    throw new HistoryStoreError(operation, withoutSecrets(error, secrets));
  }
}

/** `error` itself, or — when it holds a credential anywhere — a plain copy of its redacted message. */
function withoutSecrets(error: unknown, secrets: readonly string[]): unknown {
  if (!containsSecret(error, secrets)) return error;
  const text = error instanceof Error ? error.message : String(error);
  const copy = new Error(redact(text, secrets));
  if (error instanceof Error) copy.name = error.name;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") Object.assign(copy, { code });
  return copy;
}
