/**
 * Running hooks: matcher selection, registration order, per-hook timeout, and failure capture.
 * @module
 */
import { DEFAULT_HOOK_TIMEOUT_MS } from "../agent/options";
import type { HookMatcher } from "./types";

/** Whether a hook's matcher selects this tool: none or `*` selects all, a string is an exact name. */
export function matchesTool(matcher: string | RegExp | undefined, toolName: string | undefined): boolean {
  if (matcher === undefined || matcher === "*") return true;
  if (toolName === undefined) return false;
  if (typeof matcher === "string") return matcher === toolName;
  matcher.lastIndex = 0;
  return matcher.test(toolName);
}

/** A hook that threw or ran past its timeout. */
export class HookFailure extends Error {
  constructor(
    readonly event: string,
    readonly index: number,
    readonly matcher: string | RegExp | undefined,
    cause: unknown,
  ) {
    const which = `${event} hook #${index + 1}${matcher === undefined ? "" : ` (matcher ${String(matcher)})`}`;
    super(`${which} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "HookFailure";
  }
}

/**
 * Runs the hooks of one event that match `toolName`, in registration order. `step` receives each
 * hook's output and returns whether to stop the chain (e.g. a block). A throw or timeout stops the
 * chain and is returned as a {@link HookFailure}; it never propagates.
 */
export async function runHookChain<I, O>(
  event: string,
  hooks: ReadonlyArray<HookMatcher<I, O>> | undefined,
  toolName: string | undefined,
  makeInput: () => I,
  step: (output: O) => boolean | void,
): Promise<HookFailure | undefined> {
  if (!hooks || hooks.length === 0) return undefined;
  for (let index = 0; index < hooks.length; index++) {
    const hook = hooks[index]!;
    if (!matchesTool(hook.matcher, toolName)) continue;
    let output: O | void;
    try {
      output = await withTimeout(
        Promise.resolve().then(() => hook.handler(makeInput())),
        hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
      );
    } catch (error) {
      return new HookFailure(event, index, hook.matcher, error);
    }
    if (output && step(output) === true) break;
  }
  return undefined;
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
