/**
 * What the chat endpoint cannot answer a client with — an internal error behind a 500, a lease that
 * would not release, an `onRunEnd` that threw — goes to `onError`, redacted, instead of being lost
 * (or, for the last two, rejecting a promise nobody awaits, which ends a Node process).
 * @module
 */
import { describeThrown } from "../shared/describe-thrown";
import { redact } from "../shared/redact";

/** Where a reported error happened. */
export type ChatErrorStage = "request" | "lease_release" | "run_end";

/** Context of an error handed to `onError`. */
export interface ChatErrorContext {
  stage: ChatErrorStage;
  /** The conversation, when the error belongs to one. */
  conversationId?: string;
}

/** Receives the endpoint's unanswerable errors. */
export type ChatErrorListener = (error: Error, context: ChatErrorContext) => void;

const STAGE_TEXT: Record<ChatErrorStage, string> = {
  request: "a request failed",
  lease_release: "a run's lease would not release (the lock keeps it until it expires)",
  run_end: "onRunEnd threw",
};

/** The default listener: one line on stderr. */
export function logChatError(error: Error, context: ChatErrorContext): void {
  const where = context.conversationId === undefined ? "" : ` (conversation ${context.conversationId})`;
  console.error(`agent-lattice/ui: ${STAGE_TEXT[context.stage]}${where}: ${error.message}`);
}

/**
 * Makes the reporter the endpoint calls: it redacts the error (secrets and credential shapes in its
 * message and stack) and never throws, whatever the listener does.
 */
export function chatErrorReporter(
  listener: ChatErrorListener | undefined,
  secrets: readonly string[],
): (thrown: unknown, context: ChatErrorContext) => void {
  const report = listener ?? logChatError;
  return (thrown, context) => {
    try {
      report(redactedError(thrown, secrets), context);
    } catch {
      // A listener that throws has nowhere left to report to.
    }
  };
}

/** A new Error with the thrown value's name, message and stack, redacted; the original is not kept. */
function redactedError(thrown: unknown, secrets: readonly string[]): Error {
  const error = new Error(redact(describeThrown(thrown), secrets));
  let stack: unknown;
  try {
    stack = thrown instanceof Error ? thrown.stack : undefined;
  } catch {
    stack = undefined;
  }
  error.stack = typeof stack === "string" ? redact(stack, secrets) : `Error: ${error.message}`;
  return error;
}
