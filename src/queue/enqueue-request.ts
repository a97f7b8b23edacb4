/**
 * Checking what a producer enqueues, before anything is written: a request that a worker could
 * never run fails at once, in the caller's process, with `InvalidOptionError`.
 * @module
 */
import { InvalidOptionError } from "../index";
import { assertPrompt } from "../messages/prompt-input";
import type { AgentJobData, JobInput, JobQueryOptions } from "./job-types";

/** What `enqueue` takes. */
export interface EnqueueRequest {
  /** The conversation the input belongs to: its jobs run one at a time, in enqueue order. */
  conversationId: string;
  /** Anything `agent.prompt()` takes. */
  input: JobInput;
  /** Per-query options (`QueryOptions` without `signal`), checked by the worker's agent. */
  options?: JobQueryOptions;
  /**
   * The job's id: enqueueing the same id again adds nothing (BullMQ keeps the first), which makes
   * a retried `enqueue` safe — so an id must always carry the same request. No ":" and not only
   * digits (BullMQ's rules). @default a random UUID
   */
  jobId?: string;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The job data of `request`, or InvalidOptionError saying what is wrong with it. */
export function checkEnqueueRequest(request: EnqueueRequest): AgentJobData {
  if (typeof request !== "object" || request === null)
    throw new InvalidOptionError("enqueue needs `{ conversationId, input }`.");
  const { conversationId, input, options } = request;
  if (typeof conversationId !== "string" || conversationId === "")
    throw new InvalidOptionError("enqueue needs a non-empty string `conversationId`.");
  if (LONE_SURROGATE.test(conversationId))
    throw new InvalidOptionError(
      "enqueue needs a `conversationId` of well-formed Unicode (it holds a lone surrogate).",
    );
  assertPrompt(input);
  assertJson(input, "input");
  if (options !== undefined) {
    if (typeof options !== "object" || options === null || Array.isArray(options))
      throw new InvalidOptionError("enqueue: `options` must be an object of query options.");
    if ("signal" in options)
      throw new InvalidOptionError(
        "enqueue: `options.signal` cannot travel to a worker; bound the job with `waitForResult`'s timeout, or the worker's own limits.",
      );
    assertJson(options, "options");
  }
  if (request.jobId !== undefined) checkJobId(request.jobId);
  return options === undefined ? { conversationId, input } : { conversationId, input, options };
}

function assertJson(value: unknown, what: string): void {
  try {
    JSON.stringify(value);
  } catch (error) {
    throw new InvalidOptionError(
      `enqueue: \`${what}\` must be JSON (it travels through Redis): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function checkJobId(jobId: unknown): void {
  if (typeof jobId !== "string" || jobId === "" || jobId.includes(":") || /^\d+$/.test(jobId))
    throw new InvalidOptionError(
      'enqueue: `jobId` must be a non-empty string without ":" that is not only digits.',
    );
}
