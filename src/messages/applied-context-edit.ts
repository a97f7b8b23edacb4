/**
 * An edit of context management applied to one request, as the Messages API reports it in a
 * response's `context_management.applied_edits` (and as the SDK reports its own, on the client path).
 * @module
 */

/** An edit applied to one request: what was cleared, and the input tokens it freed. */
export type AppliedContextEdit =
  | { type: "clear_tool_uses_20250919"; cleared_tool_uses: number; cleared_input_tokens: number }
  | { type: "clear_thinking_20251015"; cleared_thinking_turns: number; cleared_input_tokens: number };
