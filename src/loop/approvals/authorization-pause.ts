/**
 * A query paused for MCP servers' authorization (`auth.redirect: "pause"`, a server app): a server
 * needs a person to authorize it before the model may be called, so once the prompt is recorded the
 * query ends `requires_input`, the marker after the prompt listing one `pending_inputs` entry per
 * server (`kind: "authorization"`, `url` = the authorization URL). No tool call is under it: the
 * history stays well-formed (the prompt, unanswered; the marker is never sent to the model).
 *
 * Answered (`prompt({ inputs })`), the marker is taken out — claimed, so one process resumes — the
 * servers declined or cancelled stay unavailable, and the model is called with the tools of those
 * authorized meanwhile (the agent connected them again before the query). A server accepted but
 * still not authorized pauses the query again, with a new URL. A new prompt sent instead takes the
 * marker out too and pauses again after it while a server still waits.
 * @module
 */
import { ConversationConflictError } from "../../errors";
import type { HistoryLog } from "../../history/history-log";
import { type ApprovalMarker, approvalMarker } from "../../messages/approvals";
import type { InputAnswer, PendingInput } from "../../messages/pending-inputs";
import type { ModelMessage } from "../../messages/types";
import type { SpanHandle } from "../../telemetry/telemetry";
import { READY, type StepResult } from "../decide-next";
import { startParallelInput } from "../guardrails/input-guardrails";
import type { WaitingAuthorization } from "../state/authorization-gate";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";

/** The id of the pending input of `server`'s authorization. */
export function authorizationInputId(server: string): string {
  return `authorization/${server}`;
}

/** The pending input of a server waiting for authorization. */
function authorizationInput(waiting: WaitingAuthorization): PendingInput {
  return {
    id: authorizationInputId(waiting.server),
    kind: "authorization",
    server: waiting.server,
    message: `The MCP server "${waiting.server}" needs authorization: open the URL and approve access.`,
    mode: "url",
    url: waiting.url,
    tool_use_id: "",
  };
}

/** The marker of an authorization pause (its text for the studio and history readers). */
function authorizationMarker(inputs: PendingInput[]): ApprovalMarker {
  const marker = approvalMarker([], { inputs });
  const names = inputs.map((input) => JSON.stringify(input.server)).join(", ");
  marker.content = [
    {
      type: "text",
      text: `[waiting for a person to authorize the MCP ${inputs.length === 1 ? "server" : "servers"} ${names}]`,
    },
  ];
  return marker;
}

/**
 * After the prompt is recorded: when MCP servers wait for authorization, records the pause and ends
 * the query `requires_input`; otherwise `undefined` (the model is called).
 */
export async function pauseForAuthorization<T>(
  loop: LoopContext<T>,
  query: QueryState,
): Promise<StepResult<T> | undefined> {
  const waiting = loop.conversation.authorizations?.waiting() ?? [];
  if (waiting.length === 0) return undefined;
  const inputs = waiting.map(authorizationInput);
  await loop.conversation.history.append(authorizationMarker(inputs));
  query.span.event("agent_lattice.inputs.paused", {
    "agent_lattice.inputs.pending": inputs.length,
    "agent_lattice.inputs.pending_ids": inputs.map((input) => input.id),
    "agent_lattice.inputs.kind": "authorization",
  });
  return { kind: "ended", ending: { subtype: "requires_input", pendingInputs: inputs } };
}

/**
 * Resumes an authorization pause with the person's answers (already checked): claims it, leaves
 * declined servers unavailable, then pauses again for a server still waiting or lets the model be
 * called. A prompt recorded unchecked by parallel input guardrails is checked now, as it would have
 * been had the query not paused.
 * @throws ConversationConflictError when another Agent resolved the pause first
 */
export async function resumeAuthorization<T>(
  loop: LoopContext<T>,
  query: QueryState,
  pause: { marker: ApprovalMarker; index: number },
  answers: ReadonlyMap<string, InputAnswer>,
): Promise<StepResult<T>> {
  const { history, authorizations } = loop.conversation;
  await claimAuthorizationPause(history, pause.index);
  const byId = new Map((pause.marker.pending_inputs ?? []).map((input) => [input.id, input]));
  for (const [id, answer] of answers) {
    const server = byId.get(id)?.server;
    if (server !== undefined && answer.action !== "accept") authorizations?.decline(server, answer.action);
  }
  query.span.event("agent_lattice.inputs.resumed", {
    "agent_lattice.inputs.answered_ids": [...answers.keys()],
    "agent_lattice.inputs.actions": [...answers.values()].map((answer) => answer.action),
    "agent_lattice.inputs.kind": "authorization",
  });
  const again = await pauseForAuthorization(loop, query);
  if (again) return again;
  checkPromptInParallel(loop, query);
  return READY;
}

/** A new prompt instead of answers: the marker is taken out (claimed); the prompt follows the old one. */
export async function supersedeAuthorizationPause(
  history: HistoryLog,
  index: number,
  span: SpanHandle,
): Promise<void> {
  await claimAuthorizationPause(history, index);
  span.event("agent_lattice.inputs.superseded", { "agent_lattice.inputs.kind": "authorization" });
}

/** The prompt before the pause, recorded unchecked by parallel input guardrails: their check starts now. */
function checkPromptInParallel<T>(loop: LoopContext<T>, query: QueryState): void {
  if (!loop.config.guardrails?.parallelInput) return;
  const messages = loop.conversation.history.messages;
  const prompt = messages.at(-1) as ModelMessage | undefined;
  if (prompt?.role !== "user" || prompt.meta?.withdrawn !== "unchecked") return;
  startParallelInput(loop as LoopContext<unknown>, query, prompt.content, messages.slice(0, -1));
}

async function claimAuthorizationPause(history: HistoryLog, index: number): Promise<void> {
  try {
    await history.replaceOrThrow(history.messages.slice(0, index));
  } catch (error) {
    if (!(error instanceof ConversationConflictError)) throw error;
    throw new ConversationConflictError(
      error.conversationId,
      "this authorization pause was resolved by another Agent first",
    );
  }
}
