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
import { estimatePromptTokens } from "./mock-prompt-cache";
import {
  compactionRefusal,
  type MockCompactionLedger,
  type MockCompactionRun,
  readFromLastCompaction,
} from "./mock-server-compaction";
import { apiErrorBody } from "./mock-server-errors";

/** What context management made of one request. */
export type MockContextOutcome =
  | { error: string }
  | {
      /** The body the model answers: edited when edits applied, else the request's own. */
      body: any;
      /** The messages after editing, when the server edited them. */
      editedMessages?: unknown[];
      /** What the response adds: its `context_management`, when the request asked for edits. */
      response?: { context_management: { applied_edits: AppliedContextEdit[] } };
      /** The compaction the server ran before answering, when it ran one. */
      compaction?: MockCompactionRun;
    };

/** The route of token counting. */
export const COUNT_TOKENS_PATH = "/v1/messages/count_tokens";

/** The Messages API's declaration of its memory tool. */
const MEMORY_TOOL_TYPE = "memory_20250818";

/**
 * Checks the native tools a request declares as the API does: the memory tool (`memory_20250818`)
 * must be named `memory` and needs the context-management beta; a provider without support knows
 * no such tool type (tool search's tool is left to the tool-search checks). Returns why the request
 * is refused, or `undefined`.
 */
export function checkNativeTools(
  body: any,
  headers: IncomingHttpHeaders,
  supported: boolean,
): string | undefined {
  const tools: unknown[] = Array.isArray(body.tools) ? body.tools : [];
  for (const [index, tool] of tools.entries()) {
    const type = (tool as { type?: unknown })?.type;
    if (type === undefined || type === "custom") continue;
    // Tool search's own declaration is checked by the tool-search part of the mock.
    if (typeof type === "string" && type.startsWith("tool_search_tool_")) continue;
    if (type !== MEMORY_TOOL_TYPE || !supported)
      return `tools.${index}.type: unknown tool type ${JSON.stringify(type)}.`;
    if ((tool as { name?: unknown }).name !== "memory")
      return `tools.${index}.name: the ${MEMORY_TOOL_TYPE} tool must be named "memory".`;
    if (!betasOf(headers).includes(CONTEXT_MANAGEMENT_BETA))
      return `tools.${index}: the ${MEMORY_TOOL_TYPE} tool needs the beta header "anthropic-beta: ${CONTEXT_MANAGEMENT_BETA}".`;
  }
  return undefined;
}

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

/** The server's compaction state and whether its model compacts. */
export interface MockCompactionSupport {
  readonly ledger: MockCompactionLedger;
  /** False: the model refuses `compact_20260112` with a 400 (`serverCompaction: false`). */
  readonly modelCompacts: boolean;
}

/**
 * Applies the request's `context_management` when the server supports it: reads the conversation
 * from its last compaction block on, compacts it when asked and over the trigger, edits its
 * messages (the trigger counted with the estimate the SDK's client path uses) and says what it
 * applied. Refuses (as the API does, with a 400) `context_management` without its beta or without
 * a known edit, a compaction the model does not do, and compaction blocks not sent back as issued
 * (or at all, on a server without support).
 */
export function applyMockContextManagement(
  body: any,
  headers: IncomingHttpHeaders,
  supported: boolean,
  compaction: MockCompactionSupport,
): MockContextOutcome {
  const sent: any[] = Array.isArray(body.messages) ? body.messages : [];
  const refusal = checkNativeTools(body, headers, supported) ?? compaction.ledger.check(sent, supported);
  if (refusal) return { error: refusal };
  if (!supported) return { body };
  const read = readFromLastCompaction(sent);
  const compacted = read !== sent;
  let model = compacted ? { ...body, messages: read } : body;
  if (body.context_management === undefined)
    return compacted ? { body: model, editedMessages: read } : { body };
  const edits = fromWireContextManagement(body.context_management);
  if (!edits)
    return {
      error:
        "context_management.edits: no known edit (clear_tool_uses_20250919, clear_thinking_20251015, compact_20260112).",
    };
  const betas = betasOf(headers);
  const clears = edits.clearToolUses !== undefined || edits.clearThinking !== undefined;
  if (clears && !betas.includes(CONTEXT_MANAGEMENT_BETA))
    return {
      error: `context_management: this feature needs the beta header "anthropic-beta: ${CONTEXT_MANAGEMENT_BETA}".`,
    };
  let run: MockCompactionRun | undefined;
  if (edits.compact) {
    const refused = compactionRefusal(edits.compact, betas, compaction.modelCompacts);
    if (refused) return { error: refused };
    run = compaction.ledger.run(model, edits.compact);
    if (run)
      model = {
        ...model,
        messages: [{ role: "user", content: [{ type: "text", text: run.block.content }] }],
      };
  }
  const messages: any[] = model.messages;
  const tokens = estimateRequestTokens({ system: model.system, tools: model.tools, messages });
  const edited = clears ? applyContextEdits(messages, edits, tokens) : { messages, applied: [] };
  const response = { context_management: { applied_edits: edited.applied } };
  if (edited.applied.length > 0) model = { ...model, messages: edited.messages };
  const changed = model !== body;
  return { body: model, ...(changed && { editedMessages: model.messages }), response, compaction: run };
}

/**
 * The answer of `POST /v1/messages/count_tokens`: the input tokens of what the model would read —
 * the conversation from its last compaction block on, with the request's context edits applied.
 */
export function countMockTokens(
  body: any,
  headers: IncomingHttpHeaders,
  compaction: MockCompactionSupport,
): [status: number, body: unknown] {
  const { compact: _compact, ...rest } = fromWireContextManagement(body.context_management) ?? {};
  const counted = { ...body, context_management: undefined };
  const outcome = applyMockContextManagement(counted, headers, true, compaction);
  if ("error" in outcome) return [400, apiErrorBody("invalid_request_error", outcome.error)];
  let messages: any[] = outcome.body.messages ?? [];
  if (rest.clearToolUses || rest.clearThinking) {
    const tokens = estimateRequestTokens({ system: body.system, tools: body.tools, messages });
    messages = applyContextEdits(messages, rest, tokens).messages;
  }
  return [200, { input_tokens: Math.max(1, estimatePromptTokens({ ...outcome.body, messages })) }];
}
