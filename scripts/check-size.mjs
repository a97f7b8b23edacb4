#!/usr/bin/env node
/**
 * Checks the size rules of the sources: no .ts file under src/ over 400 lines, and no function,
 * method, accessor, constructor or arrow function over 80 lines (counted from its first line to its
 * last, both included; a function nested in another is checked on its own as well).
 *
 * It parses every file with the TypeScript compiler API — no type checking, so it takes a second —
 * and prints one line per offence, `file:line name length`, then exits 1. Clean: exits 0 silently.
 *
 * Usage: `npm run size` (or `node scripts/check-size.mjs`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** The limits, in lines. */
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const sourceRoot = join(root, "src");

main();

function main() {
  const offences = [];
  for (const path of typescriptFiles(sourceRoot)) {
    offences.push(...checkFile(path));
  }
  if (offences.length === 0) return;
  for (const offence of offences) {
    console.log(`${offence.file}:${offence.line} ${offence.name} ${offence.length}`);
  }
  console.error(
    `\n${offences.length} over the limits (files ≤ ${MAX_FILE_LINES} lines, functions ≤ ${MAX_FUNCTION_LINES} lines).`,
  );
  process.exitCode = 1;
}

/** Every .ts file under `directory`, in a stable (sorted) order. */
function typescriptFiles(directory) {
  const files = [];
  const byName = (a, b) => a.name.localeCompare(b.name);
  const entries = readdirSync(directory, { withFileTypes: true }).sort(byName);
  for (const entry of entries) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...typescriptFiles(path));
    else if (entry.isFile() && entry.name.endsWith(".ts")) files.push(path);
  }
  return files;
}

/** The offences of one file: its own length, then every function too long, in source order. */
function checkFile(path) {
  const text = readFileSync(path, "utf8");
  const file = relative(root, path);
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const offences = [];
  const fileLines = source.getLineAndCharacterOfPosition(text.length).line + (text.endsWith("\n") ? 0 : 1);
  if (fileLines > MAX_FILE_LINES) offences.push({ file, line: 1, name: "(file)", length: fileLines });
  const visit = (node) => {
    if (isFunctionLike(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = last - first + 1;
      if (length > MAX_FUNCTION_LINES) {
        offences.push({ file, line: first + 1, name: functionName(node), length });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return offences;
}

/** A node with a body of its own: declarations, expressions, methods, accessors, constructors. */
function isFunctionLike(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** A readable name: the declared one, else what the function is assigned to, else `(anonymous)`. */
function functionName(node) {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (node.name) return node.name.getText();
  const parent = node.parent;
  const named =
    ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent);
  if (named) return parent.name.getText();
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return "(anonymous)";
}
