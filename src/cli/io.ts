/**
 * The process surface the command uses, gathered so every part receives it explicitly.
 * @module
 */
import type { OutputStream } from "./terminal";

/** Standard streams, environment and working folder of one command run. */
export interface CliIo {
  stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  stdout: NodeJS.WritableStream & OutputStream;
  stderr: NodeJS.WritableStream & OutputStream;
  env: NodeJS.ProcessEnv;
  /** The folder `--tools` works on. */
  cwd: string;
}

/** The real process's streams, environment and folder. */
export function processIo(): CliIo {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  };
}
