/**
 * How long BullMQ keeps a finished job — its data (the redacted prompt and options, reduced to the
 * conversation id once a result is recorded), its result, its failed reason and stack.
 * @module
 */
import type { JobsOptions, KeepJobs } from "bullmq";
import { InvalidOptionError } from "../index";

/** Which finished jobs BullMQ keeps: those younger than `age` seconds and/or the newest `count`. */
export interface KeepFinishedJobs {
  /** Seconds a finished job is kept. */
  age?: number;
  /** How many finished jobs are kept at most (0: removed as soon as they finish). */
  count?: number;
}

/** How long completed and failed jobs are kept (see {@link DEFAULT_JOB_RETENTION}). */
export interface JobRetention {
  /** @default { age: 86_400 } (a day) */
  completed?: KeepFinishedJobs;
  /** @default { age: 604_800 } (a week) */
  failed?: KeepFinishedJobs;
}

/** Completed jobs are kept a day, failed ones a week (time to look into them). */
export const DEFAULT_JOB_RETENTION: Readonly<Required<JobRetention>> = Object.freeze({
  completed: Object.freeze({ age: 86_400 }),
  failed: Object.freeze({ age: 7 * 86_400 }),
});

/**
 * BullMQ's `removeOnComplete` / `removeOnFail` for `retention` (the defaults where it says
 * nothing) — none when `jobOptions` sets them itself (the older way; giving both is refused).
 * @throws InvalidOptionError
 */
export function retentionJobOptions(
  retention: JobRetention | undefined,
  jobOptions: Pick<JobsOptions, "removeOnComplete" | "removeOnFail"> | undefined,
): Pick<JobsOptions, "removeOnComplete" | "removeOnFail"> {
  const own = jobOptions?.removeOnComplete !== undefined || jobOptions?.removeOnFail !== undefined;
  if (retention !== undefined && own)
    throw new InvalidOptionError(
      "createAgentQueue: give `retention` or `defaultJobOptions.removeOnComplete` / `removeOnFail`, not both.",
    );
  if (retention !== undefined && (typeof retention !== "object" || retention === null))
    throw new InvalidOptionError("createAgentQueue: `retention` must be `{ completed?, failed? }`.");
  return {
    removeOnComplete: keepJobs(retention?.completed ?? DEFAULT_JOB_RETENTION.completed, "completed"),
    removeOnFail: keepJobs(retention?.failed ?? DEFAULT_JOB_RETENTION.failed, "failed"),
  };
}

function keepJobs(keep: KeepFinishedJobs, which: string): KeepJobs {
  if (typeof keep !== "object" || keep === null)
    throw new InvalidOptionError(`createAgentQueue: \`retention.${which}\` must be \`{ age?, count? }\`.`);
  const age = keep.age === undefined ? undefined : nonNegative(keep.age, `retention.${which}.age`);
  const count = keep.count === undefined ? undefined : nonNegative(keep.count, `retention.${which}.count`);
  if (age !== undefined) return count === undefined ? { age } : { age, count };
  if (count !== undefined) return { count };
  throw new InvalidOptionError(`createAgentQueue: \`retention.${which}\` needs \`age\` or \`count\`.`);
}

function nonNegative(value: unknown, option: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0)
    throw new InvalidOptionError(
      `createAgentQueue: \`${option}\` must be a non-negative integer, got ${String(value)}.`,
    );
  return value;
}
