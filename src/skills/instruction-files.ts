/**
 * Reading project instruction files (Node only; imported lazily by the agent).
 * @module
 */
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { InvalidOptionError } from "../errors";
import {
  DEFAULT_INSTRUCTIONS_MAX_BYTES,
  type InstructionFile,
  type ProjectInstructions,
} from "./project-instructions";

/**
 * The files of `option` that exist, in order, read as UTF-8.
 * @throws {InvalidOptionError} for a file over the size limit, or one that exists but cannot be read
 */
export async function readInstructionFiles(option: ProjectInstructions): Promise<InstructionFile[]> {
  const root = path.resolve(option.root ?? process.cwd());
  const maxBytes = option.maxBytes ?? DEFAULT_INSTRUCTIONS_MAX_BYTES;
  const found: InstructionFile[] = [];
  for (const listed of option.files) {
    const file = path.resolve(root, listed);
    let size: number;
    try {
      size = (await stat(file)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw new InvalidOptionError(`instructions: ${file} cannot be read.`, { cause: error });
    }
    let text: string;
    try {
      text = size > maxBytes ? "" : await readFile(file, "utf8");
    } catch (error) {
      throw new InvalidOptionError(`instructions: ${file} cannot be read.`, { cause: error });
    }
    size = Math.max(size, Buffer.byteLength(text)); // grown since the stat: checked on what was read
    if (size > maxBytes)
      throw new InvalidOptionError(
        `instructions: ${file} is ${size} bytes, over the limit of ${maxBytes} (instructions.maxBytes).`,
      );
    found.push({ path: listed, text });
  }
  return found;
}
