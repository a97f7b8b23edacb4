/**
 * The hint for a command run from a clone whose `dist/` holds only the command: a developer's
 * `npm install` builds `dist/cli/` alone (scripts/build-if-stale.mjs), and the parts loaded at run
 * time by the package's own subpath (`agent-lattice/mcp`, `agent-lattice/skills/files`) are missing
 * until `npm run build`.
 * @module
 */
import { dirname, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The `dist/` folder this command was built into (the parent of `dist/cli/`). */
function ownDist(): string {
  return dirname(dirname(fileURLToPath(import.meta.url)));
}

/**
 * What to add to the message of `error` when it is a module of this package's own `dist/` that was
 * not built: `undefined` for any other error.
 */
export function unbuiltEntryHint(error: unknown, dist: string = ownDist()): string | undefined {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND")
    return undefined;
  const missing = /Cannot find module '([^']+)'/.exec(error.message)?.[1];
  if (missing === undefined || !missing.startsWith(dist + sep)) return undefined;
  return "this clone's dist/ has only the command (`npm install` builds it alone): run `npm run build` for the whole package";
}
