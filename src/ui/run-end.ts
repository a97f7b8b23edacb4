/**
 * How each way a run ends reaches the client: the `finish` chunk's reason and metadata, and an
 * `error` chunk before it for the ends that are errors.
 * @module
 */
import type { ResultSubtype, SDKResultMessage } from "../index";
import { errorText } from "./error-text";
import type { LatticeMessageMetadata, UIFinishReason, UIStreamChunk } from "./ui-chunk";

/** The protocol's finish reason for each result subtype (the subtype itself is in the metadata). */
const FINISH_REASONS: Record<ResultSubtype, UIFinishReason> = {
  success: "stop",
  requires_approval: "tool-calls",
  requires_input: "tool-calls",
  interrupted: "other",
  error_abort: "other",
  error_max_turns: "length",
  error_max_budget_usd: "length",
  error_timeout: "error",
  error_missing_output: "error",
  error_during_execution: "error",
  guardrail_tripwire: "content-filter",
};

/** What the client reads in an `error` chunk for an end without an error object of its own. */
const END_SENTENCES: Record<ResultSubtype, string> = {
  success: "",
  requires_approval: "",
  requires_input: "",
  interrupted: "",
  error_abort: "The run was aborted.",
  error_max_turns: "The run stopped: it reached its limit of model turns.",
  error_max_budget_usd: "The run stopped: it reached its budget.",
  error_timeout: "The run stopped: it ran out of time.",
  error_missing_output: "The run ended without the structured output it had to give.",
  error_during_execution: "The run failed.",
  guardrail_tripwire: "The answer was withdrawn: a guardrail stopped the run.",
};

/** The metadata a `finish` chunk carries for `result`. */
export function finishMetadata(result: SDKResultMessage<unknown>): LatticeMessageMetadata {
  const metadata: LatticeMessageMetadata = {
    end: result.subtype,
    usage: result.usage,
    numTurns: result.num_turns,
    totalCostUsd: result.total_cost_usd,
    durationMs: result.duration_ms,
  };
  if (result.pending_approvals?.length) metadata.pendingApprovals = result.pending_approvals;
  if (result.pending_inputs?.length) metadata.pendingInputs = result.pending_inputs;
  if (result.guardrail) metadata.guardrail = { name: result.guardrail.name, stage: result.guardrail.stage };
  return metadata;
}

/**
 * The chunks that end a run: the `error` chunk of an error end (its text redacted), then `finish`.
 * `interrupted` and `error_abort` (a stop) carry no error chunk: the client asked for them.
 */
export function endChunks(result: SDKResultMessage<unknown>, secrets: readonly string[]): UIStreamChunk[] {
  const chunks: UIStreamChunk[] = [];
  if (result.is_error && result.subtype !== "error_abort") {
    const sentence = END_SENTENCES[result.subtype] ?? "The run failed.";
    const cause = result.error === undefined ? "" : ` ${errorText(result.error, secrets)}`;
    chunks.push({ type: "error", errorText: `${sentence}${cause}`.trim() });
  }
  chunks.push({
    type: "finish",
    finishReason: FINISH_REASONS[result.subtype] ?? "other",
    messageMetadata: finishMetadata(result),
  });
  return chunks;
}
