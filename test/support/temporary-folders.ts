/**
 * Scratch folders under the system's temporary folder that remove themselves: one for the running
 * test, or one shared by the tests of a file (or of a `describe`).
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, onTestFinished } from "vitest";

/**
 * A new, empty folder named `<prefix><random>`, removed when the running test finishes, passed or
 * failed. Call it inside a test. The path has its links resolved (macOS's /tmp is one), so it
 * compares equal to what a tool or child process reports.
 */
export function temporaryFolder(prefix: string): string {
  const folder = makeFolder(prefix);
  onTestFinished(() => removeFolder(folder));
  return folder;
}

/**
 * A new, empty folder for the tests that follow, removed after the last of them (`afterAll`). Call
 * it at the top of a test file, or in a `describe` for that block's tests.
 */
export function sharedTemporaryFolder(prefix: string): string {
  const folder = makeFolder(prefix);
  afterAll(() => removeFolder(folder));
  return folder;
}

function makeFolder(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

function removeFolder(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
}
