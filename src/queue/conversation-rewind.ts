/**
 * `queue.rewind()`: an `agent.rewind()` on a fleet's conversation, between jobs. The conversation's
 * lease is taken for the rewind — refused when a worker holds it or a job waits — so no job starts
 * on it meanwhile; a job enqueued during the rewind waits for it, and runs on the rewound history.
 * @module
 */
import { randomUUID } from "node:crypto";
import { type Agent, InvalidOptionError, type RewindResult } from "../index";
import { positiveInteger } from "../shared/option-checks";
import type { ConversationLane } from "./conversation-lane";
import { ConversationHeldError } from "./errors";

/** How long a rewind may hold a conversation's lease at most (if its process dies, the lease expires then). */
export const DEFAULT_REWIND_HOLD_MS = 60_000;

/** Options of `queue.rewind()`. */
export interface QueueRewindOptions {
  /** The conversation, as given to `enqueue`. */
  conversationId: string;
  /** An Agent over the conversation's store (as the workers' `createAgent` makes it) that runs the rewind. */
  agent: Agent<any>;
  /** The checkpoint to go back to (`agent.rewind({ to })`). */
  to: string;
  /** Restore the files too (`agent.rewind({ files })`). @default false */
  files?: boolean;
  /** @default {@link DEFAULT_REWIND_HOLD_MS} */
  holdMs?: number;
}

/**
 * Rewinds holding the conversation's lease.
 * @throws ConversationHeldError when a worker holds the conversation or a job of it waits (nothing changed)
 */
export async function rewindHeld(lane: ConversationLane, options: QueueRewindOptions): Promise<RewindResult> {
  const { conversationId, agent } = options ?? ({} as QueueRewindOptions);
  if (typeof conversationId !== "string" || conversationId === "")
    throw new InvalidOptionError("rewind() needs the conversationId.");
  if (typeof agent?.rewind !== "function")
    throw new InvalidOptionError("rewind() needs an agent over the conversation.");
  const holdMs = positiveInteger(options.holdMs ?? DEFAULT_REWIND_HOLD_MS, {
    factory: "rewind()",
    option: "holdMs",
    show: "none",
  });
  const fence = `rewind:${randomUUID()}`;
  const held = await lane.holdIdle(conversationId, fence, holdMs);
  if (held.kind !== "held")
    throw new ConversationHeldError(conversationId, held.jobId, held.kind === "busy" ? "running" : "waiting");
  try {
    return await agent.rewind({ to: options.to, files: options.files });
  } finally {
    await lane.release(conversationId, fence);
  }
}
