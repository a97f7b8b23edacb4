/**
 * The tool guardrails of one query, as the tool pipeline is handed them (`ToolRuntime.guardrails`),
 * and the results of a batch during which one tripped (the calls it stopped answered so).
 * @module
 */
import { errorResultsFor } from "../../history/dangling";
import type { ToolUseBlock, UserModelMessage } from "../../messages/types";
import { stoppedMessage } from "../../tool-calls/tool-guardrails";
import type { ToolGuardrails } from "../../tool-calls/tool-runtime";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";
import { failOpenNotice, stageContext } from "./stage-context";
import { reportVerdict } from "./withdraw-turn";

/** The query's tool guardrails, or undefined when the agent has none at the tool stages. */
export function toolGuardrails(loop: LoopContext<unknown>, query: QueryState): ToolGuardrails | undefined {
  const guardrails = loop.config.guardrails;
  if (!guardrails?.toolInput && !guardrails?.toolOutput) return undefined;
  return {
    input: guardrails.toolInput,
    output: guardrails.toolOutput,
    context: (fields) => stageContext(loop, query, fields),
    failOpen: failOpenNotice(query),
    report(record) {
      this.verdicts.push(record);
      reportVerdict(query, record);
    },
    verdicts: [],
    trip: undefined,
  };
}

/**
 * The results message of a batch during which a tool guardrail tripped: `blocks` when every call
 * has its result, or — when the batch paused or was cut short — every call answered as stopped.
 */
export function trippedResults(
  calls: readonly ToolUseBlock[],
  blocks: UserModelMessage["content"] | undefined,
): UserModelMessage {
  if (Array.isArray(blocks) && blocks.length === calls.length) return { role: "user", content: blocks };
  return errorResultsFor(calls, stoppedMessage) as UserModelMessage;
}
