/**
 * `agent.getContextUsage()`: how full the context is, and with what — the context the next request
 * would make the model read (system prompt, tools, history from its last server compaction on,
 * with the context edits applied), counted by the provider where it counts tokens (the Messages
 * API's `count_tokens`, asked to apply the provider-side edits), estimated otherwise.
 * @module
 */

import { withoutServerCompaction } from "../compaction/server-compaction-view";
import type { LoopContext } from "../loop/state/loop-context";
import type { ContentBlock, ModelMessage } from "../messages/types";
import { applyContextEdits, estimateRequestTokens, estimateTokens } from "../model/context-editing";
import type { ContextEdits } from "../model/context-management";
import { contextWindowOf } from "../model/context-windows";

/** Input tokens by what they hold. */
export interface ContextUsageByCategory {
  /** The system prompt. */
  system: number;
  /** The tool definitions. */
  tools: number;
  /** Prompts, answers and tool calls (everything but tool results and thinking). */
  messages: number;
  /** The results of tool calls. */
  toolResults: number;
  /** Thinking blocks kept in history. */
  thinking: number;
}

/** What {@link Agent.getContextUsage} reports. */
export interface ContextUsage {
  /** The model of the next turn. */
  model: string;
  /** Its context window in tokens; `null` when not known (give it with `contextManagement.contextWindow`). */
  contextWindow: number | null;
  /** Input tokens of the context: counted when `measured`, else estimated (four characters a token). */
  inputTokens: number;
  /** `inputTokens` split by category (estimated shares, scaled to a measured total). */
  byCategory: ContextUsageByCategory;
  /** `inputTokens / contextWindow`; `null` without a known window. */
  ratio: number | null;
  /** Whether the provider counted `inputTokens` (its `count_tokens` endpoint), rather than the SDK estimating it. */
  measured: boolean;
}

/** How long counting may take before the SDK estimates instead. */
const COUNT_TIMEOUT_MS = 30_000;

/** Measures the context of `loop`'s conversation (history loaded). */
export async function measureContextUsage(loop: LoopContext<unknown>): Promise<ContextUsage> {
  const { conversation, config } = loop;
  const model = conversation.model;
  const system = config.modelSettings.systemPrompt;
  const tools = conversation.tools.definitions();
  const sent = requestToCount(loop, system, tools);
  const byCategory = categoriesOf(system, tools, sent.edited);
  const estimated = Object.values(byCategory).reduce((sum, tokens) => sum + tokens, 0);
  const counted = await count(loop, { model, system, tools, messages: sent.messages, edits: sent.edits });
  if (counted !== undefined && estimated > 0) {
    const scale = counted / estimated;
    for (const key of Object.keys(byCategory) as Array<keyof ContextUsageByCategory>)
      byCategory[key] = Math.round(byCategory[key] * scale);
  }
  const inputTokens = counted ?? estimated;
  const contextWindow =
    (model === config.context.model ? config.context.window : contextWindowOf(model)) ?? null;
  return {
    model,
    contextWindow,
    inputTokens,
    byCategory,
    ratio: contextWindow ? inputTokens / contextWindow : null,
    measured: counted !== undefined,
  };
}

/**
 * What the next request would make the model read: history from its last server compaction on
 * (the provider reads nothing before a compaction block), with the context edits applied — by the
 * SDK on the client side; on the provider side they go to the counting request (`edits`), the
 * SDK applying the same rules locally for the split by category and the estimate.
 */
function requestToCount(
  loop: LoopContext<unknown>,
  system: string | undefined,
  tools: unknown,
): { messages: ModelMessage[]; edited: readonly ModelMessage[]; edits: ContextEdits | undefined } {
  const read = withoutServerCompaction(loop.conversation.history.messages);
  const management = loop.config.context.management;
  if (!management) return { messages: read, edited: read, edits: undefined };
  const tokens = estimateRequestTokens({ system, tools, messages: read });
  const edited = applyContextEdits(read, management.edits, tokens).messages;
  const side = loop.conversation.context.sideFor(management.where, loop.services.client.endpoint);
  return side === "provider"
    ? { messages: read, edited, edits: management.edits }
    : { messages: edited, edited, edits: undefined };
}

function categoriesOf(
  system: string | undefined,
  tools: unknown,
  messages: readonly ModelMessage[],
): ContextUsageByCategory {
  const usage: ContextUsageByCategory = {
    system: estimateTokens(system),
    tools: estimateTokens(tools),
    messages: 0,
    toolResults: 0,
    thinking: 0,
  };
  for (const message of messages) {
    if (typeof message.content === "string") {
      usage.messages += estimateTokens(message.content);
      continue;
    }
    for (const block of message.content) usage[categoryOf(block)] += estimateTokens(block);
  }
  return usage;
}

function categoryOf(block: ContentBlock): "messages" | "toolResults" | "thinking" {
  if (block.type === "tool_result") return "toolResults";
  if (block.type === "thinking" || block.type === "redacted_thinking") return "thinking";
  return "messages";
}

/** The provider's count, or `undefined` when the client cannot count or counting failed. */
async function count(
  loop: LoopContext<unknown>,
  parts: {
    model: string;
    system: string | undefined;
    tools: unknown;
    messages: readonly ModelMessage[];
    edits: ContextEdits | undefined;
  },
): Promise<number | undefined> {
  const client = loop.services.client;
  if (typeof client.countTokens !== "function") return undefined;
  try {
    return await client.countTokens({
      model: parts.model,
      ...(parts.system !== undefined && { system: parts.system }),
      ...(Array.isArray(parts.tools) && parts.tools.length > 0 && { tools: parts.tools }),
      messages: [...parts.messages],
      ...(parts.edits && { contextManagement: parts.edits }),
      maxTokens: loop.config.modelSettings.maxTokens,
      signal: AbortSignal.timeout(COUNT_TIMEOUT_MS),
    });
  } catch {
    return undefined;
  }
}
