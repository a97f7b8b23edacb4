/**
 * The tool side of a pause inside a subagent. A tool that runs an agent of its own
 * (`Tool.runAgentCall`, set by `defineSubagent`) answers a call with a typed `AgentCallOutcome`
 * (`tools/tool.ts`): a result, or — when its child paused for approval — a suspension, which
 * the parent's batch pauses with. When the parent is resumed, the loop calls it again with a
 * {@link ChildResume} and the recreated child goes on from its pause. The loop's side of the story
 * (the marker, the resume) is `loop/approvals/child-pause.ts`. Plain typed fields: a subagent
 * defined with one copy of the package (ESM or CommonJS) runs in an agent of the other.
 * @module
 */
import type { ApprovalDecisions, PendingApproval } from "../messages/approvals";
import type { AnsweredInput, PendingInput } from "../messages/pending-inputs";
import type { ModelMessage } from "../messages/types";

/**
 * What a suspended call hands its parent: a subagent call whose child paused, or an MCP call
 * whose server asked a question nobody could answer at once (`inputs`).
 */
export interface ChildSuspension {
  /** The subagent's name (for an MCP call, the server's). */
  agent: string;
  /** The calls the child waits on, tagged with `parent_tool_use_id` and `agent`. */
  pending: PendingApproval[];
  /** The child's conversation, when it has no store of its own to keep its pause. */
  history?: ModelMessage[];
  /** The questions waiting for a person's answer (an MCP call's own, or the child's). */
  inputs?: PendingInput[];
  /** An MCP call's questions answered already (a call resumed that asked again): kept for its next run. */
  answered?: AnsweredInput[];
}

/**
 * What a resumed call is given: the decisions for its child's calls, its copied history, and the
 * answers to the questions it (or its child) waits on — each with the question it answers.
 */
export interface ChildResume {
  approvals: ApprovalDecisions;
  history?: ModelMessage[];
  inputs?: AnsweredInput[];
}
