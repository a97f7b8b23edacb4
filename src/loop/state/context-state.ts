/**
 * What a conversation keeps about context management between requests: which side applies the
 * edits and which compacts (the provider's profile, until a response shows the provider ignored
 * them or it refused compaction), whether the last request asked the provider, the edits last
 * reported, and the last main request's parts (for `getContextUsage()`).
 * @module
 */
import { holdsCompactionBlock } from "../../compaction/server-compaction-view";
import type { AppliedContextEdit } from "../../messages/applied-context-edit";
import type { ModelMessage, TextBlock } from "../../messages/types";
import type { ModelToolDefinition } from "../../model/client";
import { type ContextEdits, MIN_SERVER_COMPACTION_TRIGGER } from "../../model/context-management";
import { type ContextManagementSide, contextSideOf } from "../../model/context-support";
import type { ModelEndpoint } from "../../model/endpoint";

/** The parts of the last main request, as sent (after the SDK's edits). */
export interface SentRequest {
  readonly model: string;
  readonly system: string | TextBlock[] | undefined;
  readonly tools: ModelToolDefinition[] | undefined;
  readonly messages: readonly ModelMessage[];
  /** The edits it asked of the provider (context editing, server compaction), if any. */
  readonly edits?: ContextEdits;
}

/** One conversation's context-management state. */
export class ContextState {
  private side: ContextManagementSide | undefined;
  private compactionSide: ContextManagementSide | undefined;
  private reported = "";
  /** Whether the request in flight asked the provider for the edits. */
  askedProvider = false;
  /** Whether the request in flight asked the provider for server compaction. */
  askedCompaction = false;
  /**
   * The provider refused server compaction asked with `where: "auto"` (a 400 naming it): the turn
   * is made again, compacted by the SDK. Taken once by the loop's decision.
   */
  private retryWithoutCompaction = false;
  /** The edits the SDK applied to the request in flight (client side). */
  clientEdits: AppliedContextEdit[] = [];
  /** The last main request, once one was made. */
  lastRequest: SentRequest | undefined;
  /** History as last scanned for compaction blocks, how far, and whether one was seen. */
  private scanned: readonly ModelMessage[] | undefined;
  private scannedLength = 0;
  private sawCompaction = false;

  /**
   * Whether `history` holds a server compaction block. History only grows between replacements (a
   * replacement is a new array), so each turn scans only the messages appended since the last call:
   * a turn costs the same on the thousandth turn as on the first.
   */
  holdsServerCompaction(history: readonly ModelMessage[]): boolean {
    if (history !== this.scanned || history.length < this.scannedLength) {
      this.scanned = history;
      this.scannedLength = 0;
      this.sawCompaction = false;
    }
    for (let index = this.scannedLength; !this.sawCompaction && index < history.length; index++)
      this.sawCompaction = holdsCompactionBlock(history[index]!);
    this.scannedLength = history.length;
    return this.sawCompaction;
  }

  /** The side that applies edits: decided once from `where` and the endpoint, until a fallback. */
  sideFor(where: "auto" | ContextManagementSide, endpoint: ModelEndpoint | undefined): ContextManagementSide {
    this.side ??= contextSideOf(where, endpoint);
    return this.side;
  }

  /**
   * The side that compacts history with `autoCompact.where`: `"auto"` is the provider when the
   * endpoint's profile says it compacts and `thresholdTokens` is one it accepts, until a fallback.
   */
  compactionSideFor(
    where: "auto" | ContextManagementSide,
    endpoint: ModelEndpoint | undefined,
    thresholdTokens: number,
  ): ContextManagementSide {
    this.compactionSide ??=
      where === "auto" && thresholdTokens < MIN_SERVER_COMPACTION_TRIGGER
        ? "client"
        : contextSideOf(where, endpoint);
    return this.compactionSide;
  }

  /** Whether the provider compacts this conversation (the SDK's own compaction then waits). */
  get providerCompacts(): boolean {
    return this.compactionSide === "provider";
  }

  /**
   * The provider refused or ignored server compaction: the SDK compacts from now on. `retry`: the
   * refused turn is to be made again. True the first time only.
   */
  fallBackCompaction(retry: boolean): boolean {
    if (this.compactionSide === "client") return false;
    this.compactionSide = "client";
    this.retryWithoutCompaction = retry;
    return true;
  }

  /** Whether the failed turn is to be made again without server compaction (once). */
  takeCompactionRetry(): boolean {
    const retry = this.retryWithoutCompaction;
    this.retryWithoutCompaction = false;
    return retry;
  }

  /** The provider ignored the edits: the SDK applies them from now on. True the first time only. */
  fallBackToClient(): boolean {
    if (this.side === "client") return false;
    this.side = "client";
    return true;
  }

  /**
   * Whether `applied` clears something other than what was last reported (counts by edit type):
   * true when it should be reported, and it is then remembered as reported.
   */
  changed(applied: readonly AppliedContextEdit[]): boolean {
    const key = applied
      .map((edit) =>
        edit.type === "clear_tool_uses_20250919"
          ? `${edit.type}:${edit.cleared_tool_uses}`
          : `${edit.type}:${edit.cleared_thinking_turns}`,
      )
      .join(",");
    if (key === this.reported) return false;
    this.reported = key;
    return key !== "";
  }
}
