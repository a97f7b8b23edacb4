/**
 * `onModelRequest`, the option and the hooks: each may replace the outgoing main request, for this
 * call only; history is never touched.
 * @module
 */
import type { HookFailure } from "../../errors";
import { requestOverride } from "../../hooks/overrides";
import { runHookChain } from "../../hooks/run-hooks";
import type { HookMatcher, Hooks, ModelRequestInput, ModelRequestOutput } from "../../hooks/types";
import type { ModelRequest } from "../../model/client";
import type { ModelRequestShaper } from "../state/loop-config";

/** Whether any request shaper is configured. */
export function hasRequestShapers(option: ModelRequestShaper | undefined, hooks: Hooks | undefined): boolean {
  return option !== undefined || (hooks?.onModelRequest?.length ?? 0) > 0;
}

/**
 * Runs `onModelRequest` (the option, then the hooks in order) on `request`; each may return a
 * replacement. Each runs under the hook timeout; a throw or timeout is thrown as a {@link HookFailure}.
 */
export async function shapeRequest(
  request: ModelRequest,
  option: ModelRequestShaper | undefined,
  hooks: Hooks | undefined,
): Promise<ModelRequest> {
  const chain = hooks?.onModelRequest;
  if (!option && !chain?.length) return request;
  // A deep copy, so a hook that edits messages, system or tools in place cannot change history.
  const { system, messages, tools } = request;
  let current: ModelRequest = { ...request, ...structuredClone({ system, messages, tools }) };
  const replace = (output: ModelRequestOutput) => {
    if (output.request) current = keepControl(requestOverride(output.request), request);
  };
  const input = () => ({ request: current });
  if (option) {
    const asHook: HookMatcher<ModelRequestInput, ModelRequestOutput> = {
      handler: async ({ request: shaped }) => ({ request: (await option(shaped)) ?? undefined }),
    };
    const failure = await runHookChain({
      event: "onModelRequest option",
      hooks: [asHook],
      input,
      onOutput: replace,
    });
    if (failure) throw failure;
  }
  const failure = await runHookChain({ event: "onModelRequest", hooks: chain, input, onOutput: replace });
  if (failure) throw failure;
  return current;
}

/** A replacement request keeps the loop's signal, deadline and event sink. */
function keepControl(replacement: ModelRequest, original: ModelRequest): ModelRequest {
  return {
    ...replacement,
    signal: original.signal,
    timeoutMs: original.timeoutMs,
    onEvent: original.onEvent,
  };
}
