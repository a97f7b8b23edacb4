/**
 * The one-run-per-conversation rule across processes: a lock the handler takes before it starts a
 * run and releases when the run ends. The default holds in one process only; give one over a
 * shared service (Redis `SET NX PX`, a PostgreSQL advisory lock …) when several processes serve
 * the same conversations.
 * @module
 */

/** A lock taken for one run. */
export interface ChatRunLease {
  /** Frees the conversation. Called once, when the run ends. */
  release(): Promise<void>;
}

/**
 * Grants at most one lease per conversation at a time. `acquire` resolves `undefined` when another
 * run holds the conversation (the handler answers 409 `conversation_busy`).
 */
export interface ChatRunLock {
  acquire(conversationId: string): Promise<ChatRunLease | undefined>;
}

/** A lock that holds within this process. */
export function createMemoryRunLock(): ChatRunLock {
  const held = new Set<string>();
  return {
    async acquire(conversationId) {
      if (held.has(conversationId)) return undefined;
      held.add(conversationId);
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          held.delete(conversationId);
        },
      };
    },
  };
}
