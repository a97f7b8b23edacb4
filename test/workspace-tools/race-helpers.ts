import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach } from "vitest";
import { createSandbox, type Sandbox } from "./helpers";

/**
 * A child process that, in a tight loop, swaps each of `folders` between a real folder and a
 * symbolic link to `target` (outside the root): rename the folder aside, put a link in its place,
 * remove the link, rename the folder back. Errors (a tool created the folder meanwhile) are
 * repaired and the loop goes on. Says "ready" once it has made a swap, and sends its count of swaps
 * when stopped. Nothing here waits a guessed time: under load a pass of the loop can take seconds.
 */
const SWAPPER_SOURCE = `
const fs = require("node:fs");
const [target, ...folders] = process.argv.slice(1);
let swaps = 0;
let stopping = false;
process.on("SIGTERM", () => { stopping = true; });
function flip(folder) {
  const aside = folder + ".aside";
  try {
    fs.renameSync(folder, aside);
    fs.symlinkSync(target, folder);
    fs.unlinkSync(folder);
    fs.renameSync(aside, folder);
    swaps++;
  } catch {
    // A tool made a real folder where the link was, or the rename met one: put the original back.
    try { fs.lstatSync(aside); fs.rmSync(folder, { recursive: true, force: true }); fs.renameSync(aside, folder); } catch {}
  }
}
let ready = false;
(function loop() {
  for (let round = 0; round < 200 && !stopping; round++) for (const folder of folders) flip(folder);
  // "ready" once a swap has happened: the race is on before the test starts its tools.
  if (!ready && swaps > 0) { ready = true; process.send("ready"); }
  if (stopping) { process.send({ swaps }, () => process.exit(0)); return; }
  setImmediate(loop);
})();
`;

const swappers: ChildProcess[] = [];

afterEach(() => {
  for (const child of swappers.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** A running swapper; `stop()` ends it and says how many swaps it made. */
export interface Swapper {
  stop(): Promise<number>;
}

/** Starts a swapper over `folders` (absolute paths of existing folders), linking them to `target`. */
export async function startSwapper(target: string, folders: string[]): Promise<Swapper> {
  const child = spawn(process.execPath, ["-e", SWAPPER_SOURCE, target, ...folders], {
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  swappers.push(child);
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`the swapper exited early (code ${code})`)));
  });
  return {
    async stop() {
      // The count comes when the current pass of the loop ends, however long the machine makes it;
      // "close" follows every message the child sent, so it is the event to settle on.
      let swaps: number | undefined;
      child.on("message", (message: { swaps?: number }) => {
        if (typeof message?.swaps === "number") swaps = message.swaps;
      });
      const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
      child.kill("SIGTERM");
      await closed;
      if (swaps === undefined)
        throw new Error(`the swapper ended (code ${child.exitCode}) without its count`);
      return swaps;
    },
  };
}

/** Marker text of the files outside the root: found in any output, it is an escape. */
export const OUTSIDE_MARK = "TOP SECRET outside the root";
/** The name of a file that exists only outside the root. */
export const OUTSIDE_ONLY_NAME = "only-outside-the-root.txt";

/** A sandbox whose root holds `count` folders `f0…` (each with `secret.txt` and `notes.md`) to swap. */
export function createRaceSandbox(count: number): { sandbox: Sandbox; folders: string[] } {
  const sandbox = createSandbox();
  writeFileSync(path.join(sandbox.outside, OUTSIDE_ONLY_NAME), `${OUTSIDE_MARK}\n`);
  writeFileSync(path.join(sandbox.outside, "notes.md"), "state=A\n");
  const folders: string[] = [];
  for (let index = 0; index < count; index++) {
    const folder = path.join(sandbox.root, `f${index}`);
    mkdirSync(folder);
    writeFileSync(path.join(folder, "secret.txt"), "inside the root\n");
    writeFileSync(path.join(folder, "notes.md"), "state=A\n");
    folders.push(folder);
  }
  return { sandbox, folders };
}

/** Names and modification times of the entries of a folder, to tell whether anything changed in it. */
export function snapshotFolder(folder: string): string {
  return readdirSync(folder)
    .sort()
    .map((name) => `${name}@${statSync(path.join(folder, name)).mtimeMs}`)
    .join("\n");
}
