/**
 * Bundles a TypeScript entry into one runnable ES module for a child process, with esbuild (it
 * comes with tsup, our build tool). Packages stay external: write the bundle inside the repository
 * when the child must resolve them from its node_modules, outside it to check it works without.
 */
import { build } from "esbuild";

/** Writes `entry` (an absolute path), bundled for Node 20 as ESM, to `outfile`. */
export async function bundleForNode(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "error",
  });
}
