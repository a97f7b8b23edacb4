/**
 * The one way the loop and the tool pipeline meet a hook that threw or timed out (a `HookFailure` from
 * `runHookChain`, or an `onModelRequest` hook's thrown by the request shaping). A failure while the
 * query's signal is aborted is the cancellation itself: nothing is reported, the step ends
 * cancelled. Any other failure reaches the consumer as a `hook_error` notice, and the step goes on
 * as its event's rule says (a prompt is not sent, a stop hook cannot continue the query, a
 * compaction runs without the hook's instructions, a request is not sent).
 * @module
 */

import type { SDKMessage } from "../messages/sdk-messages";
import type { HookFailure } from "./run-hooks";

/** What a hook's failure comes to: the query's cancellation, or a failure reported to the consumer. */
export type HookFailureFate = "cancelled" | "reported";

/** Reports `failure` as a `hook_error` named `hook` — unless `signal` aborted: then it is the cancellation. */
export function meetHookFailure(
  failure: HookFailure,
  signal: AbortSignal,
  emit: (message: SDKMessage<unknown>) => void,
  hook: string = failure.event,
): HookFailureFate {
  if (signal.aborted) return "cancelled";
  emit({ type: "system", subtype: "hook_error", hook, error: failure });
  return "reported";
}
