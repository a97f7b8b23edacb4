/**
 * Approvals that survive restarts: the calls a paused query waits on, the decisions that resume
 * it, and the marker message that keeps the pause in stored history.
 *
 * The pause is stored as two messages any history store can hold: the assistant message whose
 * `tool_use` blocks have no results yet, followed by an {@link ApprovalMarker} — a user message
 * carrying `pending_approvals`. The loop never sends a marker to the model: resuming (or a new
 * prompt) takes it out of history before the next request.
 * @module
 */
import { InvalidOptionError } from "../errors";
import { FNV_PRIME, fnv1a32, hex32 } from "../shared/fnv-hash";
import {
  type AnsweredInput,
  type InputAnswers,
  onlyAuthorizations,
  type PendingInput,
  waitingText,
} from "./pending-inputs";
import type { ModelMessage, ToolResultBlock, ToolUseBlock, UserModelMessage } from "./types";

/** A tool call waiting for a person's decision. */
export interface PendingApproval {
  tool_use_id: string;
  /** The tool's name as the model called it. */
  name: string;
  /** The input the call would run with (after `preToolUse` hooks). */
  input: unknown;
  /** Why it asks, when `canUseTool` answered `{ behavior: "ask", message }`. */
  message?: string;
  /**
   * The subagent call this call waits inside, when a subagent's own call asks: the id of the
   * innermost subagent `tool_use` (for a grandchild's call, the child's call that started it).
   * Absent for a call of the query's own batch.
   */
  parent_tool_use_id?: string;
  /** The name of the subagent whose call this is; set with `parent_tool_use_id`. */
  agent?: string;
}

/**
 * A subagent call of a paused batch that is waiting inside its child: the child paused on calls
 * of its own (or of its own subagents), listed in the parent's `pending_approvals`.
 */
export interface SuspendedSubagentCall {
  /** The parent's `tool_use` that runs the subagent. */
  tool_use_id: string;
  /** The subagent's name. */
  agent: string;
  /** The `tool_use_id`s of `pending_approvals` this call waits on (its child's and deeper). */
  pending_ids: string[];
  /**
   * The ids the child knows those calls by, in the order of `pending_ids`: present when one of them
   * repeated an id already in the flat list (providers that number their calls `call_0`, `call_1`
   * in every response) and is listed as `<subagent call id>/<id>` instead, so that no two pending
   * calls share an id and one decision can never answer both.
   */
  child_ids?: string[];
  /**
   * The child's conversation up to its pause, when the child has no `historyStore` of its own (it
   * lived in memory): resuming seeds the recreated child with it. A child with a store keeps its
   * pause there.
   */
  history?: ModelMessage[];
  /**
   * The ids of `pending_inputs` this call waits on: questions its MCP server asked during the
   * call (then `agent` is the server's name), or that calls inside its child asked.
   */
  input_ids?: string[];
  /** The ids the call knows those questions by, in the order of `input_ids`, when one was renamed (as `child_ids`). */
  input_child_ids?: string[];
  /** An MCP call's questions answered before it paused (again): the call run again answers them so. */
  answered_inputs?: AnsweredInput[];
}

/** A decision about one pending call. */
export type ApprovalDecision =
  | { approved: true; updatedInput?: unknown }
  | { approved: false; message?: string };

/** Decisions by `tool_use_id`: one for every pending call, none for anything else. */
export type ApprovalDecisions = Record<string, ApprovalDecision>;

/**
 * What `prompt()`, `query()` and `streamInput()` take to resume a paused query: the decisions for
 * the calls waiting for approval, and the answers to the questions waiting (`requires_input`) —
 * each given when its list is pending.
 */
export type ApprovalInput =
  | { approvals: ApprovalDecisions; inputs?: InputAnswers }
  | { approvals?: ApprovalDecisions; inputs: InputAnswers };

/**
 * The stored marker of a pause: a user message the loop never sends to the model. A pause inside
 * a subagent also holds the results of the batch's calls that finished before it
 * (`settled_results`) and the subagent calls waiting inside their children (`suspended_calls`).
 */
export type ApprovalMarker = UserModelMessage & {
  pending_approvals: PendingApproval[];
  settled_results?: ToolResultBlock[];
  /** The `tool_use_id`s of settled results whose tool asked to end the turn (`endTurn`). */
  settled_end_turn?: string[];
  suspended_calls?: SuspendedSubagentCall[];
  /** The questions MCP servers asked during the batch's calls, waiting for answers (`requires_input`). */
  pending_inputs?: PendingInput[];
  /**
   * Decisions a person gave, when the batch was resumed before, for calls of the batch that had
   * not started when it paused again (a call before them was suspended: a subagent's child paused,
   * or an MCP server asked a question): applied when the batch is resumed, not asked again.
   */
  carried_decisions?: ApprovalDecisions;
  /**
   * A digest of the paused calls as recorded (ids, names, inputs; {@link callsDigest}): resuming
   * refuses calls whose stored `tool_use` was edited since, so what ran is what was shown. Absent
   * in markers recorded before 0.21.
   */
  calls_digest?: string;
};

/** What a pause inside a subagent adds to its marker. */
export interface ChildPauseState {
  settled?: ToolResultBlock[];
  /** The settled calls whose tool asked to end the turn. */
  endTurn?: string[];
  suspended?: SuspendedSubagentCall[];
  /** The questions waiting for an answer. */
  inputs?: PendingInput[];
  /** Decisions given for calls of the batch that had not started when it paused again. */
  decided?: ApprovalDecisions;
}

/** Whether `message` is the marker of a pause. */
export function isApprovalMarker(message: ModelMessage | undefined): message is ApprovalMarker {
  return (
    message !== undefined &&
    message.role === "user" &&
    Array.isArray((message as Partial<ApprovalMarker>).pending_approvals)
  );
}

/** The marker recording that `pending` wait for a decision (inside subagents too, with `child`). */
export function approvalMarker(pending: PendingApproval[], child: ChildPauseState = {}): ApprovalMarker {
  const questions = child.inputs?.length ?? 0;
  const marker: ApprovalMarker = {
    role: "user",
    content: [{ type: "text", text: waitingText(pending.length, questions) }],
    pending_approvals: pending,
  };
  if (questions > 0) marker.pending_inputs = child.inputs;
  if (child.settled?.length) marker.settled_results = child.settled;
  if (child.endTurn?.length) marker.settled_end_turn = child.endTurn;
  if (child.suspended?.length) marker.suspended_calls = child.suspended;
  if (child.decided && Object.keys(child.decided).length > 0) marker.carried_decisions = child.decided;
  return marker;
}

/**
 * The pause at the end of `history`: the marker and the assistant message before it, or
 * `undefined` when the history does not end with a pause that fits that message: every pending
 * call is a call of it, or is waited on by one of its subagent calls (`suspended_calls`), and every
 * settled result answers one of its calls.
 */
export function pendingPause(
  history: readonly ModelMessage[],
): { marker: ApprovalMarker; calls: ToolUseBlock[]; index: number } | undefined {
  const index = history.length - 1;
  const marker = history[index];
  const assistant = history[index - 1];
  if (!isApprovalMarker(marker)) return undefined;
  if (isAuthorizationPause(marker, assistant)) return { marker, calls: [], index };
  if (assistant?.role !== "assistant") return undefined;
  const calls = assistant.content.filter((block): block is ToolUseBlock => block.type === "tool_use");
  const ids = new Set(calls.map((call) => call.id));
  if (marker.pending_approvals.length === 0 && !marker.pending_inputs?.length) return undefined;
  return fitsCalls(marker, ids) ? { marker, calls, index } : undefined;
}

/**
 * Whether `marker` pauses for MCP servers' authorization alone (`auth.redirect: "pause"`): no call
 * under it, recorded right after the prompt (a user message) the model has not answered yet.
 */
export function isAuthorizationPause(marker: ApprovalMarker, before: ModelMessage | undefined): boolean {
  return (
    marker.pending_approvals.length === 0 &&
    onlyAuthorizations(marker.pending_inputs) &&
    marker.suspended_calls === undefined &&
    marker.settled_results === undefined &&
    before?.role === "user" &&
    !isApprovalMarker(before)
  );
}

/** Whether the marker's pending calls, settled results and suspended calls belong to `ids`' batch. */
function fitsCalls(marker: ApprovalMarker, ids: ReadonlySet<string>): boolean {
  const inChildren = new Set<string>();
  for (const suspended of marker.suspended_calls ?? []) {
    if (!ids.has(suspended.tool_use_id) || !Array.isArray(suspended.pending_ids)) return false;
    const { child_ids: childIds } = suspended;
    if (
      childIds !== undefined &&
      (!Array.isArray(childIds) || childIds.length !== suspended.pending_ids.length)
    )
      return false;
    for (const id of suspended.pending_ids) inChildren.add(id);
  }
  if (marker.pending_inputs !== undefined && !Array.isArray(marker.pending_inputs)) return false;
  const asked = new Set((marker.suspended_calls ?? []).flatMap((suspended) => suspended.input_ids ?? []));
  if (!(marker.pending_inputs ?? []).every((input) => asked.has(input.id))) return false;
  for (const result of marker.settled_results ?? []) if (!ids.has(result.tool_use_id)) return false;
  const carried = marker.carried_decisions;
  if (carried !== undefined && (typeof carried !== "object" || carried === null || Array.isArray(carried)))
    return false;
  if (!Object.keys(carried ?? {}).every((id) => ids.has(id))) return false;
  return marker.pending_approvals.every(
    (pending) => ids.has(pending.tool_use_id) || inChildren.has(pending.tool_use_id),
  );
}

/** Whether `input` is a resume (`{ approvals }`, `{ inputs }` or both) rather than a prompt. */
export function isApprovalInput(input: unknown): input is ApprovalInput {
  return (
    typeof input === "object" &&
    input !== null &&
    !Array.isArray(input) &&
    ("approvals" in input || "inputs" in input)
  );
}

/**
 * Checks decisions against the pending calls: an object of well-formed decisions, one for every
 * pending call and none for anything else.
 * @throws InvalidOptionError
 */
export function assertDecisions(decisions: unknown, pending: readonly PendingApproval[] | undefined): void {
  if (typeof decisions !== "object" || decisions === null || Array.isArray(decisions))
    throw new InvalidOptionError("approvals must be an object of decisions by tool_use_id.");
  if (!pending || pending.length === 0)
    throw new InvalidOptionError("approvals were given, but no tool call is waiting for approval.");
  const ids = new Set(pending.map((call) => call.tool_use_id));
  for (const [id, decision] of Object.entries(decisions)) {
    if (!ids.has(id))
      // The id is the caller's input and may hold anything (a key): named by position, not echoed.
      throw new InvalidOptionError(
        `approvals has a decision for an id that is not pending (the pending calls: ${[...ids].map((known) => JSON.stringify(known)).join(", ")}).`,
      );
    if (!isDecision(decision))
      throw new InvalidOptionError(
        `The decision for ${JSON.stringify(id)} must be { approved: true, updatedInput? } or { approved: false, message? }.`,
      );
  }
  const missing = pending.filter((call) => !Object.hasOwn(decisions, call.tool_use_id));
  if (missing.length > 0)
    throw new InvalidOptionError(
      `approvals has no decision for ${missing.map((call) => JSON.stringify(call.tool_use_id)).join(", ")}: every pending call needs one.`,
    );
}

function isDecision(value: unknown): value is ApprovalDecision {
  if (typeof value !== "object" || value === null) return false;
  const { approved, message } = value as { approved?: unknown; message?: unknown };
  if (approved === true) return true;
  return approved === false && (message === undefined || typeof message === "string");
}

/**
 * A digest of tool calls — their ids, names and inputs, object keys sorted (a store such as
 * PostgreSQL's `jsonb` may reorder them) — that changes when any of them is edited. Not keyed: it
 * catches an edit of the stored call, not a writer who also rewrites the digest.
 */
export function callsDigest(calls: readonly ToolUseBlock[]): string {
  const text = canonicalJson(calls.map((call) => [call.id, call.name, call.input ?? null]));
  // Two 32-bit FNV-1a hashes with different offsets: 64 bits, no crypto module needed (edge runtimes).
  // The second lane mixes its high bits back in after each step, so the two lanes differ.
  let second = FNV_PRIME ^ 0x5bd1e995;
  for (let index = 0; index < text.length; index++) {
    second = Math.imul(second ^ text.charCodeAt(index), FNV_PRIME) >>> 0;
    second = (second ^ (second >>> 15)) >>> 0;
  }
  return `fnv1a64:${hex32(fnv1a32(text))}${hex32(second)}`;
}

/** JSON with every object's keys sorted. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
