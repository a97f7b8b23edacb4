/**
 * `agent.checkpoints()`, `agent.rewind()` and `agent.fork()`: going back to just before a prompt,
 * or branching from there, with the files the workspace tools changed since.
 * @module
 */
import { InvalidOptionError } from "../errors";
import { type CheckpointEntry, listCheckpoints } from "../history/checkpoints";
import type { HistoryStore } from "../history/store";
import { isCheckpointId } from "../messages/checkpoint-id";
import type { ModelMessage } from "../messages/types";
import type { FileCheckpoints, FileRestoreReport } from "../tools/file-checkpoints";
import type { Tool } from "../tools/tool";
import type { AgentShell } from "./agent-shell";

/** One checkpoint of a conversation, as `agent.checkpoints()` lists it. */
export interface Checkpoint {
  /** The checkpoint id: pass it to `rewind({ to })` or `fork({ at })`. */
  id: string;
  /** The index in history of the prompt that starts it: a rewind keeps the messages before it. */
  index: number;
  /** The prompt's text, shortened to 120 characters (images and documents as `[image]`, `[document]`). */
  prompt: string;
  /** When the prompt was recorded (ISO 8601); empty for a prompt stored before timestamps existed. */
  createdAt: string;
  /**
   * With tools that record file pre-images (the workspace `write_file` and `edit_file`): the files
   * they changed under this checkpoint whose prior content is kept. Absent without such tools.
   */
  files?: string[];
  /** Files changed under this checkpoint whose prior content was over the size limit and is not kept. */
  filesNotKept?: string[];
}

/** Options of `agent.rewind()`. */
export interface RewindOptions {
  /** The checkpoint to go back to: history keeps what came before its prompt. */
  to: string;
  /**
   * Also put back the files the file-recording tools changed from that prompt on: their prior
   * content restored, the files they created removed.
   * @default false
   */
  files?: boolean;
}

/** A tool call of the rewound part whose changes no checkpoint recorded (`bash`, a custom tool). */
export interface UntrackedCall {
  tool_use_id: string;
  name: string;
}

/** What `agent.rewind()` did. */
export interface RewindResult {
  /** The checkpoint rewound to (now gone from history: its prompt was the first message removed). */
  checkpoint: Checkpoint;
  /** How many messages left history. */
  removedMessages: number;
  /** With `files: true`: what was restored. */
  files?: FileRestoreReport;
  /**
   * Calls in the rewound part by tools that change things without recording them (not read-only,
   * no file pre-images: `bash`, custom tools, MCP tools): what they changed is still there.
   */
  untracked: UntrackedCall[];
  /**
   * True only when nothing is known to be left over: `files: true` restored every recorded file,
   * nothing was over the size limit, and no untracked call ran in the rewound part.
   */
  clean: boolean;
}

/** Options of `agent.fork()`. */
export interface ForkOptions {
  /** The checkpoint to branch at: the fork holds what came before its prompt. */
  at: string;
  /**
   * The fork's store: an empty conversation (a new id) of any store; the fork's history is written
   * to it before `fork()` resolves. Without it the fork keeps its history in memory only.
   */
  store?: HistoryStore;
}

/** `agent.checkpoints()`: every checkpoint of the loaded history, oldest first. */
export async function listAgentCheckpoints<T>(shell: AgentShell<T>): Promise<Checkpoint[]> {
  const history = await loadedHistory(shell);
  const recorders = fileRecorders(shell.conversation.everyTool().values());
  const list: Checkpoint[] = [];
  for (const entry of listCheckpoints(history)) list.push(await describe(entry, recorders));
  return list;
}

/**
 * `agent.rewind()`: files first (so a crash between the two leaves a checkpoint to rewind to
 * again), then history, replaced in one versioned write — another writer's change is a conflict.
 */
export async function rewindAgent<T>(shell: AgentShell<T>, options: RewindOptions): Promise<RewindResult> {
  const to = checkpointOption(options?.to, "rewind({ to })");
  shell.guard.assertIdle("rewind()");
  return shell.holdingGuard(async () => {
    const history = await loadedHistory(shell);
    const entries = listCheckpoints(history);
    const target = findCheckpoint(entries, to, "rewind");
    const tools = shell.conversation.everyTool(); // every agent's: a specialist's calls are in history too
    const recorders = fileRecorders(tools.values());
    const rewound = entries.filter((entry) => entry.index >= target.index).map((entry) => entry.id);
    let files: FileRestoreReport | undefined;
    if (options.files === true) files = await restoreFiles(recorders, rewound);
    const untracked = untrackedCalls(history.slice(target.index), tools);
    await shell.conversation.history.replaceOrThrow(history.slice(0, target.index));
    shell.conversation.forgetUsage();
    shell.syncActiveAgent(); // the agent answering at that checkpoint answers again
    const clean =
      untracked.length === 0 &&
      (files === undefined
        ? recorders.length === 0 || (await nothingRecorded(recorders, rewound))
        : files.failed.length === 0 && files.notKept.length === 0);
    const result: RewindResult = {
      checkpoint: await describe(target, recorders),
      removedMessages: history.length - target.index,
      untracked,
      clean,
    };
    if (files) result.files = files;
    return result;
  });
}

/** `agent.fork()`: the history before the checkpoint's prompt, written to `store` when given. */
export async function forkHistory<T>(shell: AgentShell<T>, options: ForkOptions): Promise<ModelMessage[]> {
  const at = checkpointOption(options?.at, "fork({ at })");
  shell.guard.assertIdle("fork()");
  const history = await loadedHistory(shell);
  const target = findCheckpoint(listCheckpoints(history), at, "fork");
  const kept = structuredClone(history.slice(0, target.index));
  const store = options.store;
  if (store !== undefined) {
    if (typeof store?.load !== "function" || typeof store.replace !== "function")
      throw new InvalidOptionError("fork({ store }) takes a HistoryStore.");
    if ((await store.load()).length > 0)
      throw new InvalidOptionError(
        "fork({ store }): the store already holds a conversation; give the fork an empty one (a new conversation id).",
      );
    await store.replace(kept);
  }
  return kept;
}

async function loadedHistory<T>(shell: AgentShell<T>): Promise<readonly ModelMessage[]> {
  await shell.conversation.history.ensureLoaded();
  return shell.conversation.history.messages;
}

function checkpointOption(id: unknown, where: string): string {
  if (!isCheckpointId(id))
    throw new InvalidOptionError(
      `${where} takes a checkpoint id (see agent.checkpoints() or result.checkpoint_id).`,
    );
  return id;
}

function findCheckpoint(entries: CheckpointEntry[], id: string, method: string): CheckpointEntry {
  const found = entries.find((entry) => entry.id === id);
  if (found) return found;
  throw new InvalidOptionError(
    `${method}(): no checkpoint "${id}" in this conversation (${entries.length} checkpoint${entries.length === 1 ? "" : "s"}; ` +
      "agent.checkpoints() lists them — a rewind removes the checkpoints it goes back over).",
  );
}

/** The distinct file records of the agent's tools (write_file and edit_file share one). */
function fileRecorders(tools: Iterable<Tool>): FileCheckpoints[] {
  const recorders = new Set<FileCheckpoints>();
  for (const tool of tools) if (tool.fileCheckpoints) recorders.add(tool.fileCheckpoints);
  return [...recorders];
}

async function describe(entry: CheckpointEntry, recorders: FileCheckpoints[]): Promise<Checkpoint> {
  const checkpoint: Checkpoint = {
    id: entry.id,
    index: entry.index,
    prompt: entry.prompt,
    createdAt: entry.createdAt,
  };
  if (recorders.length === 0) return checkpoint;
  const changed = new Set<string>();
  const notKept = new Set<string>();
  for (const recorder of recorders) {
    const record = await recorder.files(entry.id);
    for (const path of record.changed) changed.add(path);
    for (const path of record.notKept) notKept.add(path);
  }
  checkpoint.files = [...changed].sort();
  if (notKept.size > 0) checkpoint.filesNotKept = [...notKept].sort();
  return checkpoint;
}

async function restoreFiles(recorders: FileCheckpoints[], ids: string[]): Promise<FileRestoreReport> {
  const report: FileRestoreReport = { restored: [], removed: [], notKept: [], failed: [] };
  for (const recorder of recorders) {
    const part = await recorder.restore(ids);
    report.restored.push(...part.restored);
    report.removed.push(...part.removed);
    report.notKept.push(...part.notKept);
    report.failed.push(...part.failed);
  }
  return report;
}

/** Whether no file was recorded under `ids`: then a rewind without `files` leaves nothing behind. */
async function nothingRecorded(recorders: FileCheckpoints[], ids: string[]): Promise<boolean> {
  for (const recorder of recorders)
    for (const id of ids) {
      const record = await recorder.files(id);
      if (record.changed.length > 0 || record.notKept.length > 0) return false;
    }
  return true;
}

/** The calls in `rewound` by tools that may change things without a record of it. */
function untrackedCalls(rewound: readonly ModelMessage[], tools: ReadonlyMap<string, Tool>): UntrackedCall[] {
  const calls: UntrackedCall[] = [];
  for (const message of rewound) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) {
      if (block.type !== "tool_use") continue;
      const tool = tools.get(block.name);
      if (tool?.readOnly || tool?.fileCheckpoints) continue;
      calls.push({ tool_use_id: block.id, name: block.name });
    }
  }
  return calls;
}
