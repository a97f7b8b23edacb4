/**
 * Options shared by the queue (producer) and the worker, their defaults, and their checks.
 * @module
 */
import type { Redis, RedisOptions } from "ioredis";
import { InvalidOptionError } from "../index";
import { type OptionLabel, positiveInteger } from "../shared/option-checks";
import { type FleetRedaction, fleetRedaction } from "./fleet-redaction";

/** Default queue name. */
export const DEFAULT_QUEUE_NAME = "agent-lattice";
/** Default BullMQ key prefix (BullMQ's own default, so its dashboards find the queue). */
export const DEFAULT_QUEUE_PREFIX = "bull";
/** How long a job's messages and state are kept after its last write, in seconds: one day. */
export const DEFAULT_JOB_TTL_SECONDS = 86_400;
/** At most about this many messages are kept per job (the oldest are trimmed first). */
export const DEFAULT_MAX_MESSAGES_PER_JOB = 10_000;
/**
 * A job waiting behind another of its conversation is parked (BullMQ's delayed state) and started
 * by whoever finishes the job before it; it also checks for itself after this many ms — a safety
 * net for a job ahead that disappeared without finishing (failed for good by the stalled check,
 * removed by hand).
 */
export const DEFAULT_PARKED_RECHECK_MS = 30_000;
/** Attempts a job gets for infrastructure failures (thrown errors): BullMQ retries with backoff. */
export const DEFAULT_JOB_ATTEMPTS = 8;
/** First backoff delay of a retried job, doubled on each retry. */
export const DEFAULT_BACKOFF_DELAY_MS = 1_000;

/**
 * A Redis connection: an `ioredis` client (the queue duplicates it; BullMQ does too) or its
 * options, with `url` (`redis://…`) as an alternative to `host` / `port`.
 */
export type QueueConnection = Redis | (RedisOptions & { url?: string });

/** What the producer and the workers of one queue must agree on. */
export interface QueueBaseOptions {
  /** Where BullMQ and the queue keep their state. */
  connection: QueueConnection;
  /** The queue's name. @default "agent-lattice" */
  name?: string;
  /** BullMQ's key prefix. @default "bull" */
  prefix?: string;
  /** Seconds a job's messages and state are kept after its last write. @default 86_400 */
  jobTtlSeconds?: number;
  /** About how many messages a job's stream keeps (oldest trimmed first). @default 10_000 */
  maxMessagesPerJob?: number;
  /** How often a parked job checks whether the job ahead of it vanished. @default 30_000 */
  parkedRecheckMs?: number;
  /**
   * Strings replaced by `[redacted]` in everything this side writes to Redis — the producer: a job's
   * prompt and per-query options; the worker: results, streamed messages, failed reasons, stacks and
   * `job_failed` messages (a worker adds the secrets of the Agent it builds for each job,
   * `agent.secrets`). Pass the keys your agents use (their `apiKey`, their `secrets`). The
   * connection's password and URL credentials, and credential-shaped strings (`sk-ant-…`,
   * `Bearer …`), are redacted without being listed. @default []
   */
  secrets?: string[];
}

/** {@link QueueBaseOptions} with every default applied. */
export interface ResolvedBaseOptions {
  connection: QueueConnection;
  name: string;
  prefix: string;
  jobTtlSeconds: number;
  maxMessagesPerJob: number;
  parkedRecheckMs: number;
  /** What this side redacts before Redis keeps it. */
  redaction: FleetRedaction;
}

/** Checks and completes the shared options; `factory` names the caller in error messages. */
export function resolveBaseOptions(options: QueueBaseOptions, factory: string): ResolvedBaseOptions {
  if (typeof options !== "object" || options === null)
    throw new InvalidOptionError(`${factory} needs an options object with a \`connection\`.`);
  if (typeof options.connection !== "object" || options.connection === null)
    throw new InvalidOptionError(`${factory} needs a \`connection\`: an ioredis client or its options.`);
  return {
    connection: options.connection,
    name: nonEmptyString(options.name ?? DEFAULT_QUEUE_NAME, "name", factory, false),
    prefix: nonEmptyString(options.prefix ?? DEFAULT_QUEUE_PREFIX, "prefix", factory, true),
    jobTtlSeconds: positiveInteger(
      options.jobTtlSeconds ?? DEFAULT_JOB_TTL_SECONDS,
      queueOption("jobTtlSeconds", factory),
    ),
    maxMessagesPerJob: positiveInteger(
      options.maxMessagesPerJob ?? DEFAULT_MAX_MESSAGES_PER_JOB,
      queueOption("maxMessagesPerJob", factory),
    ),
    parkedRecheckMs: positiveInteger(
      options.parkedRecheckMs ?? DEFAULT_PARKED_RECHECK_MS,
      queueOption("parkedRecheckMs", factory),
    ),
    redaction: fleetRedaction(options.secrets, options.connection, factory),
  };
}

/** How the queue's factories name an option in their messages: `factory: \`option\``, the value as text. */
export function queueOption(option: string, factory: string): OptionLabel {
  return { factory, option: `\`${option}\``, show: "text" };
}

/** BullMQ refuses a queue name holding ":" (it separates the parts of its keys). */
function nonEmptyString(value: unknown, option: string, factory: string, colonAllowed: boolean): string {
  if (typeof value !== "string" || value === "" || (!colonAllowed && value.includes(":")))
    throw new InvalidOptionError(
      `${factory}: \`${option}\` must be a non-empty string${colonAllowed ? "" : ' without ":"'}.`,
    );
  return value;
}
