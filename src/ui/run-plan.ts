/**
 * What a checked chat request runs on the server's conversation: the query input and the id of the
 * assistant message the stream builds. Approvals are checked against the conversation's own pause;
 * a regeneration drops the last answer through `replaceHistory`.
 * @module
 */
import type { Agent, ApprovalInput, ModelMessage, PromptInput } from "../index";
import { ChatRequestError } from "./chat-errors";
import type { ChatAction } from "./chat-request";

/** A run ready to start. */
export interface RunPlan {
  input: PromptInput | ApprovalInput;
  /** The assistant message the stream builds (an approval's resend continues the paused one). */
  messageId: string;
  /** Calls the person denied (sent as `tool-output-denied`). */
  denied: string[];
  /** The user message the run answers, for the history route while it runs. */
  userText?: string;
}

/** Plans `action` on `agent`'s conversation. @throws ChatRequestError when it cannot run */
export async function planRun(agent: Agent<unknown>, action: ChatAction): Promise<RunPlan> {
  if (action.kind === "prompt") {
    return { input: action.text, messageId: crypto.randomUUID(), denied: [], userText: action.text };
  }
  if (action.kind === "inputs") {
    const pending = new Set((await agent.getPendingInputs()).map((input) => input.id));
    for (const id of Object.keys(action.inputs)) {
      if (!pending.has(id))
        throw new ChatRequestError(
          409,
          "unknown_input",
          `No question ${JSON.stringify(id).slice(0, 80)} waits for an answer in this conversation`,
        );
    }
    if (Object.keys(action.inputs).length !== pending.size)
      throw new ChatRequestError(400, "missing_input", "Every question waiting for an answer needs one");
    return { input: { inputs: action.inputs }, messageId: action.assistantMessageId, denied: [] };
  }
  if (action.kind === "approvals") {
    const pending = new Set((await agent.getPendingApprovals()).map((call) => call.tool_use_id));
    for (const id of Object.keys(action.approvals)) {
      if (!pending.has(id)) {
        throw new ChatRequestError(
          409,
          "unknown_approval",
          `No call ${JSON.stringify(id).slice(0, 80)} waits for approval in this conversation`,
        );
      }
    }
    if (Object.keys(action.approvals).length !== pending.size) {
      throw new ChatRequestError(400, "missing_approval", "Every call waiting for approval needs a decision");
    }
    return {
      input: { approvals: action.approvals },
      messageId: action.assistantMessageId,
      denied: action.denied,
    };
  }
  const history = await agent.getHistory();
  const index = lastPromptIndex(history);
  if (index === -1)
    throw new ChatRequestError(400, "nothing_to_regenerate", "The conversation has no answer to regenerate");
  const prompt = history[index]!;
  await agent.replaceHistory(history.slice(0, index));
  const input = prompt.content as PromptInput;
  const userText = typeof input === "string" ? input : undefined;
  return {
    input,
    messageId: action.messageId ?? crypto.randomUUID(),
    denied: [],
    ...(userText ? { userText } : {}),
  };
}

/** The index of the last user prompt (not tool results, not a pause marker), or -1. */
export function lastPromptIndex(history: readonly ModelMessage[]): number {
  for (let index = history.length - 1; index >= 0; index--) {
    const message = history[index]!;
    if (message.role !== "user" || "pending_approvals" in message) continue;
    if (typeof message.content === "string" || !message.content.some((block) => block.type === "tool_result"))
      return index;
  }
  return -1;
}
