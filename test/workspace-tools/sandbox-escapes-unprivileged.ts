/**
 * Run by `bash-sandbox-privileges.test.ts` as an unprivileged user (`setpriv`): the escape
 * attempts from a process that is not root, in a workspace of its own; prints the report as JSON.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runEscapeAttempts } from "./sandbox-escapes";

const root = mkdtempSync(path.join(tmpdir(), "lattice-unprivileged-"));
try {
  const report = await runEscapeAttempts(root);
  process.stdout.write(`${JSON.stringify({ uid: process.getuid?.(), report })}\n`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
