/**
 * Questions that survive restarts: an MCP server asked the user something during a tool call
 * (elicitation) and nobody could answer at once, so the query paused. The pending questions, the
 * answers that resume the query, and the answers a call carries over when it is run again.
 *
 * The pause is kept in the same marker as an approval's (`approvals.ts`): its `pending_inputs`
 * list the questions, and the call that asked is one of its `suspended_calls`.
 * @module
 */
import { InvalidOptionError } from "../errors";

/**
 * A question an MCP server asked during a tool call, waiting for a person's answer — or (`kind:
 * "authorization"`) an MCP server waiting for a person to authorize it before the model is called.
 */
export interface PendingInput {
  /** The id the answer is given under (`prompt({ inputs: { [id]: answer } })`). */
  id: string;
  /**
   * `"authorization"`: the server needs OAuth authorization (`auth.redirect: "pause"`) — `url` is
   * the authorization URL, `mode` is `"url"`, and no tool call asked (`tool_use_id` is `""`). The app
   * finishes the authorization with `finishMcpAuthorization`; `accept` then connects with the new
   * tokens, `decline` or `cancel` leaves the server unavailable. Absent: a server's question
   * (elicitation) during a tool call.
   */
  kind?: "authorization";
  /** The MCP server's name in `mcpServers`. */
  server: string;
  /** The question, in the server's words. */
  message: string;
  /** `form`: answer with `content` matching `requestedSchema`; `url`: the person visits `url`. */
  mode: "form" | "url";
  /** Form mode: the fields wanted (a flat JSON Schema object). */
  requestedSchema?: unknown;
  /** URL mode: the page the person should open (an authorization URL carries only state and a PKCE challenge). */
  url?: string;
  /** URL mode: the server's id of this question. */
  elicitationId?: string;
  /**
   * The tool call that asked (the innermost one, for a question asked inside a subagent); `""` for
   * an authorization, which no call asks.
   */
  tool_use_id: string;
  /** The subagent call the question waits inside, when a subagent's own MCP call asked. */
  parent_tool_use_id?: string;
  /** The subagent's name; set with `parent_tool_use_id`. */
  agent?: string;
}

/** An answer to a pending question: `accept` (with the form's `content`), `decline` or `cancel`. */
export interface InputAnswer {
  action: "accept" | "decline" | "cancel";
  /** Form mode, with `accept`: the fields (left-out fields get the schema's defaults). */
  content?: Record<string, unknown>;
}

/** Answers by pending input id: one for every pending question, none for anything else. */
export type InputAnswers = Record<string, InputAnswer>;

/** A question with the answer given to it: what a call run again answers the same question with. */
export interface AnsweredInput {
  input: PendingInput;
  answer: InputAnswer;
}

/** Whether every input of a pause is an MCP server's authorization (a pause with no tool call under it). */
export function onlyAuthorizations(inputs: readonly PendingInput[] | undefined): boolean {
  return (
    Array.isArray(inputs) &&
    inputs.length > 0 &&
    inputs.every((input) => (input as { kind?: unknown })?.kind === "authorization")
  );
}

/** The text of the pause marker's content for `count` questions and `calls` approvals. */
export function waitingText(calls: number, questions: number): string {
  const parts: string[] = [];
  if (calls > 0) parts.push(`approve ${calls} ${calls === 1 ? "tool call" : "tool calls"}`);
  if (questions > 0) parts.push(`answer ${questions} ${questions === 1 ? "question" : "questions"}`);
  return `[waiting for a person to ${parts.join(" and ")}]`;
}

/**
 * Checks answers against the pending questions: an object of well-formed answers, one for every
 * pending question and none for anything else.
 * @throws InvalidOptionError
 */
export function assertInputAnswers(answers: unknown, pending: readonly PendingInput[] | undefined): void {
  if (answers === undefined && pending && pending.length > 0)
    throw new InvalidOptionError(
      `The query waits for answers to ${pending.length === 1 ? "a question" : `${pending.length} questions`} (requires_input): resume with prompt({ inputs: { [id]: { action, content? } } }).`,
    );
  if (typeof answers !== "object" || answers === null || Array.isArray(answers))
    throw new InvalidOptionError("inputs must be an object of answers by pending input id.");
  if (!pending || pending.length === 0)
    throw new InvalidOptionError("inputs were given, but no question is waiting for an answer.");
  const ids = new Set(pending.map((input) => input.id));
  for (const [id, answer] of Object.entries(answers)) {
    if (!ids.has(id))
      // The id is the caller's input and may hold anything: named by the list, never echoed.
      throw new InvalidOptionError(
        `inputs has an answer for an id that is not pending (the pending inputs: ${[...ids].map((known) => JSON.stringify(known)).join(", ")}).`,
      );
    if (!isInputAnswer(answer))
      throw new InvalidOptionError(
        `The answer for ${JSON.stringify(id)} must be { action: "accept" | "decline" | "cancel", content?: object }.`,
      );
  }
  const missing = pending.filter((input) => !Object.hasOwn(answers, input.id));
  if (missing.length > 0)
    throw new InvalidOptionError(
      `inputs has no answer for ${missing.map((input) => JSON.stringify(input.id)).join(", ")}: every pending question needs one.`,
    );
}

/** Whether `value` is an answer: a known action, and `content` (if any) a plain object. */
export function isInputAnswer(value: unknown): value is InputAnswer {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { action, content } = value as { action?: unknown; content?: unknown };
  if (action !== "accept" && action !== "decline" && action !== "cancel") return false;
  return (
    content === undefined || (typeof content === "object" && content !== null && !Array.isArray(content))
  );
}

/** The answer as stored: the action, and the content only with `accept`. */
export function storedAnswer(answer: InputAnswer): InputAnswer {
  return answer.action === "accept" && answer.content !== undefined
    ? { action: "accept", content: structuredClone(answer.content) }
    : { action: answer.action };
}
