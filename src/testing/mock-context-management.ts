/**
 * The mock server's context management, as the Messages API does it: `context_management.edits`
 * (`clear_tool_uses_20250919`, `clear_thinking_20251015`, beta `context-management-2025-06-27`)
 * applied to the request before the model sees it, `applied_edits` reported in the response, and
 * `POST /v1/messages/count_tokens`. A server started with `contextManagement: false` is a
 * provider without support: it ignores `context_management` (no field in its responses) and has
 * no counting route.
 * @module
 */
import type { IncomingHttpHeaders } from "node:http";
import type { AppliedContextEdit } from "../messages/applied-context-edit";
import { applyContextEdits, estimateRequestTokens } from "../model/context-editing";
import { CONTEXT_MANAGEMENT_BETA, fromWireContextManagement } from "../model/context-management";

/** What context management made of one request. */
export type MockContextOutcome =
  | { error: string }
  | {
      /** The body the model answers: edited when edits applied, else the request's own. */
      body: any;
      /** The messages after editing, when the server edited them. */
      editedMessages?: unknown[];
      /** The response's `context_management`, when the request asked for edits. */
      contextManagement?: { applied_edits: AppliedContextEdit[] };
    };

/** The betas a request names in its `anthropic-beta` header(s). */
export function betasOf(headers: IncomingHttpHeaders): string[] {
  const raw = headers["anthropic-beta"];
  const values = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return values.flatMap((value) =>
    value
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean),
  );
}

/**
 * Applies the request's `context_management` when the server supports it: edits its messages (the
 * trigger counted with the estimate the SDK's client path uses) and says what it applied. Refuses
 * (as the API does, with a 400) `context_management` without its beta or without a known edit.
 */
export function applyMockContextManagement(
  body: any,
  headers: IncomingHttpHeaders,
  supported: boolean,
): MockContextOutcome {
  if (!supported || body.context_management === undefined) return { body };
  if (!betasOf(headers).includes(CONTEXT_MANAGEMENT_BETA)) {
    return {
      error: `context_management: this feature needs the beta header "anthropic-beta: ${CONTEXT_MANAGEMENT_BETA}".`,
    };
  }
  const edits = fromWireContextManagement(body.context_management);
  if (!edits)
    return {
      error: "context_management.edits: no known edit (clear_tool_uses_20250919, clear_thinking_20251015).",
    };
  const messages: any[] = Array.isArray(body.messages) ? body.messages : [];
  const tokens = estimateRequestTokens({ system: body.system, tools: body.tools, messages });
  const edited = applyContextEdits(messages, edits, tokens);
  const contextManagement = { applied_edits: edited.applied };
  if (edited.applied.length === 0) return { body, contextManagement };
  return { body: { ...body, messages: edited.messages }, editedMessages: edited.messages, contextManagement };
}
