/**
 * What the `--mock` model makes of a prompt: the tool call a small rule-based model would make for
 * it, given the tools offered. Writing and changing files come first (a file the prompt names, or
 * `NOTES.md` when it names none: `write_file`; "change A to B in a file": `edit_file`; a change
 * without the words to change: read the file, then add a line), then a command to run (`bash`),
 * then reading (`read_file`, `grep`, `list_files`, `bash ls`).
 * @module
 */
import { shellWord } from "./shell-word";

/** A tool call the mock model makes: the tool's name and its input. */
export interface MockCall {
  name: string;
  input: Record<string, unknown>;
}

/** The file a prompt writes to when it names none ("Write the release notes."). */
export const DEFAULT_MOCK_FILE = "NOTES.md";

const FILE = /(?<![\w/-])(?:\.{0,2}\/)?[\w-][\w./-]*\.[A-Za-z]\w*/;
const WRITE = /\b(write|create|save|make|generate|put|draft)\b/i;
const CHANGE = /\b(change|edit|replace|update|modify|rename|append)\b/i;
const RUN = /\b(run|execute|exec)\b/i;

/** The file a prompt names (`hello.txt`, `docs/a.md`), if any. */
export function fileOf(prompt: string): string | undefined {
  return FILE.exec(prompt)?.[0].replace(/[.,;:!?]+$/, "");
}

/** A tool as the request offers it: its name and, for a tool of the caller's own, its input schema. */
export interface OfferedTool {
  name: string;
  input_schema?: { properties?: Record<string, JsonSchemaProperty>; required?: string[] };
}

interface JsonSchemaProperty {
  type?: string;
  enum?: unknown[];
}

/** The call a prompt asks for first, or `undefined` when no tool offered fits. */
export function firstCall(
  prompt: string,
  tools: readonly string[],
  offered: readonly OfferedTool[] = [],
): MockCall | undefined {
  return (
    changeCall(prompt, tools) ??
    writeCall(prompt, tools) ??
    runCall(prompt, tools) ??
    ownToolCall(prompt, offered) ??
    readCall(prompt, tools)
  );
}

/**
 * A tool of the caller's own (any name the workspace tools do not use) whose name the prompt says
 * (`deploy` in "Deploy to production"), or whose required inputs are all numbers the prompt gives
 * ("What is 2.5 + 4?" for `add { a, b }`): its input from the prompt — an enum's value the prompt
 * names (else its first), numbers in order, a quoted text or the prompt for a string, `true`.
 */
function ownToolCall(prompt: string, offered: readonly OfferedTool[]): MockCall | undefined {
  const words = new Set(prompt.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  const numbers = (prompt.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
  for (const tool of offered) {
    if (WORKSPACE_TOOLS.has(tool.name)) continue;
    const properties = tool.input_schema?.properties ?? {};
    const required = tool.input_schema?.required ?? [];
    const named = tool.name
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .some((part) => words.has(part));
    const numeric =
      required.length > 0 &&
      required.every((key) => ["number", "integer"].includes(properties[key]?.type ?? "")) &&
      numbers.length >= required.length;
    if (!named && !numeric) continue;
    const queue = [...numbers];
    const input: Record<string, unknown> = {};
    for (const key of required) input[key] = valueFor(properties[key] ?? {}, prompt, words, queue);
    return { name: tool.name, input };
  }
  return undefined;
}

const WORKSPACE_TOOLS = new Set([
  "read_file",
  "list_files",
  "glob",
  "grep",
  "write_file",
  "edit_file",
  "bash",
]);

function valueFor(
  property: JsonSchemaProperty,
  prompt: string,
  words: Set<string>,
  numbers: number[],
): unknown {
  if (property.enum)
    return property.enum.find((value) => words.has(String(value).toLowerCase())) ?? property.enum[0];
  if (property.type === "number" || property.type === "integer") return numbers.shift() ?? 0;
  if (property.type === "boolean") return true;
  return /["“]([^"”]+)["”]/.exec(prompt)?.[1] ?? prompt;
}

/** "Change A to B in f" (`edit_file`), or a change without words: `read_file` first. */
export function changeCall(prompt: string, tools: readonly string[]): MockCall | undefined {
  const path = fileOf(prompt);
  const change = CHANGE.exec(prompt)?.index;
  const write = WRITE.exec(prompt)?.index;
  if (!path || change === undefined || (write !== undefined && write < change)) return undefined;
  const words = replacementOf(prompt, path);
  if (words && tools.includes("edit_file"))
    return { name: "edit_file", input: { path, old_string: words.from, new_string: words.to } };
  if (!words && tools.includes("edit_file") && tools.includes("read_file"))
    return { name: "read_file", input: { path } };
  return undefined;
}

/**
 * After `read_file` of a change without words: the edit that adds a line after the file's last
 * one (the line must occur once), or `undefined`.
 */
export function followingEdit(prompt: string, path: string, readResult: string): MockCall | undefined {
  const lines = readResult
    .split("\n")
    .map((line) => /^\s*\d+\t(.*)$/.exec(line)?.[1])
    .filter((line): line is string => line !== undefined && line.trim() !== "");
  const last = lines.at(-1);
  if (last === undefined || lines.filter((line) => line.includes(last)).length !== 1) return undefined;
  const added = contentOf(prompt, path).trimEnd();
  return { name: "edit_file", input: { path, old_string: last, new_string: `${last}\n${added}` } };
}

/** `write_file` (or, with only `bash`, a `printf` into the file) for a prompt that asks to write. */
function writeCall(prompt: string, tools: readonly string[]): MockCall | undefined {
  if (!WRITE.test(prompt)) return undefined;
  const path = fileOf(prompt) ?? DEFAULT_MOCK_FILE;
  const content = contentOf(prompt, path);
  if (tools.includes("write_file")) return { name: "write_file", input: { path, content } };
  if (tools.includes("bash"))
    return { name: "bash", input: { command: `printf '%s' ${shellWord(content)} > ${shellWord(path)}` } };
  return undefined;
}

/** `bash` for "run `command`" (quoted or in backticks), or "run <command>" to the end. */
function runCall(prompt: string, tools: readonly string[]): MockCall | undefined {
  if (!tools.includes("bash") || !RUN.test(prompt)) return undefined;
  const quoted = /[`"']([^`"']+)[`"']/.exec(prompt)?.[1];
  const rest = /\b(?:run|execute|exec)\s+(?:the\s+command\s+)?(.+?)[.!]?$/i.exec(prompt)?.[1];
  const command = quoted ?? rest;
  return command ? { name: "bash", input: { command } } : undefined;
}

function readCall(prompt: string, tools: readonly string[]): MockCall | undefined {
  const file = fileOf(prompt);
  if (file && tools.includes("read_file")) return { name: "read_file", input: { path: file } };
  const quoted = /["'`]([^"'`]+)["'`]|\b(TODO|FIXME)\b/.exec(prompt);
  const pattern = quoted?.[1] ?? quoted?.[2];
  if (pattern && tools.includes("grep")) return { name: "grep", input: { pattern } };
  if (tools.includes("list_files")) return { name: "list_files", input: { path: "." } };
  if (tools.includes("bash")) return { name: "bash", input: { command: "ls" } };
  return undefined;
}

/**
 * The words a change replaces and their replacement: "change A to B", "replace A with B",
 * "rename A to B" (quotes around either taken off), the file named taken out first.
 */
function replacementOf(prompt: string, path: string): { from: string; to: string } | undefined {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const without = prompt
    .replace(new RegExp(`\\s*\\b(?:in|of|inside|within)\\s+(?:the\\s+file\\s+)?${escaped}`, "i"), "")
    .replace(new RegExp(`${escaped}\\s*[:,]?`), "")
    .trim();
  const match = /\b(?:change|replace|rename|turn|update)\s+(.+?)\s+(?:to|with|into|by)\s+(.+?)[.!]?$/i.exec(
    without,
  );
  if (!match) return undefined;
  const from = unquoted(match[1]!);
  const to = unquoted(match[2]!);
  return from === "" ? undefined : { from, to };
}

/**
 * What a write puts in the file: the text the prompt gives ("that says hello", "containing …",
 * a quoted text), else a line saying the mock model wrote it for the prompt. Ends with a newline.
 */
export function contentOf(prompt: string, path: string): string {
  const said = /\b(?:that|which)\s+(?:says?|reads?|contains?)\s+(.+?)[.!]?$/i.exec(prompt)?.[1];
  const given = /\b(?:saying|containing|with the (?:text|words?|line|content))\s+(.+?)[.!]?$/i.exec(
    prompt,
  )?.[1];
  const quoted = /["“]([^"”]+)["”]/.exec(prompt)?.[1];
  const text = said ?? given ?? (quoted !== undefined && quoted !== path ? quoted : undefined);
  if (text !== undefined) return `${unquoted(text)}\n`;
  return `Written by the mock model (offline) for: ${prompt}\n`;
}

function unquoted(text: string): string {
  return text.trim().replace(/^["'`“]([\s\S]*)["'`”]$/, "$1");
}
