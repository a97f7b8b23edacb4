/**
 * The tool guardrails of one query, as the tool pipeline is handed them (`ToolRuntime.guardrails`),
 * and the end of a batch during which one tripped: its results are recorded (the calls it stopped
 * answered so), then the turn is withdrawn and the query ends `guardrail_tripwire`.
 * @module
 */
import { errorResultsFor } from "../../history/dangling";
import type { ToolUseBlock, UserModelMessage } from "../../messages/types";
import { stoppedMessage, type ToolGuardrails } from "../../tool-calls/tool-guardrails";
import type { StepResult } from "../decide-next";
import { recordAndHandOver } from "../record-and-hand-over";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";
import { failOpenNotice, stageContext } from "./stage-context";
import { reportVerdict, withdrawTurn } from "./withdraw-turn";

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
 * A tool guardrail tripped during the batch of `calls`: their results (`blocks`, or — when the
 * batch paused or was cut short — every call answered as stopped) are recorded, then the turn is
 * withdrawn and the query ends.
 */
export async function endTrippedBatch<T>(
  loop: LoopContext<T>,
  query: QueryState,
  guard: ToolGuardrails,
  calls: readonly ToolUseBlock[],
  blocks: UserModelMessage["content"] | undefined,
): Promise<StepResult<T>> {
  const complete = Array.isArray(blocks) && blocks.length === calls.length;
  const message: UserModelMessage = complete
    ? { role: "user", content: blocks }
    : (errorResultsFor(calls, stoppedMessage) as UserModelMessage);
  await recordAndHandOver(loop, query, message);
  return { kind: "ended", ending: await withdrawTurn(loop, query, guard.trip!) };
}
