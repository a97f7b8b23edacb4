/**
 * The body `useChat` sends (through the AI SDK's `DefaultChatTransport`), checked at the boundary:
 * the conversation id, the messages, the trigger. Only two things are taken from the client's
 * messages: the new user message's text, and the approval responses of its last assistant message.
 * Everything else the client sends (earlier messages, edited or forged) is ignored: the history the
 * model sees is the server's.
 * @module
 */
import { z } from "zod";
import type { ApprovalDecisions, InputAnswers } from "../index";
import { ChatRequestError } from "./chat-errors";

/** The longest conversation id accepted (ids are path segments of the reconnect route). */
const MAX_CONVERSATION_ID = 200;
const CONVERSATION_ID = /^[A-Za-z0-9_.:-]+$/;

const partSchema = z.looseObject({ type: z.string() });
const messageSchema = z.looseObject({
  id: z.string(),
  role: z.enum(["user", "assistant", "system"]),
  parts: z.array(partSchema),
});
const bodySchema = z.looseObject({
  id: z.string(),
  messages: z.array(messageSchema),
  trigger: z.string().optional(),
  messageId: z.string().optional(),
  /** Answers to the questions a paused run waits on (`requires_input`), by input id. */
  inputs: z.record(z.string(), z.unknown()).optional(),
});

/** What the handler runs: a new prompt, a resume with decisions, or a regeneration of the last answer. */
export type ChatAction =
  | { kind: "prompt"; text: string; userMessageId: string }
  | { kind: "approvals"; approvals: ApprovalDecisions; assistantMessageId: string; denied: string[] }
  | { kind: "inputs"; inputs: InputAnswers; assistantMessageId: string }
  | { kind: "regenerate"; messageId: string | undefined };

/** A checked chat request. */
export interface ChatRequest {
  conversationId: string;
  action: ChatAction;
}

/** Whether `id` may name a conversation (1–200 of `A-Z a-z 0-9 _ . : -`, not `.` or `..`). */
export function isConversationId(id: string): boolean {
  return id.length <= MAX_CONVERSATION_ID && CONVERSATION_ID.test(id) && id !== "." && id !== "..";
}

/**
 * Checks a parsed body and extracts what the handler may trust from it.
 * @throws ChatRequestError (400 or 413) for a body that is not a chat request
 */
export function readChatRequest(body: unknown, maxMessageChars: number): ChatRequest {
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) {
    throw new ChatRequestError(400, "invalid_body", `Not a chat request: ${z.prettifyError(parsed.error)}`);
  }
  const { id, messages, trigger = "submit-message", messageId, inputs } = parsed.data;
  if (!isConversationId(id)) {
    throw new ChatRequestError(
      400,
      "invalid_conversation_id",
      "The chat id must be 1-200 letters, digits or _ . : -",
    );
  }
  if (trigger === "regenerate-message")
    return { conversationId: id, action: { kind: "regenerate", messageId } };
  if (trigger !== "submit-message") {
    throw new ChatRequestError(
      400,
      "unknown_trigger",
      `Unknown trigger ${JSON.stringify(trigger).slice(0, 80)}`,
    );
  }
  const last = messages.at(-1);
  if (inputs !== undefined) {
    if (last?.role !== "assistant")
      throw new ChatRequestError(400, "invalid_input", "Answers go with the paused assistant message last");
    return {
      conversationId: id,
      action: {
        kind: "inputs",
        inputs: checkedAnswers(inputs, maxMessageChars),
        assistantMessageId: last.id,
      },
    };
  }
  if (last?.role === "assistant") {
    const approvals = approvalResponses(last.parts);
    if (approvals)
      return { conversationId: id, action: { ...approvals, kind: "approvals", assistantMessageId: last.id } };
  }
  if (last?.role !== "user") {
    throw new ChatRequestError(
      400,
      "no_user_message",
      "The last message must be the new user message (or approval responses)",
    );
  }
  const text = last.parts
    .filter((part) => part.type === "text" && typeof part.text === "string")
    .map((part) => part.text as string)
    .join("\n");
  if (text.trim() === "") throw new ChatRequestError(400, "no_user_message", "The user message has no text");
  if (text.length > maxMessageChars) {
    throw new ChatRequestError(
      413,
      "message_too_large",
      `The user message is longer than ${maxMessageChars} characters`,
    );
  }
  return { conversationId: id, action: { kind: "prompt", text, userMessageId: last.id } };
}

/** Whether `value` is `{ action: "accept" | "decline" | "cancel", content?: object }`. */
function isAnswer(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { action, content } = value as { action?: unknown; content?: unknown };
  if (action !== "accept" && action !== "decline" && action !== "cancel") return false;
  return (
    content === undefined || (typeof content === "object" && content !== null && !Array.isArray(content))
  );
}

/** The answers of a request, each `{ action, content? }`, their JSON no longer than `maxChars`. */
function checkedAnswers(inputs: Record<string, unknown>, maxChars: number): InputAnswers {
  const answers: InputAnswers = {};
  for (const [id, answer] of Object.entries(inputs)) {
    if (!isAnswer(answer))
      throw new ChatRequestError(
        400,
        "invalid_input",
        'An answer must be { action: "accept" | "decline" | "cancel", content? }',
      );
    answers[id] = answer as InputAnswers[string];
  }
  if (JSON.stringify(answers).length > maxChars)
    throw new ChatRequestError(
      413,
      "message_too_large",
      `The answers are longer than ${maxChars} characters`,
    );
  return answers;
}

/** The approval responses among an assistant message's tool parts, or `undefined` when there are none. */
function approvalResponses(
  parts: ReadonlyArray<{ type: string; [key: string]: unknown }>,
): { approvals: ApprovalDecisions; denied: string[] } | undefined {
  const approvals: ApprovalDecisions = {};
  const denied: string[] = [];
  for (const part of parts) {
    if (!(part.type === "dynamic-tool" || part.type.startsWith("tool-"))) continue;
    if (part.state !== "approval-responded") continue;
    const approval = part.approval as { id?: unknown; approved?: unknown; reason?: unknown } | undefined;
    const toolCallId = part.toolCallId;
    if (typeof toolCallId !== "string" || typeof approval?.approved !== "boolean") {
      throw new ChatRequestError(
        400,
        "invalid_approval",
        "An approval response needs a toolCallId and approved",
      );
    }
    if (approval.id !== undefined && approval.id !== toolCallId) {
      throw new ChatRequestError(400, "invalid_approval", "An approval id does not match its tool call");
    }
    if (approval.approved) {
      approvals[toolCallId] = { approved: true };
    } else {
      const reason =
        typeof approval.reason === "string" && approval.reason ? approval.reason.slice(0, 2_000) : undefined;
      approvals[toolCallId] =
        reason === undefined ? { approved: false } : { approved: false, message: reason };
      denied.push(toolCallId);
    }
  }
  return Object.keys(approvals).length === 0 ? undefined : { approvals, denied };
}
