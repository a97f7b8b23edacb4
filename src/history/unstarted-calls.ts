/**
 * The record that none of the calls of the assistant message before it has started. A batch that
 * may pause for approval appends it before it checks its calls (hooks, `needsApproval`,
 * `canUseTool`), and takes it back before the first call runs — or turns it into the pause marker.
 * So a process killed in between (a pause that was never recorded) leaves a history whose calls
 * {@link repairHistoryTail} answers "not run" rather than "effect unverified". Never sent to the
 * model: it is gone before the next request.
 * @module
 */
import type { ModelMessage, UserModelMessage } from "../messages/types";

/** The stored record: a user message flagged `calls_not_started`. */
export type UnstartedCallsRecord = UserModelMessage & { calls_not_started: true };

/** The record for the assistant message it follows. */
export function unstartedCallsRecord(): UnstartedCallsRecord {
  return {
    role: "user",
    content: [{ type: "text", text: "[the tool calls above are being checked; none of them has started]" }],
    calls_not_started: true,
  };
}

/** Whether `message` is the record that the calls before it never started. */
export function isUnstartedCallsRecord(message: ModelMessage | undefined): message is UnstartedCallsRecord {
  return (
    message !== undefined &&
    message.role === "user" &&
    (message as Partial<UnstartedCallsRecord>).calls_not_started === true
  );
}
