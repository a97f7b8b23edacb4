/**
 * The texts of a server connection's failures, as the agent reports them: a failed tool call as an
 * error result the model reads, a message that names an HTTP status, a crash with the server's
 * last stderr output.
 * @module
 */
import { textOf } from "../../shared/describe-thrown";
import type { ToolOutput } from "../../tools/tool";

/** An `is_error` tool result saying why the MCP tool failed. */
export function toolFailure(exposedName: string, reason: string): ToolOutput {
  return { content: `MCP tool "${exposedName}" failed: ${reason}`, isError: true };
}

/** `message`, followed by the tail of the server's stderr when there is one. */
export function withStderr(message: string, stderrTail: string | undefined): string {
  return stderrTail ? `${message} Server stderr: ${stderrTail}` : message;
}

/** JSON-RPC's "request timed out" code, which the SDK also uses for a cancelled request. */
const REQUEST_TIMEOUT_CODE = -32001;

/** The SDK's error for a request that got no answer within its `timeout` (only that one carries `data.timeout`). */
export function isRequestTimeout(error: unknown): boolean {
  const { code, data } = (error ?? {}) as { code?: unknown; data?: { timeout?: unknown } | null };
  return code === REQUEST_TIMEOUT_CODE && typeof data?.timeout === "number";
}

/** An error's message; HTTP transport errors also name their status, which their message may omit. */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return textOf(error);
  // OAuth errors of the SDK may come without a message: their name and code say what happened.
  if (error.message === "") {
    const { errorCode } = error as { errorCode?: unknown };
    return typeof errorCode === "string" ? `${error.name}: ${errorCode}` : error.name;
  }
  const status = (error as { code?: unknown }).code;
  const isHttpStatus = typeof status === "number" && status >= 100 && status <= 599;
  return isHttpStatus && !error.message.includes(String(status))
    ? `${error.message} (HTTP ${status})`
    : error.message;
}
