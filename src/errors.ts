/**
 * The error tree. Every class sets `name`, carries typed fields, and recognises instances made by
 * another copy of this package (ESM and CJS builds can both be loaded) through a `Symbol.for` brand.
 * @module
 */

import { messageOfThrown } from "./shared/describe-thrown";
import { formatUsd, formatUsdAbove, formatUsdExactly } from "./shared/money";

const BRAND = Symbol.for("agent-lattice.error");

/** Base class of every error agent-lattice throws or reports. */
export class AgentLatticeError extends Error {
  /** Brand shared by every copy of the package, so `instanceof` works across ESM and CJS builds. */
  readonly [BRAND]: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this[BRAND] = new.target.name;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    const brand = (value as { [BRAND]?: string })[BRAND];
    if (typeof brand !== "string") return false;
    // Walk the prototype chain of the foreign instance by name.
    for (let proto = Object.getPrototypeOf(value); proto; proto = Object.getPrototypeOf(proto)) {
      if (proto.constructor?.name === this.name) return true;
    }
    return false;
  }
}

/** A query was started while another one is running on the same Agent (or conversation). */
export class ConcurrentQueryError extends AgentLatticeError {
  constructor(
    message = "Another query is already running on this Agent. Await it before starting a new one, or create one Agent per concurrent conversation.",
  ) {
    super(message);
  }
}

/**
 * Another writer (an Agent in another process, usually) changed the stored conversation under this
 * one. Thrown by durable history stores; the losing query fails with it and writes nothing more.
 */
export class ConversationConflictError extends ConcurrentQueryError {
  /** The conversation that was written concurrently. */
  readonly conversationId: string;
  constructor(conversationId: string, detail?: string) {
    super(
      `Conversation "${conversationId}" was written by another Agent concurrently${detail ? ` (${detail})` : ""}. ` +
        "Only one Agent may hold a conversation at a time; reload it with a new Agent to continue.",
    );
    this.conversationId = conversationId;
  }
}

/** A single model request exceeded `requestTimeoutMs`. */
export class TimeoutError extends AgentLatticeError {
  readonly code = "ETIMEDOUT";
  /** The limit that was exceeded, in milliseconds. */
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`The model request did not complete within requestTimeoutMs (${timeoutMs} ms).`);
    this.timeoutMs = timeoutMs;
  }
}

/** The query was cancelled through `QueryOptions.signal`. */
export class AbortError extends AgentLatticeError {
  constructor(reason?: unknown) {
    super(
      `The query was aborted${reason instanceof Error ? `: ${reason.message}` : typeof reason === "string" ? `: ${reason}` : ""}.`,
      {
        cause: reason,
      },
    );
  }
}

/** With `outputSchema`, the model ended its turn without calling `submit_output`. */
export class MissingOutputError extends AgentLatticeError {
  constructor() {
    super(
      "The model ended its turn without calling submit_output. With outputSchema set, a run must end with a valid submission.",
    );
  }
}

/**
 * The query crossed `maxBudgetUsd` — its own, or (`scope: "parent"`) the budget of a query up the
 * chain that a subagent's child shares: then `maxBudgetUsd` and `spentUsd` are that query's, and
 * `ownSpentUsd` is what this query spent of it.
 */
export class BudgetExceededError extends AgentLatticeError {
  readonly maxBudgetUsd: number;
  readonly spentUsd: number;
  /** Whose budget was crossed: this query's own, or a parent query's it shares as a subagent's child. */
  readonly scope: "own" | "parent";
  /** What this query spent (equal to `spentUsd` when the budget is its own). */
  readonly ownSpentUsd: number;
  constructor(maxBudgetUsd: number, spentUsd: number, parent?: { ownSpentUsd: number }) {
    super(
      parent
        ? `The parent query's budget ran out: it cost ${formatUsdAbove(spentUsd, maxBudgetUsd)}, over its maxBudgetUsd ${formatUsdExactly(maxBudgetUsd)}; this subagent spent ${formatUsd(parent.ownSpentUsd)} of it.`
        : `The query cost ${formatUsdAbove(spentUsd, maxBudgetUsd)}, over maxBudgetUsd ${formatUsdExactly(maxBudgetUsd)}.`,
    );
    this.maxBudgetUsd = maxBudgetUsd;
    this.spentUsd = spentUsd;
    this.scope = parent ? "parent" : "own";
    this.ownSpentUsd = parent ? parent.ownSpentUsd : spentUsd;
  }
}

/** The query made `maxTurns` model requests without finishing. */
export class MaxTurnsError extends AgentLatticeError {
  readonly maxTurns: number;
  constructor(maxTurns: number) {
    super(`The query reached maxTurns (${maxTurns}) model requests without finishing.`);
    this.maxTurns = maxTurns;
  }
}

/** Fields a provider failure keeps, so a host can act on it. */
export interface ProviderErrorDetails {
  /** HTTP status, when there was a response. */
  status?: number;
  /** The provider's error type, e.g. `overloaded_error`, `rate_limit_error`. */
  errorType?: string;
  /** The provider's request id (`request-id` header), for support tickets. */
  requestId?: string;
  /** Whether the failure is transient (worth retrying). */
  retryable: boolean;
  /** `retry-after` / `retry-after-ms` hint in milliseconds, when the provider sent one. */
  retryAfterMs?: number;
  /** Whether the response had already produced content before failing (a stream cut mid-way). */
  partial?: boolean;
  cause?: unknown;
}

/**
 * A failure of the model provider: an HTTP error, a stream `error` event, a dropped connection.
 * Its message never contains the API key.
 */
export class ProviderError extends AgentLatticeError {
  readonly status: number | undefined;
  readonly errorType: string | undefined;
  readonly requestId: string | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly partial: boolean;
  constructor(message: string, details: ProviderErrorDetails) {
    super(message, { cause: details.cause });
    this.status = details.status;
    this.errorType = details.errorType;
    this.requestId = details.requestId;
    this.retryable = details.retryable;
    this.retryAfterMs = details.retryAfterMs;
    this.partial = details.partial ?? false;
  }
}

/** A history store failed to load, append or replace. */
export class HistoryStoreError extends AgentLatticeError {
  readonly operation: "load" | "append" | "replace";
  constructor(operation: "load" | "append" | "replace", cause: unknown) {
    super(`History store ${operation} failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.operation = operation;
  }
}

/** An option or argument is invalid. Thrown synchronously at creation or call time. */
export class InvalidOptionError extends AgentLatticeError {}

/** With `outputFormat`, the final text was not valid JSON or failed validation. */
export class StructuredOutputError extends AgentLatticeError {
  /** The text the model returned. */
  readonly text: string;
  constructor(message: string, text: string, options?: { cause?: unknown }) {
    super(message, options);
    this.text = text;
  }
}

/** A `userPromptSubmit` hook blocked the prompt; no model request was made. */
export class PromptBlockedError extends AgentLatticeError {}

/**
 * The context window was exceeded (`stop_reason: "model_context_window_exceeded"`) and could not be
 * recovered by compaction. The unusable response was not added to history.
 */
export class ContextWindowExceededError extends AgentLatticeError {
  /**
   * @param advice what the host can do; by default, enabling autoCompact. The loop says instead
   *   when compaction was on but could not recover (already used in this query, or it failed).
   */
  constructor(advice = "Enable autoCompact, or start a new conversation.") {
    super(
      `The model stopped with "model_context_window_exceeded": the conversation no longer fits the context window. ${advice}`,
    );
  }
}

/** A hook threw or ran past its timeout. Its message names the event, the hook's position and matcher. */
export class HookFailure extends AgentLatticeError {
  constructor(
    readonly event: string,
    readonly index: number,
    readonly matcher: string | RegExp | undefined,
    cause: unknown,
  ) {
    const which = `${event} hook #${index + 1}${matcher === undefined ? "" : ` (matcher ${String(matcher)})`}`;
    super(`${which} failed: ${messageOfThrown(cause)}`, { cause });
  }
}

/** A guardrail's check threw, timed out or returned no verdict (it counts as a tripwire unless `onError: "allow"`). */
export class GuardrailError extends AgentLatticeError {
  constructor(
    /** The guardrail's name. */
    readonly guardrail: string,
    /** The stage it ran at. */
    readonly stage: string,
    problem: string,
    options?: { cause?: unknown },
  ) {
    super(`The guardrail "${guardrail}" (${stage}) ${problem}.`, options);
  }
}

/** A guardrail tripped: the error of a result with the subtype `"guardrail_tripwire"`. */
export class GuardrailTripwireError extends AgentLatticeError {
  constructor(
    /** The guardrail's name. */
    readonly guardrail: string,
    /** The stage it tripped at. */
    readonly stage: string,
    /** The guardrail's message, if it gave one. */
    readonly reason?: string,
  ) {
    super(
      `The guardrail "${guardrail}" tripped at the ${stage} stage${reason ? `: ${reason}` : ""}. The turn was withdrawn.`,
    );
  }
}
