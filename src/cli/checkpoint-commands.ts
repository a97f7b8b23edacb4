/**
 * Checkpoints in the CLI: `/rewind` and `/fork` in an interactive session, `--rewind <checkpoint>`
 * with `--session`. A checkpoint is named by its number in the `/rewind` list (1 is the first
 * prompt) or by its id. A rewind puts back the files `write_file` and `edit_file` changed since.
 * @module
 */
import type { Agent, Checkpoint, RewindResult } from "../index";
import { createSessionStore } from "./session";

/** The lines of the checkpoint list: number, id, time, prompt, files changed under it. */
export function checkpointLines(checkpoints: Checkpoint[]): string[] {
  if (checkpoints.length === 0) return ["no checkpoints yet: each prompt starts one"];
  return checkpoints.map((checkpoint, index) => {
    const files = checkpoint.files?.length ? `  [files: ${checkpoint.files.join(", ")}]` : "";
    const time = checkpoint.createdAt === "" ? "" : ` ${checkpoint.createdAt.slice(0, 19).replace("T", " ")}`;
    return `  ${index + 1}. ${checkpoint.id}${time}  ${checkpoint.prompt}${files}`;
  });
}

/** The checkpoint `reference` names (a number of the list, or an id), or an explanation. */
export function findCheckpoint(checkpoints: Checkpoint[], reference: string): Checkpoint | string {
  const byNumber = /^\d+$/.test(reference) ? checkpoints[Number(reference) - 1] : undefined;
  const found = byNumber ?? checkpoints.find((checkpoint) => checkpoint.id === reference);
  return (
    found ??
    `no checkpoint "${reference}" (there ${checkpoints.length === 1 ? "is 1" : `are ${checkpoints.length}`}; /rewind lists them)`
  );
}

/** Rewinds to `reference` (files included) and describes what happened, or why it did not. */
export async function rewindTo(
  agent: Agent<unknown>,
  reference: string,
): Promise<{ ok: boolean; lines: string[] }> {
  const target = findCheckpoint(await agent.checkpoints(), reference);
  if (typeof target === "string") return { ok: false, lines: [`! ${target}`] };
  let result: RewindResult;
  try {
    result = await agent.rewind({ to: target.id, files: true });
  } catch (error) {
    return {
      ok: false,
      lines: [`! rewind failed, the conversation is unchanged: ${(error as Error).message}`],
    };
  }
  return { ok: true, lines: describeRewind(result) };
}

function describeRewind(result: RewindResult): string[] {
  const lines = [
    `⟲ rewound to before "${result.checkpoint.prompt}": ${result.removedMessages} messages removed`,
  ];
  const files = result.files;
  if (files?.restored.length) lines.push(`  files restored: ${files.restored.join(", ")}`);
  if (files?.removed.length) lines.push(`  files removed: ${files.removed.join(", ")}`);
  if (files?.notKept.length)
    lines.push(`  ! too large to have been kept, left as they are: ${files.notKept.join(", ")}`);
  for (const failure of files?.failed ?? [])
    lines.push(`  ! not restored: ${failure.path}: ${failure.error}`);
  if (result.untracked.length > 0)
    lines.push(
      `  ! not tracked, still in effect: ${result.untracked.map((call) => `${call.name} (${call.tool_use_id})`).join(", ")}`,
    );
  return lines;
}

/**
 * `/fork <checkpoint>`: writes the conversation before that prompt to a new session file beside
 * `sessionPath`; the session goes on as it was.
 */
export async function forkTo(
  agent: Agent<unknown>,
  reference: string,
  sessionPath: string | undefined,
): Promise<{ ok: boolean; lines: string[] }> {
  if (sessionPath === undefined)
    return {
      ok: false,
      lines: ["! /fork needs --session: the fork is written to a session file of its own"],
    };
  const checkpoints = await agent.checkpoints();
  const target = findCheckpoint(checkpoints, reference);
  if (typeof target === "string") return { ok: false, lines: [`! ${target}`] };
  const file = `${sessionPath.replace(/\.jsonl$/, "")}-fork-${checkpoints.indexOf(target) + 1}-${Date.now().toString(36)}.jsonl`;
  try {
    const fork = await agent.fork({ at: target.id, store: createSessionStore(file) });
    const messages = (await fork.getHistory()).length;
    await fork.close();
    return {
      ok: true,
      lines: [
        `⑂ forked before "${target.prompt}" into ${file} (${messages} messages): continue it with --session ${file}`,
      ],
    };
  } catch (error) {
    return { ok: false, lines: [`! fork failed: ${(error as Error).message}`] };
  }
}
