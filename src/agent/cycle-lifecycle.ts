/**
 * How the agent brackets one prompt cycle of the loop: the guard, the store's binding to the
 * query's cancellation, the lazy preparation, and what a cycle left early must clean up.
 * @module
 */
import { closeDanglingToolUses } from "../history/dangling";
import type { CycleLifecycle } from "../loop/agent-loop";
import type { Conversation } from "../loop/state/conversation";
import type { AgentQuery, ConversationGuard } from "./conversation-guard";

/** What a cycle needs from its agent. */
export interface CycleHost {
  readonly guard: ConversationGuard;
  readonly conversation: Conversation;
  /** Lazy store load, MCP connect, telemetry load — before the first query, and retried after failures. */
  prepare(): Promise<void>;
}

/** How a cycle holds the guard. */
export interface GuardUse {
  /** Take the guard when the generator first runs (so `query()` throws ConcurrentQueryError on its first iteration). */
  takeOnStart: boolean;
  /** Release it once the cycle is recorded (false inside `streamInput`, whose guard spans every cycle). */
  releaseAtEnd: boolean;
}

/** The lifecycle of one cycle of `query`. */
export function cycleLifecycle(host: CycleHost, query: AgentQuery, use: GuardUse): CycleLifecycle {
  let held = !use.takeOnStart;
  let released = false;
  const { history } = host.conversation;
  /** Everything of this cycle is recorded: unbind the store from its signal, free the guard. */
  const releaseConversation = () => {
    if (released) return;
    released = true;
    history.bindSignal(undefined);
    if (use.releaseAtEnd) host.guard.release(query);
  };
  return {
    async prepare() {
      if (!held) {
        host.guard.take(query);
        held = true;
      }
      // Its cancellation (signal, interrupt, consumer leaving) bounds its store calls: a hung
      // store does not hold a cancelled query.
      history.bindSignal(query.state.signals.model);
      await host.prepare();
    },
    release() {
      if (held) releaseConversation();
    },
    async finish(completed) {
      if (!held) return; // the guard was never ours: touch nothing
      try {
        if (!completed) await stopEarly(host.conversation, query);
      } finally {
        releaseConversation();
      }
    },
  };
}

/** The consumer left early or the loop threw: stop work in flight and keep history well-formed. */
async function stopEarly(conversation: Conversation, query: AgentQuery): Promise<void> {
  query.state.signals.cancel();
  const closing = closeDanglingToolUses(conversation.history.messages);
  if (closing) await conversation.history.append(closing).catch(() => {});
}
