/**
 * Before step 1: calls that a crash interrupted after they recorded steps (`ToolContext.step`) are
 * run again. Crash repair answered them for the time being (`history/repair.ts`:
 * `meta.interrupted_calls` on the results message that ends history); here each runs again with the
 * input it ran with, its recorded steps replayed and the others run, and its real result takes the
 * place of the stand-in — the results message then says `meta.rerun_calls`. Tools that use no step
 * keep crash repair's "effect unverified" answer. A history that does not end so costs one look at
 * its last message.
 * @module
 */
import type {
  AssistantModelMessage,
  ToolResultBlock,
  ToolUseBlock,
  UserModelMessage,
} from "../messages/types";
import { recordInPlaceOf } from "./record-and-hand-over";
import type { LoopContext } from "./state/loop-context";
import type { QueryState } from "./state/query-state";
import type { ToolPhase } from "./tool-phase";

/** Runs again the interrupted calls at the end of history, if any, and records their real results. */
export async function rerunInterruptedCalls<T>(
  loop: LoopContext<T>,
  query: QueryState,
  runner: ToolPhase<T>,
): Promise<void> {
  const { messages } = loop.conversation.history;
  const results = messages.at(-1);
  const interrupted = results?.role === "user" ? results.meta?.interrupted_calls : undefined;
  if (!interrupted || interrupted.length === 0) return;
  const response = messages.at(-2);
  if (response?.role !== "assistant") return;
  const at = messages.length - 1; // the records of the steps run now follow it, until the results replace them
  const ids = new Set(interrupted.map((call) => call.tool_use_id));
  const calls = callsOf(response).filter((call) => ids.has(call.id));
  const inputs = new Map<string, unknown>();
  for (const call of interrupted) if ("input" in call) inputs.set(call.tool_use_id, call.input);
  const rerun = await runner.rerun(calls, inputs, results!.meta?.tool_steps ?? {});
  const { interrupted_calls: _done, ...meta } = results!.meta ?? {};
  const message: UserModelMessage = {
    role: "user",
    content: withResults(results as UserModelMessage, rerun.blocks),
    meta: { ...meta, tool_steps: rerun.steps, rerun_calls: calls.map((call) => call.id) },
  };
  await recordInPlaceOf(loop, query, at, message);
}

function callsOf(response: AssistantModelMessage): ToolUseBlock[] {
  return response.content.filter((block): block is ToolUseBlock => block.type === "tool_use");
}

/** The message's blocks with the stand-in results replaced by `blocks` (by tool_use_id). */
function withResults(message: UserModelMessage, blocks: ToolResultBlock[]): UserModelMessage["content"] {
  if (typeof message.content === "string") return message.content;
  const byId = new Map(blocks.map((block) => [block.tool_use_id, block]));
  return message.content.map((block) =>
    block.type === "tool_result" ? (byId.get(block.tool_use_id) ?? block) : block,
  );
}
