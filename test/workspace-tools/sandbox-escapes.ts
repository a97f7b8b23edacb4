/**
 * Privilege escapes tried from inside the bash sandbox, shared by the test that runs them as root
 * and by the script it runs as an unprivileged user (`sandbox-escapes-unprivileged.ts`). Every
 * success prints a line starting `ESCAPED:`; the rest prints facts the tests check.
 */

import { statSync } from "node:fs";
import path from "node:path";
import { createToolContext } from "../../src/index";
import { createWorkspaceTools } from "../../src/workspace-tools/index";

/** Kernel settings a sandbox of host root could write (core_pattern runs a program as host root). */
const SYSCTLS = [
  "kernel/core_pattern",
  "kernel/sysrq",
  "fs/protected_hardlinks",
  "vm/drop_caches",
  "kernel/hostname",
];

/** The escape attempts, as one command line. */
export const ESCAPE_ATTEMPTS = [
  ...SYSCTLS.map((name) => `(exec 3>/proc/sys/${name}) 2>/dev/null && echo ESCAPED:sysctl:${name}`),
  "(echo 1 >/proc/sysrq-trigger) 2>/dev/null && echo ESCAPED:sysrq-trigger",
  // A setuid copy of a program: created, but owned by the sandbox's unprivileged host user.
  "cp /bin/id suid-id && chmod 4755 suid-id && echo MADE-SUID",
  "chown 0:0 suid-id 2>/dev/null && echo ESCAPED:chown-to-root",
  "mknod dev-mem c 1 1 2>/dev/null && echo ESCAPED:mknod",
  "chmod 000 /dev/null 2>/dev/null && echo ESCAPED:chmod-host-device",
  'awk -v root="$PWD" \'$5 == root { print "ROOT-MOUNT:" $6 }\' /proc/self/mountinfo',
  "grep NoNewPrivs /proc/self/status | tr -d '\\t '",
  "echo CAPS:$(grep CapEff /proc/self/status | tr -d '\\t ')",
].join("\n");

/** What the attempts left: the tool result and the host's view of the setuid file. */
export interface EscapeReport {
  text: string;
  isError: boolean;
  /** The host owner and mode of `suid-id`, when it was created. */
  suid?: { uid: number; gid: number; mode: number };
}

/** Runs {@link ESCAPE_ATTEMPTS} with `bashSandbox: true` in `root`. */
export async function runEscapeAttempts(root: string): Promise<EscapeReport> {
  const bash = createWorkspaceTools({ root, allowBash: true, bashSandbox: true }).find(
    (tool) => tool.name === "bash",
  )!;
  const output = await bash.execute(
    { command: ESCAPE_ATTEMPTS },
    createToolContext({ signal: new AbortController().signal, toolUseId: "toolu_escape", toolName: "bash" }),
  );
  const result = typeof output === "string" ? { content: output, isError: false } : output;
  const text = typeof result.content === "string" ? result.content : JSON.stringify(result.content);
  let suid: EscapeReport["suid"];
  try {
    const entry = statSync(path.join(root, "suid-id"));
    suid = { uid: entry.uid, gid: entry.gid, mode: entry.mode };
  } catch {
    // not created
  }
  return { text, isError: result.isError ?? false, suid };
}
