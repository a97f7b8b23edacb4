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
import type { ModelMessage } from "../messages/types";

/** What a suspended subagent call hands its parent. */
export interface ChildSuspension {
  /** The subagent's name. */
  agent: string;
  /** The calls the child waits on, tagged with `parent_tool_use_id` and `agent`. */
  pending: PendingApproval[];
  /** The child's conversation, when it has no store of its own to keep its pause. */
  history?: ModelMessage[];
}

/** What a resumed subagent call is given: the decisions for its calls, and its copied history. */
export interface ChildResume {
  approvals: ApprovalDecisions;
  history?: ModelMessage[];
}
