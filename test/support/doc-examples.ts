/**
 * The examples of a documentation page kept as compiled files: the page's ```ts blocks, and the
 * `example-<n>.ts` files that hold them word for word (package imports pointed at the sources).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * The ```ts blocks of a Markdown page, with the package imports rewritten as files three folders
 * below the repository root (`test/<area>/docs-examples/`) have them.
 */
export function typescriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) =>
    match[1]!
      .replaceAll('from "agent-lattice/testing"', 'from "../../../src/testing/index"')
      .replaceAll('from "agent-lattice"', 'from "../../../src/index"'),
  );
}

/** The `example-<n>.ts` files of `folder`, as full paths, in the order of their numbers. */
export function exampleFiles(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => /^example-\d+\.ts$/.test(name))
    .sort((a, b) => Number(a.match(/\d+/)![0]) - Number(b.match(/\d+/)![0]))
    .map((name) => join(folder, name));
}
