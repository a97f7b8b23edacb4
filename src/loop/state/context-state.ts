/**
 * What a conversation keeps about context management between requests: which side applies the
 * edits (the provider's profile, until a response shows the provider ignored them), whether the
 * last request asked the provider, the edits last reported, and the last main request's parts
 * (for `getContextUsage()`).
 * @module
 */
import type { AppliedContextEdit } from "../../messages/applied-context-edit";
import type { ModelMessage, TextBlock } from "../../messages/types";
import type { ModelToolDefinition } from "../../model/client";
import { type ContextManagementSide, contextSideOf } from "../../model/context-support";
import type { ModelEndpoint } from "../../model/endpoint";

/** The parts of the last main request, as sent (after the SDK's edits). */
export interface SentRequest {
  readonly model: string;
  readonly system: string | TextBlock[] | undefined;
  readonly tools: ModelToolDefinition[] | undefined;
  readonly messages: readonly ModelMessage[];
}

/** One conversation's context-management state. */
export class ContextState {
  private side: ContextManagementSide | undefined;
  private reported = "";
  /** Whether the request in flight asked the provider for the edits. */
  askedProvider = false;
  /** The edits the SDK applied to the request in flight (client side). */
  clientEdits: AppliedContextEdit[] = [];
  /** The last main request, once one was made. */
  lastRequest: SentRequest | undefined;

  /** The side that applies edits: decided once from `where` and the endpoint, until a fallback. */
  sideFor(where: "auto" | ContextManagementSide, endpoint: ModelEndpoint | undefined): ContextManagementSide {
    this.side ??= contextSideOf(where, endpoint);
    return this.side;
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
