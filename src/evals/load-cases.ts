/**
 * Cases from an array, a JSON file (an array of cases) or a JSONL file (one case a line). A bad
 * case is refused with where it is (the line of a JSONL file, the index in an array) and what is wrong.
 * @module
 */
import { readFile } from "node:fs/promises";
import { extname, resolve } from "node:path";
import { EvalInputError } from "./eval-input-error";
import type { EvalCase } from "./types";

/** Loads and checks the cases of a definition; a path is relative to `baseDir`. */
export async function loadCases(cases: EvalCase[] | string, baseDir: string): Promise<EvalCase[]> {
  if (Array.isArray(cases))
    return checkAll(cases.map((value, index) => ({ value, where: `case #${index + 1}` })));
  const path = resolve(baseDir, cases);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new EvalInputError(`cannot read the cases file ${path}: ${(error as Error).message}`);
  }
  const extension = extname(path).toLowerCase();
  if (extension === ".jsonl" || extension === ".ndjson") return checkAll(jsonLines(text, path));
  if (extension === ".json") return checkAll(jsonArray(text, path));
  throw new EvalInputError(`${path}: a cases file must be .jsonl or .json.`);
}

interface Located {
  value: unknown;
  where: string;
}

function jsonLines(text: string, path: string): Located[] {
  const located: Located[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const where = `${path}:${index + 1}`;
    try {
      located.push({ value: JSON.parse(line), where });
    } catch (error) {
      throw new EvalInputError(`${where}: not valid JSON (${(error as Error).message}).`);
    }
  }
  return located;
}

function jsonArray(text: string, path: string): Located[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new EvalInputError(`${path}: not valid JSON (${(error as Error).message}).`);
  }
  if (!Array.isArray(parsed)) throw new EvalInputError(`${path}: a JSON cases file holds an array of cases.`);
  return parsed.map((value, index) => ({ value, where: `${path} [${index}]` }));
}

function checkAll(located: Located[]): EvalCase[] {
  const seen = new Set<string>();
  return located.map(({ value, where }) => {
    const problem = caseProblem(value);
    if (problem) throw new EvalInputError(`${where}: ${problem}.`);
    const evalCase = value as EvalCase;
    if (seen.has(evalCase.id))
      throw new EvalInputError(`${where}: the case id "${evalCase.id}" is used twice.`);
    seen.add(evalCase.id);
    return evalCase;
  });
}

/** What is wrong with `value` as a case, or `undefined`. */
export function caseProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "a case must be an object";
  const { id, input, expected, tags, workspace } = value as Record<string, unknown>;
  if (typeof id !== "string" || id.trim() === "") return "`id` must be a non-empty string";
  if (!/^[\w.-]+$/.test(id))
    return `\`id\` "${id}" may hold only letters, digits, "_", "-" and "." (it names files)`;
  const inputOk =
    (typeof input === "string" && input !== "") ||
    (Array.isArray(input) &&
      input.length > 0 &&
      input.every((part) => typeof part === "string" && part !== ""));
  if (!inputOk) return `case "${id}": \`input\` must be a non-empty string or a non-empty array of strings`;
  if (
    expected !== undefined &&
    (typeof expected !== "object" || expected === null || Array.isArray(expected))
  )
    return `case "${id}": \`expected\` must be an object`;
  const calls = (expected as { toolCalls?: unknown } | undefined)?.toolCalls;
  if (calls !== undefined && !(Array.isArray(calls) && calls.every(isExpectedCall)))
    return `case "${id}": \`expected.toolCalls\` must be an array of { name, input? }`;
  if (tags !== undefined && !(Array.isArray(tags) && tags.every((tag) => typeof tag === "string")))
    return `case "${id}": \`tags\` must be an array of strings`;
  if (workspace !== undefined && typeof workspace !== "string" && !isFileMap(workspace))
    return `case "${id}": \`workspace\` must be a folder path or an object of file paths to contents`;
  return undefined;
}

function isExpectedCall(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && typeof (value as { name?: unknown }).name === "string"
  );
}

function isFileMap(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((content) => typeof content === "string")
  );
}
