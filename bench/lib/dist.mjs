// Loads agent-lattice from its build folder (default ../dist; AGENT_LATTICE_DIST points elsewhere).
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The build folder the benchmark measures. */
export const distFolder = resolve(
  process.env.AGENT_LATTICE_DIST ?? fileURLToPath(new URL("../../dist", import.meta.url)),
);

/** Imports one entry of the build, e.g. `index.js` or `testing.js`. */
export function importFromDist(file) {
  return import(pathToFileURL(join(distFolder, file)).href);
}
