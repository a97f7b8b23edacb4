/**
 * The resource limits of the bash sandbox (`bashSandbox.limits`): processes, memory, file size and
 * CPU time, set as hard and soft `ulimit`s by the sandbox's first shell, inside its own user
 * namespace, before the command runs — so the command cannot raise them, and the process count is
 * the sandbox's own (not the host user's).
 * @module
 */
import { InvalidOptionError } from "../errors";

/** Resource limits of each sandboxed command (`bashSandbox: { limits }`). */
export interface BashSandboxLimits {
  /** Processes and threads at once inside the sandbox (RLIMIT_NPROC). @default 512 */
  processes?: number;
  /** Address space of each process, in MiB (RLIMIT_AS). @default 4096 */
  memoryMiB?: number;
  /** Largest file a process may write, in MiB (RLIMIT_FSIZE). @default 1024 */
  fileSizeMiB?: number;
  /** CPU time of each process, in seconds (RLIMIT_CPU: SIGXCPU, then SIGKILL 2 s later). @default 600 */
  cpuSeconds?: number;
}

/** The limits a sandbox applies when `bashSandbox.limits` leaves one out. */
export const DEFAULT_SANDBOX_LIMITS: Readonly<Required<BashSandboxLimits>> = Object.freeze({
  processes: 512,
  memoryMiB: 4096,
  fileSizeMiB: 1024,
  cpuSeconds: 600,
});

const LIMIT_NAMES = Object.keys(DEFAULT_SANDBOX_LIMITS) as Array<keyof BashSandboxLimits>;

/** Validates `bashSandbox.limits` and fills in the defaults. Throws {@link InvalidOptionError}. */
export function resolveSandboxLimits(value: unknown): Required<BashSandboxLimits> {
  if (value === undefined) return { ...DEFAULT_SANDBOX_LIMITS };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidOptionError(
      `createWorkspaceTools: bashSandbox.limits must be an object of { ${LIMIT_NAMES.join(", ")} }.`,
    );
  }
  const limits = { ...DEFAULT_SANDBOX_LIMITS };
  for (const [name, limit] of Object.entries(value)) {
    if (!LIMIT_NAMES.includes(name as keyof BashSandboxLimits)) {
      throw new InvalidOptionError(
        `createWorkspaceTools: bashSandbox.limits has no setting ${JSON.stringify(name)} (known: ${LIMIT_NAMES.join(", ")}).`,
      );
    }
    if (limit === undefined) continue;
    if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit < 1) {
      throw new InvalidOptionError(
        `createWorkspaceTools: bashSandbox.limits.${name} must be a positive whole number.`,
      );
    }
    limits[name as keyof BashSandboxLimits] = limit;
  }
  return limits;
}

/**
 * The shell line that sets the limits (hard and soft; CPU time's hard limit 2 s above the soft one,
 * so SIGXCPU comes first). bash counts `-v` in KiB and `-f` in 1024-byte blocks.
 */
export function limitsPrologue(limits: Required<BashSandboxLimits>): string {
  return [
    `ulimit -H -S -u ${limits.processes}`,
    `ulimit -H -S -v ${limits.memoryMiB * 1024}`,
    `ulimit -H -S -f ${limits.fileSizeMiB * 1024}`,
    `ulimit -S -t ${limits.cpuSeconds}`,
    `ulimit -H -t ${limits.cpuSeconds + 2}`,
  ].join(" && ");
}

/** Exit codes of a shell whose command a signal ended (128 + the signal's number). */
const SIGNAL_EXITS: Record<number, NodeJS.Signals> = { 152: "SIGXCPU", 153: "SIGXFSZ", 137: "SIGKILL" };

/** What processes print when an allocation, a fork or a thread fails for want of a resource. */
const MEMORY_FAILURE =
  /out of memory|cannot allocate memory|memory exhausted|MemoryError|std::bad_alloc|failed to reserve virtual memory|allocation fail/i;
const PROCESS_FAILURE = /fork: (retry: )?resource temporarily unavailable|EAGAIN|pthread_create|cannot fork/i;

/**
 * A note for the tool result when a failed command looks like it ran into one of the sandbox's
 * limits (a signal of its own, or what programs print when memory or a fork is refused), naming the
 * limit and the option that sets it. `undefined` otherwise.
 */
export function limitNote(
  limits: Required<BashSandboxLimits>,
  exitCode: number | null,
  exitSignal: NodeJS.Signals | null,
  output: string,
): string | undefined {
  const signal = exitSignal ?? (exitCode === null ? undefined : SIGNAL_EXITS[exitCode]);
  if (signal === "SIGXCPU") {
    return `[Stopped by the sandbox's CPU time limit: ${limits.cpuSeconds} s per process (bashSandbox.limits.cpuSeconds).]`;
  }
  if (signal === "SIGXFSZ") {
    return `[Stopped by the sandbox's file size limit: ${limits.fileSizeMiB} MiB per file (bashSandbox.limits.fileSizeMiB).]`;
  }
  if (exitCode === 0) return undefined;
  if (MEMORY_FAILURE.test(output)) {
    return `[A process ran out of memory: the sandbox allows ${limits.memoryMiB} MiB of address space per process (bashSandbox.limits.memoryMiB).]`;
  }
  if (PROCESS_FAILURE.test(output)) {
    return `[A process could not be started: the sandbox allows ${limits.processes} processes and threads at once (bashSandbox.limits.processes).]`;
  }
  return undefined;
}
