/**
 * A pause inside a subagent, as the tool pipeline carries it: a subagent call whose child paused
 * for approval returns a *suspension* (not a result) and the parent's batch pauses with it; when
 * the parent is resumed, the call is executed again with a *resume* in its context, and the
 * recreated child goes on from its pause. Internal: tagged with symbols, never a public shape.
 * @module
 */
import type { ApprovalDecisions, PendingApproval } from "../messages/approvals";
import type { ModelMessage } from "../messages/types";
import type { Tool, ToolContext, ToolOutput } from "./tool";

/** Tags a tool output that is a suspension. */
const CHILD_SUSPENSION: unique symbol = Symbol.for("agent-lattice.childSuspension");
/** Tags the context of a call that resumes its child. */
const CHILD_RESUME: unique symbol = Symbol.for("agent-lattice.childResume");
/** Marks a tool that can resume a suspended call (a subagent). */
export const RESUMES_CHILD: unique symbol = Symbol.for("agent-lattice.resumesChild");

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

/** The tool output standing for a suspension (its content is never recorded). */
export function suspendedOutput(suspension: ChildSuspension): ToolOutput {
  return Object.assign(
    { content: `[the subagent "${suspension.agent}" waits for approval]` },
    {
      [CHILD_SUSPENSION]: suspension,
    },
  );
}

/** The suspension a tool output stands for, if it is one. */
export function suspensionOf(output: unknown): ChildSuspension | undefined {
  if (typeof output !== "object" || output === null) return undefined;
  return (output as { [CHILD_SUSPENSION]?: ChildSuspension })[CHILD_SUSPENSION];
}

/** Whether `tool` can resume a suspended call ({@link RESUMES_CHILD}). */
export function resumesChild(tool: Tool | undefined): boolean {
  return (tool as { [RESUMES_CHILD]?: boolean } | undefined)?.[RESUMES_CHILD] === true;
}

/** `context` carrying `resume` for the tool. */
export function withChildResume(context: ToolContext, resume: ChildResume): ToolContext {
  return Object.assign(context, { [CHILD_RESUME]: resume });
}

/** The resume a call's context carries, if it resumes a suspended call. */
export function childResumeOf(context: ToolContext): ChildResume | undefined {
  return (context as { [CHILD_RESUME]?: ChildResume })[CHILD_RESUME];
}
