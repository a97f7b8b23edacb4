/**
 * Finding and loading eval files for `agent-lattice eval`.
 * @module
 */
import { readdir, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isEvalDefinition } from "../evals/define-eval";
import { EvalInputError } from "../evals/eval-input-error";
import type { EvalDefinition } from "../evals/types";

const EVAL_FILE = /\.eval\.(?:js|mjs|cjs|ts|mts)$/;
const SKIPPED_FOLDERS = new Set(["node_modules", ".git", "dist"]);

/** An eval definition with the folder its file is in. */
export interface LoadedEval {
  definition: EvalDefinition;
  file: string;
  baseDir: string;
}

/** The eval files named by `paths` (files as given, folders searched for `*.eval.*`), sorted. */
export async function findEvalFiles(paths: readonly string[], cwd: string): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths.length > 0 ? paths : ["."]) {
    const absolute = resolve(cwd, path);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) throw new EvalInputError(`no such file or folder: ${path}`);
    if (info.isDirectory()) files.push(...(await searchFolder(absolute)));
    else files.push(absolute);
  }
  if (files.length === 0)
    throw new EvalInputError(
      `no eval file (*.eval.js, *.eval.mjs, *.eval.ts …) in ${paths.join(", ") || "."}`,
    );
  return [...new Set(files)].sort();
}

async function searchFolder(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name))
      found.push(...(await searchFolder(join(folder, entry.name))));
    else if (entry.isFile() && EVAL_FILE.test(entry.name)) found.push(join(folder, entry.name));
  }
  return found;
}

/** Imports each file and takes its default export's definitions. */
export async function loadEvalFiles(files: readonly string[]): Promise<LoadedEval[]> {
  const loaded: LoadedEval[] = [];
  for (const file of files) {
    let module: { default?: unknown };
    try {
      module = await import(pathToFileURL(file).href);
    } catch (error) {
      const hint =
        /\.m?ts$/.test(file) && /Unknown file extension/.test(String(error))
          ? " (run Node with a TypeScript loader, e.g. node --import tsx)"
          : "";
      throw new EvalInputError(`cannot load ${file}: ${(error as Error).message}${hint}`);
    }
    const exported = module.default;
    const definitions = Array.isArray(exported) ? exported : [exported];
    if (definitions.length === 0 || !definitions.every(isEvalDefinition))
      throw new EvalInputError(
        `${file}: the default export must be a defineEval(…) definition or an array of them.`,
      );
    for (const definition of definitions) loaded.push({ definition, file, baseDir: dirname(file) });
  }
  const names = new Set<string>();
  for (const { definition, file } of loaded) {
    if (names.has(definition.name))
      throw new EvalInputError(`${file}: two evals are named "${definition.name}".`);
    names.add(definition.name);
  }
  return loaded;
}
