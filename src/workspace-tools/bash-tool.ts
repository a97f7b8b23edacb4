/**
 * `bash`: runs a shell command in the workspace root (opt-in).
 * @module
 */
import { stat } from "node:fs/promises";
import { z } from "zod";
import { redact } from "../shared/redact";
import { defineTool } from "../tools/define-tool";
import type { Tool } from "../tools/tool";
import { sandboxedCommand } from "./bash-sandbox";
import { type CommandOutcome, runCommand } from "./run-command";
import { limitNote } from "./sandbox-limits";
import type { Workspace } from "./workspace";

const bashInput = z.object({
  command: z.string().min(1).describe("The command line, run with `bash -c` in the workspace root."),
  timeout_ms: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Deadline in milliseconds. Default and maximum: the configured limit."),
});

/** The input of `bash`. */
export type BashInput = z.infer<typeof bashInput>;

/** Creates the `bash` tool for a workspace. */
export function createBashTool(workspace: Workspace): Tool<BashInput> {
  const { bashTimeoutMs, bashKillGraceMs, bashEnv, bashSecrets, bashSandbox, maxOutputChars, realRoot } =
    workspace.settings;
  const launch = bashSandbox
    ? (command: string) => sandboxedCommand(bashSandbox, realRoot, command, bashEnv)
    : undefined;
  return defineTool({
    name: "bash",
    description:
      "Run a shell command with `bash -c` in the workspace root; stdin is empty. Prints stdout and stderr interleaved " +
      `(the last ${maxOutputChars} characters when longer) and the exit code; a non-zero exit is an error. ` +
      `Commands are killed after ${bashTimeoutMs} ms, and background processes are stopped when the command ends. ` +
      (bashSandbox
        ? `Commands run in a sandbox: ${bashSandbox.writableRoot ? "only the workspace root is writable and kept" : "the workspace root is read-only to commands (the sandbox's user cannot write it)"}, /tmp is empty and private to the command, ` +
          `the system's programs are read-only, other host files are absent${bashSandbox.network ? "" : ", there is no network"}; ` +
          `each process may use ${bashSandbox.limits.memoryMiB} MiB of memory and ${bashSandbox.limits.cpuSeconds} s of CPU time, ` +
          `write files up to ${bashSandbox.limits.fileSizeMiB} MiB, and ${bashSandbox.limits.processes} processes may run at once. `
        : "") +
      "Use the file tools for reading, searching and editing files.",
    inputSchema: bashInput,
    readOnly: false,
    async execute(input, context) {
      if (!(await isDirectory(realRoot))) {
        return {
          content: `The workspace root ${realRoot} no longer exists; the command cannot run.`,
          isError: true,
        };
      }
      const timeoutMs = Math.min(input.timeout_ms ?? bashTimeoutMs, bashTimeoutMs);
      const outcome = await runCommand(input.command, {
        cwd: realRoot,
        env: bashEnv,
        timeoutMs,
        killGraceMs: bashKillGraceMs,
        maxOutputChars,
        signal: context.signal,
        launch,
      });
      const output = describeOutcome(
        outcome,
        timeoutMs,
        bashSandbox ? `the sandbox program ${bashSandbox.bwrap} (bubblewrap) was not found` : undefined,
      );
      const note =
        bashSandbox && outcome.ending === "exited"
          ? limitNote(bashSandbox.limits, outcome.exitCode, outcome.exitSignal, outcome.output)
          : undefined;
      if (note) output.content = `${output.content}\n${note}`;
      return bashSecrets.length > 0 ? { ...output, content: redact(output.content, bashSecrets) } : output;
    },
  });
}

/** The tool output for a finished command: its output, then bracketed lines saying how it ended. */
export function describeOutcome(
  outcome: CommandOutcome,
  timeoutMs: number,
  /** Why the program could not be found, when it is not bash on the PATH. */
  missingProgram = "bash was not found on the PATH",
): { content: string; isError: boolean } {
  if (outcome.ending === "not-started") {
    return {
      content: `The command could not be started: ${describeStartError(outcome.startError, missingProgram)}.`,
      isError: true,
    };
  }
  const body = outcome.output.length > 0 ? outcome.output.replace(/\n$/, "") : "(no output)";
  const notes = [describeEnding(outcome, timeoutMs)];
  if (outcome.stoppedLeftovers) notes.push("[Background processes the command left running were stopped.]");
  if (outcome.outputAbandoned) {
    notes.push(
      "[A process that left the command's process group still holds its output open; it was not stopped.]",
    );
  }
  const isError = outcome.ending !== "exited" || outcome.exitCode !== 0;
  return { content: `${body}\n${notes.join("\n")}`, isError };
}

function describeEnding(outcome: CommandOutcome, timeoutMs: number): string {
  if (outcome.ending === "timeout") {
    return `[Timed out after ${timeoutMs} ms; the command and its child processes were killed.]`;
  }
  if (outcome.ending === "aborted") return "[Aborted; the command and its child processes were killed.]";
  if (outcome.exitSignal) return `[Killed by signal ${outcome.exitSignal}.]`;
  return `[Exit code: ${outcome.exitCode}]`;
}

function describeStartError(error: Error | undefined, missingProgram: string): string {
  if ((error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") return missingProgram;
  return error?.message ?? "unknown reason";
}

async function isDirectory(folder: string): Promise<boolean> {
  return (await stat(folder).catch(() => undefined))?.isDirectory() ?? false;
}
