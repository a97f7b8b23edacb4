/**
 * The questions of one MCP tool call run by an agent's loop (`runAgentCall`): where a server's
 * `elicitation/create` during the call is answered from when nobody answers at once.
 *
 * - **Pause.** A question that `onElicitation` leaves unanswered (`"pause"`, or no handler) is
 *   recorded here and the server is told `cancel`; when the call returns, its result is discarded
 *   and the call comes back suspended with the questions (`pendingInputs`), so the query pauses
 *   `requires_input` like an approval.
 * - **Resume.** The call is issued again — the same `tools/call` — with the person's answers. A
 *   question the server asks again is answered from them when it matches one: the same
 *   `elicitationId` when both have one, otherwise the same mode, message, requested schema and URL
 *   — where the stored text holds `[redacted]` (history redacts with the agent's own secrets too,
 *   which the connection does not know), any text in its place.
 *   Each answer is used once. A question that matches none is a new question: asked of
 *   `onElicitation`, or paused on again (the query ends `requires_input` once more, with the
 *   answers given so far carried over so that the next run answers them too).
 * @module
 */
import type { AnsweredInput, InputAnswer, PendingInput } from "../../messages/pending-inputs";
import { REDACTED } from "../../shared/redact";
import type { McpElicitationRequest } from "./elicitation-types";

/** One tool call's questions: the stored answers it may use, and the questions it paused on. */
export class CallQuestions {
  /** The questions this run paused on, in the order asked. */
  readonly asked: PendingInput[] = [];
  private readonly used = new Set<number>();

  /**
   * @param toolUseId The call's `tool_use` id (the pending inputs' ids start with it).
   * @param answers The answers given at resume (and before), each with the question it answers.
   */
  constructor(
    readonly toolUseId: string,
    readonly answers: readonly AnsweredInput[] = [],
  ) {}

  /** The stored answer to `asked`, used up; undefined when none matches. */
  answerFor(asked: McpElicitationRequest): InputAnswer | undefined {
    for (let index = 0; index < this.answers.length; index++) {
      if (this.used.has(index)) continue;
      const { input, answer } = this.answers[index]!;
      if (!sameQuestion(input, asked)) continue;
      this.used.add(index);
      return answer;
    }
    return undefined;
  }

  /** Records `asked` as waiting for a person's answer. */
  pause(asked: McpElicitationRequest): void {
    const taken = new Set([
      ...this.answers.map((entry) => entry.input.id),
      ...this.asked.map((input) => input.id),
    ]);
    let number = this.asked.length + this.answers.length + 1;
    while (taken.has(`${this.toolUseId}/input-${number}`)) number++;
    const input: PendingInput = {
      id: `${this.toolUseId}/input-${number}`,
      server: asked.server,
      message: asked.message,
      mode: asked.mode,
      tool_use_id: this.toolUseId,
    };
    if (asked.requestedSchema !== undefined) input.requestedSchema = structuredClone(asked.requestedSchema);
    if (asked.url !== undefined) input.url = asked.url;
    if (asked.elicitationId !== undefined) input.elicitationId = asked.elicitationId;
    this.asked.push(input);
  }
}

/** Whether a stored question and a question asked now are the same question. */
function sameQuestion(stored: PendingInput, asked: McpElicitationRequest): boolean {
  if (stored.server !== asked.server) return false;
  if (stored.elicitationId !== undefined && asked.elicitationId !== undefined)
    return stored.elicitationId === asked.elicitationId;
  return (
    stored.mode === asked.mode &&
    sameText(stored.message, asked.message) &&
    (stored.url === asked.url ||
      (stored.url !== undefined && asked.url !== undefined && sameText(stored.url, asked.url))) &&
    sameText(canonicalJson(stored.requestedSchema), canonicalJson(asked.requestedSchema))
  );
}

/**
 * Whether `asked` is the text `stored` was recorded from: the same, or — when `stored` holds
 * `[redacted]` — the same around each `[redacted]`, with some text in its place.
 */
function sameText(stored: string, asked: string): boolean {
  if (stored === asked) return true;
  if (!stored.includes(REDACTED)) return false;
  // A pattern whose wildcards each stand for one text or more, matched leftmost (linear, no regex).
  const parts = stored.split(REDACTED);
  const first = parts[0]!;
  const last = parts.at(-1)!;
  if (!asked.startsWith(first) || !asked.endsWith(last)) return false;
  let at = first.length;
  const end = asked.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = asked.indexOf(part, at + 1);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return end - at >= 1;
}

/** JSON with every object's keys sorted (a store such as PostgreSQL's `jsonb` may reorder them). */
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
