/**
 * The last few conversations the page asked for, kept loaded while their version is unchanged: a
 * 10,000-turn conversation is parsed once, not again for each window ("Load earlier"), nested
 * subagent or live refresh.
 * @module
 */
import type { ModelMessage } from "../messages/types";
import type { StudioSource } from "./source";

/** How many conversations stay loaded. */
const KEPT = 8;

/** Loads conversations through their source, reusing a load while the version is the same. */
export class LoadedConversations {
  private readonly kept = new Map<string, { version: string; messages: Promise<ModelMessage[]> }>();

  /** The messages of `conversationId` at `version` (what `source.version` just said). */
  load(
    source: StudioSource,
    sourceIndex: number,
    conversationId: string,
    version: string,
  ): Promise<ModelMessage[]> {
    const key = `${sourceIndex}\u0000${conversationId}`;
    const kept = this.kept.get(key);
    if (kept?.version === version) {
      this.kept.delete(key); // most recently used last
      this.kept.set(key, kept);
      return kept.messages;
    }
    const messages = source.open(conversationId).load();
    this.kept.delete(key);
    this.kept.set(key, { version, messages });
    messages.catch(() => this.kept.delete(key));
    while (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
    return messages;
  }
}
