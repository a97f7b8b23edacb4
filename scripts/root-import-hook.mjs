// Module hooks for scripts/check-root-import.mjs: every module the ESM loader resolves is appended
// to the file named by `initialize`'s data (one URL a line), as it is resolved.
import { appendFileSync } from "node:fs";

let listFile;

/** Told the file to write to. */
export function initialize(data) {
  listFile = data.listFile;
}

/** Resolves as Node does, and writes down what it resolved to. */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(listFile, `${resolved.url}\n`);
  return resolved;
}
