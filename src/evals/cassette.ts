/**
 * Cassettes: the model requests of one trial of one case, in order, with the responses they got
 * (the streamed events kept). One pretty-printed JSON file per case and trial, in a
 * folder named after the eval beside the eval file: `<eval-file folder>/<eval name>/<case id>.trial-<n>.json`.
 * @module
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-write";

/** Which part of a trial made a request: the agent, or a scorer's model (the judge). */
export type CassetteChannel = "agent" | "judge";

/** One request and what answered it. */
export interface CassetteInteraction {
  channel: CassetteChannel;
  /** The request as compared on replay (see request-match.ts). */
  request: Record<string, unknown>;
  /** The stream events, in order (empty for a client that does not stream). */
  events: unknown[];
  /** The assistant message the client returned. */
  response: unknown;
}

/** A cassette file's content. */
export interface Cassette {
  format: "agent-lattice-cassette";
  version: 1;
  eval: string;
  case: string;
  trial: number;
  interactions: CassetteInteraction[];
}

/** The folder holding an eval's cassettes. */
export function cassetteFolder(baseDir: string, evalName: string): string {
  return join(baseDir, fileSafe(evalName));
}

/** The cassette file of one case and trial. */
export function cassettePath(folder: string, caseId: string, trial: number): string {
  return join(folder, `${fileSafe(caseId)}.trial-${trial}.json`);
}

function fileSafe(name: string): string {
  return name.replace(/[^\w.-]+/g, "-");
}

/** Reads a cassette; a missing or malformed file is an error naming the file. */
export async function readCassette(path: string): Promise<Cassette> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    throw new Error(
      missing
        ? `no cassette at ${path} (record it with --record)`
        : `cannot read the cassette ${path}: ${(error as Error).message}`,
    );
  }
  let parsed: Partial<Cassette>;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`the cassette ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (
    parsed.format !== "agent-lattice-cassette" ||
    parsed.version !== 1 ||
    !Array.isArray(parsed.interactions)
  )
    throw new Error(`${path} is not an agent-lattice cassette (version 1)`);
  return parsed as Cassette;
}

/**
 * Writes a cassette atomically, two-space indented, for readable diffs. Keys keep the order they
 * came in: a response's input object is replayed exactly as the model wrote it.
 */
export async function writeCassette(path: string, cassette: Cassette): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(cassette, null, 2)}\n`);
}
