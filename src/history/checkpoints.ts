/**
 * Checkpoints: every user prompt in history starts one. A prompt recorded by this release carries
 * its id in `meta.checkpoint_id`; the prompts of a history written before checkpoints existed get
 * an id derived from their position and content, so every process derives the same ids.
 * @module
 */
import { isCheckpointId } from "../messages/checkpoint-id";
import type { ContentBlock, ModelMessage } from "../messages/types";
import { fnv1a32, hex32 } from "../shared/fnv-hash";

/** One checkpoint of a conversation: the prompt it starts, and where it is in history. */
export interface CheckpointEntry {
  /** The checkpoint id (recorded in the prompt's `meta`, or derived). */
  id: string;
  /** The index of the prompt's message in history: a rewind keeps the messages before it. */
  index: number;
  /** The prompt's text, shortened to {@link CHECKPOINT_PREVIEW_CHARS} characters. */
  prompt: string;
  /** When the prompt was recorded (ISO 8601); empty for a prompt stored before timestamps existed. */
  createdAt: string;
  /** Whether the id was derived (the prompt was stored without one). */
  derived: boolean;
}

/** How many characters of a prompt {@link CheckpointEntry.prompt} keeps. */
export const CHECKPOINT_PREVIEW_CHARS = 120;

/** The prefix of every checkpoint id: recorded ones are `cp_` + 32 hex digits, derived ones `cp_d` + 24. */
const PREFIX = "cp_";

/** A fresh checkpoint id for a prompt entering history. */
export function newCheckpointId(): string {
  return PREFIX + globalThis.crypto.randomUUID().replaceAll("-", "");
}

/**
 * The checkpoints of `history`, oldest first. A user message with `meta.checkpoint_id` is one. So
 * is, before the first such message (the part a release without checkpoints wrote), every user
 * message holding more than tool results — text, images, documents — except a pause marker. After
 * it, a user message without an id is the loop's own (tool results, a continuation), not a prompt.
 */
export function listCheckpoints(history: readonly ModelMessage[]): CheckpointEntry[] {
  const entries: CheckpointEntry[] = [];
  const firstRecorded = history.findIndex((message) => recordedId(message) !== undefined);
  const legacyEnd = firstRecorded === -1 ? history.length : firstRecorded;
  for (let index = 0; index < history.length; index++) {
    const message = history[index]!;
    if (message.role !== "user") continue;
    const recorded = recordedId(message);
    if (recorded === undefined && (index >= legacyEnd || !isLegacyPrompt(message))) continue;
    entries.push({
      id: recorded ?? derivedCheckpointId(index, message),
      index,
      prompt: previewOf(message.content),
      createdAt: message.meta?.created_at ?? "",
      derived: recorded === undefined,
    });
  }
  return entries;
}

/**
 * The checkpoint the end of `history` belongs to: the id of its last prompt (recorded, or derived
 * when the history has no recorded one), or `undefined` when it has none. Reads backwards: cheap.
 */
export function currentCheckpoint(history: readonly ModelMessage[]): string | undefined {
  for (let index = history.length - 1; index >= 0; index--) {
    const id = recordedId(history[index]!);
    if (id !== undefined) return id;
  }
  return listCheckpoints(history).at(-1)?.id;
}

/**
 * The id of a prompt stored without one: `cp_d` + a hash of its position and content. Two
 * processes reading the same history derive the same ids.
 */
export function derivedCheckpointId(index: number, message: ModelMessage): string {
  const text = `${index}\u0000${JSON.stringify(message.content)}`;
  return `${PREFIX}d${hash32(text, 0x811c9dc5, 0x01000193)}${hash32(text, 0x9e3779b9, 0x5bd1e995)}${hash32(text, 0x2545f491, 0x27d4eb2d)}`;
}

function recordedId(message: ModelMessage): string | undefined {
  const id = message.role === "user" ? message.meta?.checkpoint_id : undefined;
  return isCheckpointId(id) ? id : undefined;
}

/** A user message a release without checkpoints recorded as a prompt. */
function isLegacyPrompt(message: ModelMessage): boolean {
  if ((message as { pending_approvals?: unknown }).pending_approvals !== undefined) return false; // a pause marker
  if (typeof message.content === "string") return true;
  return message.content.some((block) => block.type !== "tool_result");
}

function previewOf(content: string | ContentBlock[]): string {
  const text =
    typeof content === "string"
      ? content
      : content
          .map((block) =>
            block.type === "text" ? block.text : block.type === "tool_result" ? "" : `[${block.type}]`,
          )
          .filter((part) => part !== "")
          .join(" ");
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= CHECKPOINT_PREVIEW_CHARS ? flat : `${flat.slice(0, CHECKPOINT_PREVIEW_CHARS - 1)}…`;
}

/** 8 hex digits of an FNV-1a style hash of `text` (an id, not a security measure). */
function hash32(text: string, seed: number, multiplier: number): string {
  return hex32(fnv1a32(text, seed, multiplier));
}
