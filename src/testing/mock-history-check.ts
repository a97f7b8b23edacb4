/**
 * The mock server's check of a request's `messages`, as the Messages API makes it: a history the
 * API would refuse with a 400 `invalid_request_error` is refused here too, worded as the API words
 * it — so a test against the mock fails where production would. Written apart from the SDK's own
 * `isWellFormedHistory` on purpose: one checks the other.
 * @module
 */

type Block = { type?: unknown; [field: string]: unknown };
type Message = { role?: unknown; content?: unknown };

const ASSISTANT_ONLY = new Set(["tool_use", "thinking", "redacted_thinking", "compaction"]);
/** The calls of tools the provider runs itself; their results follow them in the assistant's turn. */
const PROVIDER_CALLS = new Set(["server_tool_use", "mcp_tool_use"]);

/**
 * Why the API would refuse `messages` (a request body's field, any value), or `undefined`. The
 * rules: a non-empty array of user and assistant messages, the first a user message; no empty
 * message (but a final assistant one) and no blank text block; blocks in the role that may hold
 * them; thinking with its signature; unique `tool_use` ids; every `tool_use` answered by a
 * `tool_result` in the next message (the results first in it), no `tool_result` without its
 * `tool_use` in the message before; a provider tool's result after its `server_tool_use`.
 */
export function historyRefusal(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return "messages: Field required";
  if (messages.length === 0) return "messages: at least one message is required";
  const toolUseIds = new Set<string>();
  let serverCalls = new Set<string>();
  for (const [index, value] of messages.entries()) {
    const message = value as Message;
    const shape = shapeRefusal(message, index, index === messages.length - 1);
    if (shape !== undefined) return shape;
    if (message.role === "user") serverCalls = new Set();
    const blocks = blocksOf(message);
    const refusal =
      blockRefusal(message.role as string, blocks, index, { toolUseIds, serverCalls }) ??
      pairingRefusal(messages as Message[], index);
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}

function shapeRefusal(message: Message, index: number, isLast: boolean): string | undefined {
  if (typeof message !== "object" || message === null) return `messages.${index}: Input should be an object`;
  if (message.role !== "user" && message.role !== "assistant")
    return `messages.${index}.role: Input should be 'user' or 'assistant'`;
  if (index === 0 && message.role !== "user") return 'messages: first message must use the "user" role';
  const { content } = message;
  if (typeof content !== "string" && !Array.isArray(content))
    return `messages.${index}.content: Input should be a valid string or list`;
  const empty = typeof content === "string" ? !/\S/.test(content) : content.length === 0;
  if (empty && !(isLast && message.role === "assistant"))
    return `messages.${index}: all messages must have non-empty content except for the optional final assistant message`;
  return undefined;
}

function blockRefusal(
  role: string,
  blocks: Block[],
  index: number,
  ids: { toolUseIds: Set<string>; serverCalls: Set<string> },
): string | undefined {
  for (const [at, block] of blocks.entries()) {
    const where = `messages.${index}.content.${at}`;
    if (typeof block !== "object" || block === null || typeof block.type !== "string")
      return `${where}: Input should be a valid content block`;
    const type = block.type;
    const serverResult = type !== "tool_result" && type.endsWith("_tool_result");
    const providerCall = PROVIDER_CALLS.has(type);
    if (role === "user" && (ASSISTANT_ONLY.has(type) || providerCall || serverResult))
      return `${where}: \`${type}\` blocks can only be in \`assistant\` messages`;
    if (role === "assistant" && type === "tool_result")
      return `${where}: \`tool_result\` blocks can only be in \`user\` messages`;
    // A marker on blank text is the prompt cache's refusal, worded as the API words it.
    if (
      type === "text" &&
      block.cache_control === undefined &&
      !(typeof block.text === "string" && /\S/.test(block.text))
    )
      return `${where}.text: text content blocks must contain non-whitespace text`;
    if (type === "thinking" && typeof block.signature !== "string")
      return `${where}.thinking.signature: Field required`;
    if (type === "tool_use" || providerCall) {
      if (ids.toolUseIds.has(String(block.id))) return `${where}: \`tool_use\` ids must be unique`;
      ids.toolUseIds.add(String(block.id));
      if (providerCall) ids.serverCalls.add(String(block.id));
    }
    if (serverResult && !ids.serverCalls.delete(String(block.tool_use_id)))
      return `${where}: unexpected \`tool_use_id\` found in \`${type}\` blocks: ${String(block.tool_use_id)}. Each \`${type}\` block must follow the block that called its tool.`;
  }
  return undefined;
}

/** The tool calls of the message before `index` against the results of message `index`. */
function pairingRefusal(messages: Message[], index: number): string | undefined {
  const message = messages[index]!;
  const before = messages[index - 1];
  const calls = before?.role === "assistant" ? idsOf(blocksOf(before), "tool_use", "id") : [];
  const results = message.role === "user" ? idsOf(blocksOf(message), "tool_result", "tool_use_id") : [];
  const unanswered = calls.filter((id) => !results.includes(id));
  if (unanswered.length > 0)
    return `messages.${index - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
  const blocks = blocksOf(message);
  const answered = new Set<string>();
  for (const [at, block] of blocks.entries()) {
    if (block.type !== "tool_result") continue;
    const id = String(block.tool_use_id);
    if (answered.has(id)) return `messages.${index}.content.${at}: \`tool_result\` ids must be unique: ${id}`;
    answered.add(id);
    if (!calls.includes(id))
      return `messages.${index}.content.${at}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    if (blocks.slice(0, at).some((other) => other.type !== "tool_result"))
      return `messages.${index}: \`tool_result\` blocks must come first in the message content, before any other block.`;
  }
  return undefined;
}

function blocksOf(message: Message): Block[] {
  return Array.isArray(message.content) ? (message.content as Block[]) : [];
}

function idsOf(blocks: Block[], type: string, field: string): string[] {
  return blocks.flatMap((block) => (block.type === type ? [String(block[field])] : []));
}
