/**
 * Running a shell command as its own process group, with a deadline, an abort signal and an output
 * cap — and leaving no process of it behind, however it ends.
 * @module
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { processGroupExists, signalProcessGroup, trackProcessGroup } from "../shared/process-group";
import { TailBuffer } from "./truncation";

/** After the shell exits (and its group's grace period), how long the output may stay open. */
const OUTPUT_DRAIN_MS = 500;

/** How to run a command. */
export interface RunCommandOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  /** Between SIGTERM and SIGKILL when the group is stopped. */
  killGraceMs: number;
  /** Characters of combined output kept (the tail). */
  maxOutputChars: number;
  signal: AbortSignal;
  /**
   * The program that runs the command line, when it is not `bash -c command` itself (a sandbox
   * wrapping it): its arguments, data written to its descriptors 3, 4, … then closed, and the
   * host user and group to start it as (this process being root).
   */
  launch?: (command: string) => {
    file: string;
    args: string[];
    inputs: string[];
    uid?: number;
    gid?: number;
  };
}

/** How a command ended. */
export interface CommandOutcome {
  /** stdout and stderr interleaved as they arrived, tail-truncated with a notice. */
  output: string;
  /** Why it ended: it exited by itself, hit the deadline, was aborted, or never started. */
  ending: "exited" | "timeout" | "aborted" | "not-started";
  /** The shell's exit code, when it exited normally. */
  exitCode: number | null;
  /** The signal that ended the shell, when one did. */
  exitSignal: NodeJS.Signals | null;
  /** Processes of the group were still running after the shell exited, and were stopped. */
  stoppedLeftovers: boolean;
  /** A process outside the group kept the output open after the shell exited; reading stopped. */
  outputAbandoned: boolean;
  /** Why the command could not start. */
  startError?: Error;
}

/**
 * Runs `bash -c command` in its own process group (`detached`). On the deadline, on abort, and when
 * the shell exits leaving background processes, the whole group gets SIGTERM, then SIGKILL after
 * the grace period. Resolves once the output is complete; never rejects.
 */
export function runCommand(command: string, options: RunCommandOptions): Promise<CommandOutcome> {
  if (options.signal.aborted) {
    return Promise.resolve(notStartedOutcome(new Error("the call was aborted before the command started")));
  }
  if (command.includes("\0")) {
    return Promise.resolve(
      notStartedOutcome(new Error("it contains a NUL byte, which a command line cannot hold")),
    );
  }
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawnShell>;
    try {
      child = spawnShell(command, options);
    } catch (error) {
      // spawn throws at once for arguments it refuses (a NUL byte in an environment value).
      resolve(notStartedOutcome(error instanceof Error ? error : new Error(String(error))));
      return;
    }
    const output = new TailBuffer(options.maxOutputChars);
    const decoders = [new StringDecoder("utf8"), new StringDecoder("utf8")] as const;
    child.stdout.on("data", (chunk: Buffer) => output.append(decoders[0].write(chunk)));
    child.stderr.on("data", (chunk: Buffer) => output.append(decoders[1].write(chunk)));

    const groupId = child.pid;
    const forgetGroup = groupId === undefined ? () => {} : trackProcessGroup(groupId);
    const stopper = groupId === undefined ? undefined : createGroupStopper(groupId, options.killGraceMs);
    let stopReason: "timeout" | "aborted" | "leftovers" | undefined;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let startError: Error | undefined;
    let outputDrainTimer: NodeJS.Timeout | undefined;
    let outputAbandoned = false;
    const stop = (reason: NonNullable<typeof stopReason>) => {
      if (stopReason || !stopper) return;
      stopReason = reason;
      stopper.stop();
    };
    const deadline = setTimeout(() => stop("timeout"), options.timeoutMs);
    const onAbort = () => stop("aborted");
    options.signal.addEventListener("abort", onAbort, { once: true });

    child.on("error", (error) => {
      startError = error;
    });
    child.on("exit", (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      if (groupId !== undefined && processGroupExists(groupId)) stop("leftovers");
      // A process outside the group (started with setsid, say) may still hold the pipes open:
      // once the group had its time to die, stop waiting for it.
      outputDrainTimer = setTimeout(() => {
        outputAbandoned = true;
        child.stdout.destroy();
        child.stderr.destroy();
      }, options.killGraceMs + OUTPUT_DRAIN_MS);
    });
    child.on("close", async () => {
      clearTimeout(deadline);
      clearTimeout(outputDrainTimer);
      options.signal.removeEventListener("abort", onAbort);
      await stopper?.finished();
      forgetGroup();
      output.append(decoders[0].end());
      output.append(decoders[1].end());
      resolve({
        output: output.toString(),
        ending: startError
          ? "not-started"
          : stopReason === "timeout" || stopReason === "aborted"
            ? stopReason
            : "exited",
        exitCode,
        exitSignal,
        stoppedLeftovers: stopReason === "leftovers",
        outputAbandoned,
        startError,
      });
    });
  });
}

function spawnShell(
  command: string,
  options: RunCommandOptions,
): ChildProcessByStdio<null, Readable, Readable> {
  const { file, args, inputs, uid, gid } = options.launch?.(command) ?? {
    file: "bash",
    args: ["-c", command],
    inputs: [],
  };
  const child = spawn(file, args, {
    // libuv drops the supplementary groups too when it sets the user.
    ...(uid === undefined ? {} : { uid, gid }),
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe", ...inputs.map(() => "pipe" as const)],
  });
  inputs.forEach((data, index) => {
    const input = child.stdio[3 + index] as Writable | null;
    input?.on("error", () => {});
    input?.end(data);
  });
  return child as unknown as ChildProcessByStdio<null, Readable, Readable>;
}

/**
 * Stops a process group: SIGTERM now, SIGKILL after the grace period unless the group is gone by
 * then. `finished()` resolves once nothing of the group can still be running.
 */
function createGroupStopper(groupId: number, graceMs: number) {
  let killTimer: NodeJS.Timeout | undefined;
  let killed: Promise<void> | undefined;
  return {
    stop(): void {
      signalProcessGroup(groupId, "SIGTERM");
      killed = new Promise((done) => {
        killTimer = setTimeout(() => {
          signalProcessGroup(groupId, "SIGKILL");
          done();
        }, graceMs);
      });
    },
    async finished(): Promise<void> {
      if (!killed) return;
      if (!processGroupExists(groupId)) {
        clearTimeout(killTimer);
        return;
      }
      await killed;
    },
  };
}

function notStartedOutcome(startError: Error): CommandOutcome {
  return {
    output: "",
    ending: "not-started",
    exitCode: null,
    exitSignal: null,
    stoppedLeftovers: false,
    outputAbandoned: false,
    startError,
  };
}
