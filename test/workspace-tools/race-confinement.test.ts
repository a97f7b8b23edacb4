/**
 * Confinement under a race: another process swaps folders of the root for symbolic links to
 * outside it, in a tight loop, while the tools run. Every path passes the by-name check at some
 * moment and may be swapped right after it; an open that followed the swapped-in link must never
 * reach a file outside. Each tool makes at least 10,000 attempts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type CallResult, workspaceTools } from "./helpers";
import {
  createRaceSandbox,
  OUTSIDE_MARK,
  OUTSIDE_ONLY_NAME,
  snapshotFolder,
  startSwapper,
} from "./race-helpers";

const ATTEMPTS = 10_000;
/** Folders swapped at once for the tools that open one path per call. */
const SWAPPED_FOLDERS = 8;
/** Folders swapped at once for grep, which opens every folder of the root in one call. */
const GREP_SWAPPED_FOLDERS = 100;
const RACE_TIMEOUT_MS = 240_000;

interface Tally {
  escapes: number;
  /** Attempts that went through and worked on the file inside. */
  succeeded: number;
  /** Attempts refused because the path changed between the check and the open. */
  refusedAsChanged: number;
}

/** Runs `attempt(i)` `count` times, 4 at a time, while the folders are swapped; tallies the results. */
async function raceTool(
  folders: string[],
  outside: string,
  count: number,
  attempt: (index: number) => Promise<CallResult>,
  classify: (result: CallResult) => "escape" | "success" | "other",
): Promise<Tally & { swaps: number }> {
  const tally: Tally = { escapes: 0, succeeded: 0, refusedAsChanged: 0 };
  const swapper = await startSwapper(outside, folders);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const result = await attempt(next++);
      const kind = classify(result);
      if (kind === "escape") tally.escapes++;
      if (kind === "success") tally.succeeded++;
      if (result.text.includes("changed while it was being opened")) tally.refusedAsChanged++;
    }
  };
  let swaps = -1;
  try {
    await Promise.all([lane(), lane(), lane(), lane()]);
  } finally {
    swaps = await swapper.stop();
  }
  if (process.env.RACE_REPORT) console.log(JSON.stringify({ ...tally, attempts: count, swaps }));
  return { ...tally, swaps };
}

function expectNoEscape(outcome: Tally & { swaps: number }) {
  expect(outcome.escapes).toBe(0);
  // The race was real: the swapper ran, and calls both went through and met a swapped path.
  expect(outcome.swaps).toBeGreaterThan(0);
  expect(outcome.succeeded).toBeGreaterThan(0);
}

const folderOf = (folders: string[], index: number) => path.basename(folders[index % folders.length]!);

describe("file tools under a concurrent folder ↔ symbolic link swap", { timeout: RACE_TIMEOUT_MS }, () => {
  it(`read_file never returns a file outside the root (${ATTEMPTS} attempts)`, async () => {
    const { sandbox, folders } = createRaceSandbox(SWAPPED_FOLDERS);
    const { call } = workspaceTools({ root: sandbox.root });
    const outcome = await raceTool(
      folders,
      sandbox.outside,
      ATTEMPTS,
      (index) => call("read_file", { path: `${folderOf(folders, index)}/secret.txt` }),
      (result) =>
        result.text.includes(OUTSIDE_MARK)
          ? "escape"
          : result.text.includes("inside the root")
            ? "success"
            : "other",
    );
    expectNoEscape(outcome);
  });

  it(`edit_file never changes a file outside the root (${ATTEMPTS} attempts)`, async () => {
    const { sandbox, folders } = createRaceSandbox(SWAPPED_FOLDERS);
    const before = snapshotFolder(sandbox.outside);
    const { call } = workspaceTools({ root: sandbox.root });
    const outcome = await raceTool(
      folders,
      sandbox.outside,
      ATTEMPTS,
      async (index) => {
        const file = `${folderOf(folders, index)}/notes.md`;
        const forward = await call("edit_file", { path: file, old_string: "state=A", new_string: "state=B" });
        if (!forward.text.includes("was not found")) return forward;
        return call("edit_file", { path: file, old_string: "state=B", new_string: "state=A" });
      },
      (result) => (result.text.includes(OUTSIDE_MARK) ? "escape" : result.isError ? "other" : "success"),
    );
    expectNoEscape(outcome);
    expect(readFileSync(path.join(sandbox.outside, "notes.md"), "utf8")).toBe("state=A\n");
    expect(snapshotFolder(sandbox.outside)).toBe(before);
  });

  it(`write_file never creates or changes anything outside the root (${ATTEMPTS} attempts)`, async () => {
    const { sandbox, folders } = createRaceSandbox(SWAPPED_FOLDERS);
    const before = snapshotFolder(sandbox.outside);
    const { call } = workspaceTools({ root: sandbox.root });
    const outcome = await raceTool(
      folders,
      sandbox.outside,
      ATTEMPTS,
      (index) => {
        const file = index % 2 === 0 ? "notes.md" : `new-${index % 4}/deeper/written.txt`;
        return call("write_file", { path: `${folderOf(folders, index)}/${file}`, content: "state=A\n" });
      },
      (result) => (result.isError ? "other" : "success"),
    );
    expectNoEscape(outcome);
    expect(snapshotFolder(sandbox.outside)).toBe(before);
  });

  it(`list_files never lists a folder outside the root (${ATTEMPTS} attempts)`, async () => {
    const { sandbox, folders } = createRaceSandbox(SWAPPED_FOLDERS);
    const { call } = workspaceTools({ root: sandbox.root });
    const outcome = await raceTool(
      folders,
      sandbox.outside,
      ATTEMPTS,
      (index) => call("list_files", { path: folderOf(folders, index) }),
      (result) =>
        result.text.includes(OUTSIDE_ONLY_NAME)
          ? "escape"
          : result.text.includes("secret.txt")
            ? "success"
            : "other",
    );
    expectNoEscape(outcome);
  });

  it(`glob never matches a file outside the root (${ATTEMPTS} attempts)`, async () => {
    const { sandbox, folders } = createRaceSandbox(SWAPPED_FOLDERS);
    const { call } = workspaceTools({ root: sandbox.root });
    const outcome = await raceTool(
      folders,
      sandbox.outside,
      ATTEMPTS,
      (index) => call("glob", { pattern: "*", path: folderOf(folders, index) }),
      (result) =>
        result.text.includes(OUTSIDE_ONLY_NAME)
          ? "escape"
          : result.text.includes("secret.txt")
            ? "success"
            : "other",
    );
    expectNoEscape(outcome);
  });

  it(`grep never searches a folder or file outside the root (${ATTEMPTS} folders walked)`, async () => {
    const { sandbox, folders } = createRaceSandbox(GREP_SWAPPED_FOLDERS);
    const { call } = workspaceTools({ root: sandbox.root });
    // Each call walks the whole root: every swapped folder is one attempt.
    const outcome = await raceTool(
      folders,
      sandbox.outside,
      ATTEMPTS / GREP_SWAPPED_FOLDERS,
      () => call("grep", { pattern: "SECRET|inside the root" }),
      (result) =>
        result.text.includes(OUTSIDE_MARK)
          ? "escape"
          : result.text.includes("inside the root")
            ? "success"
            : "other",
    );
    expectNoEscape(outcome);
  });
});
