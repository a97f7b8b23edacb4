/**
 * Context editing as a request carries it: the resolved edits (`clearToolUses`, `clearThinking`),
 * their Messages API form (`context_management.edits`, beta `context-management-2025-06-27`), and
 * the edits a response reports as applied (`context_management.applied_edits`).
 * @module
 */
import type { AppliedContextEdit } from "../messages/applied-context-edit";

/** The beta the Messages API needs for `context_management`. */
export const CONTEXT_MANAGEMENT_BETA = "context-management-2025-06-27";
/** The API name of clearing old tool results. */
export const CLEAR_TOOL_USES_EDIT = "clear_tool_uses_20250919";
/** The API name of clearing old thinking. */
export const CLEAR_THINKING_EDIT = "clear_thinking_20251015";
/** The API name of server compaction. */
export const COMPACT_EDIT = "compact_20260112";
/** The beta the Messages API needs for server compaction. */
export const COMPACTION_BETA = "compact-2026-01-12";
/** The lowest trigger server compaction accepts, in input tokens. */
export const MIN_SERVER_COMPACTION_TRIGGER = 50_000;

/** Clearing old tool results, resolved (every field set). */
export interface ClearToolUsesEdit {
  /** Clearing starts once the request's input is over this many tokens. */
  readonly triggerTokens: number;
  /** The most recent tool uses kept whole. */
  readonly keepToolUses: number;
  /**
   * Clearing goes in steps of at least this many tokens (0: no step): the cleared part grows only
   * when a whole step more can be cleared, so the cached prefix of the request breaks rarely.
   */
  readonly clearAtLeastTokens: number;
  /** Tools whose results are never cleared. */
  readonly excludeTools: readonly string[];
  /** Also empty the inputs (`tool_use.input`) of the cleared calls. */
  readonly clearInputs: boolean;
}

/** Clearing old thinking, resolved: the thinking of the last `keepTurns` assistant turns is kept. */
export interface ClearThinkingEdit {
  readonly keepTurns: number | "all";
}

/**
 * Server compaction (`compact_20260112`), resolved: once a request's input is over `triggerTokens`,
 * the provider summarises the conversation and answers with a `compaction` block first.
 */
export interface CompactEdit {
  /** Compaction starts once the request's input is over this many tokens (at least 50,000). */
  readonly triggerTokens: number;
  /** Instructions for the summary, replacing the provider's own; undefined: the provider's. */
  readonly instructions?: string;
}

/** The edits of one request; at least one is set. */
export interface ContextEdits {
  readonly clearToolUses?: ClearToolUsesEdit;
  readonly clearThinking?: ClearThinkingEdit;
  /** Server compaction: only ever asked of the provider (the SDK compacts with `autoCompact`). */
  readonly compact?: CompactEdit;
}

/** One edit as the Messages API reads it in `context_management.edits`. */
export type WireContextEdit =
  | {
      type: typeof CLEAR_TOOL_USES_EDIT;
      trigger: { type: "input_tokens"; value: number };
      keep: { type: "tool_uses"; value: number };
      clear_at_least?: { type: "input_tokens"; value: number };
      exclude_tools?: string[];
      clear_tool_inputs?: boolean;
    }
  | { type: typeof CLEAR_THINKING_EDIT; keep: { type: "thinking_turns"; value: number } | "all" }
  | { type: typeof COMPACT_EDIT; trigger: { type: "input_tokens"; value: number }; instructions?: string };

/** `context_management` as the Messages API reads it. */
export type WireContextManagement = { edits: WireContextEdit[] };

/** The edits in the API's form; clearing thinking first, as the API requires, compaction last. */
export function toWireContextManagement(edits: ContextEdits): WireContextManagement {
  const wire: WireContextEdit[] = [];
  const { clearThinking, clearToolUses } = edits;
  if (clearThinking) {
    const { keepTurns } = clearThinking;
    wire.push({
      type: CLEAR_THINKING_EDIT,
      keep: keepTurns === "all" ? "all" : { type: "thinking_turns", value: keepTurns },
    });
  }
  if (clearToolUses) {
    const edit: WireContextEdit = {
      type: CLEAR_TOOL_USES_EDIT,
      trigger: { type: "input_tokens", value: clearToolUses.triggerTokens },
      keep: { type: "tool_uses", value: clearToolUses.keepToolUses },
    };
    if (clearToolUses.clearAtLeastTokens > 0)
      edit.clear_at_least = { type: "input_tokens", value: clearToolUses.clearAtLeastTokens };
    if (clearToolUses.excludeTools.length > 0) edit.exclude_tools = [...clearToolUses.excludeTools];
    if (clearToolUses.clearInputs) edit.clear_tool_inputs = true;
    wire.push(edit);
  }
  if (edits.compact) {
    const { triggerTokens, instructions } = edits.compact;
    wire.push({
      type: COMPACT_EDIT,
      trigger: { type: "input_tokens", value: triggerTokens },
      ...(instructions !== undefined && { instructions }),
    });
  }
  return { edits: wire };
}

/** The `anthropic-beta` values `edits` need: context editing's and/or server compaction's. */
export function betasOfEdits(edits: ContextEdits): string[] {
  const betas: string[] = [];
  if (edits.clearToolUses || edits.clearThinking) betas.push(CONTEXT_MANAGEMENT_BETA);
  if (edits.compact) betas.push(COMPACTION_BETA);
  return betas;
}

/**
 * The edits of a request body's `context_management` (what a server honouring them reads), with
 * the API's defaults for fields left out (trigger 100,000 tokens, keep 3 tool uses, keep 1 thinking
 * turn; compaction at 150,000 tokens); `undefined` when it holds no edit this module knows.
 */
export function fromWireContextManagement(value: unknown): ContextEdits | undefined {
  const edits = (value as { edits?: unknown } | undefined)?.edits;
  if (!Array.isArray(edits)) return undefined;
  let clearToolUses: ClearToolUsesEdit | undefined;
  let clearThinking: ClearThinkingEdit | undefined;
  let compact: CompactEdit | undefined;
  for (const edit of edits as Array<Record<string, any>>) {
    if (edit?.type === COMPACT_EDIT) {
      compact = {
        triggerTokens: numberOr(edit.trigger?.value, 150_000),
        ...(typeof edit.instructions === "string" && { instructions: edit.instructions }),
      };
      continue;
    }
    if (edit?.type === CLEAR_TOOL_USES_EDIT) {
      clearToolUses = {
        triggerTokens: numberOr(edit.trigger?.value, 100_000),
        keepToolUses: numberOr(edit.keep?.value, 3),
        clearAtLeastTokens: numberOr(edit.clear_at_least?.value, 0),
        excludeTools: Array.isArray(edit.exclude_tools) ? edit.exclude_tools.map(String) : [],
        clearInputs: edit.clear_tool_inputs === true,
      };
    } else if (edit?.type === CLEAR_THINKING_EDIT) {
      clearThinking = { keepTurns: edit.keep === "all" ? "all" : numberOr(edit.keep?.value, 1) };
    }
  }
  if (!clearToolUses && !clearThinking && !compact) return undefined;
  return {
    ...(clearToolUses && { clearToolUses }),
    ...(clearThinking && { clearThinking }),
    ...(compact && { compact }),
  };
}

/**
 * The applied edits of a response's `context_management` (JSON body, or a stream's `message_delta`);
 * `undefined` when the response has no `context_management` at all — the provider ignored the edits.
 */
export function readAppliedEdits(value: unknown): AppliedContextEdit[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const applied = (value as { applied_edits?: unknown }).applied_edits;
  if (!Array.isArray(applied)) return [];
  const edits: AppliedContextEdit[] = [];
  for (const entry of applied as Array<Record<string, unknown>>) {
    const tokens = numberOr(entry?.cleared_input_tokens, 0);
    if (entry?.type === CLEAR_TOOL_USES_EDIT) {
      edits.push({
        type: CLEAR_TOOL_USES_EDIT,
        cleared_tool_uses: numberOr(entry.cleared_tool_uses, 0),
        cleared_input_tokens: tokens,
      });
    } else if (entry?.type === CLEAR_THINKING_EDIT) {
      edits.push({
        type: CLEAR_THINKING_EDIT,
        cleared_thinking_turns: numberOr(entry.cleared_thinking_turns, 0),
        cleared_input_tokens: tokens,
      });
    }
  }
  return edits;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : fallback;
}
