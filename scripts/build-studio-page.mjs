#!/usr/bin/env node
/**
 * Builds the studio page (src/studio/page) into dist/studio-page: index.html, app.js (the page's
 * TypeScript and uPlot, bundled and minified by esbuild) and app.css (ours and uPlot's). Run by
 * tsup after the library build; tests call `buildStudioPage()` when they need the page.
 */
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pageSource = join(root, "src/studio/page");

/** Builds the page into `outDir` (default dist/studio-page). */
export async function buildStudioPage(outDir = join(root, "dist/studio-page")) {
  await mkdir(outDir, { recursive: true });
  await build({
    entryPoints: [join(pageSource, "main.ts")],
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2022",
    outfile: join(outDir, "app.js"),
    legalComments: "none",
    logLevel: "warning",
  });
  const require = createRequire(import.meta.url);
  const uplotCss = await readFile(join(dirname(require.resolve("uplot")), "uPlot.min.css"), "utf8");
  const ownCss = await readFile(join(pageSource, "app.css"), "utf8");
  await writeFile(join(outDir, "app.css"), `${uplotCss}\n${ownCss}`);
  await copyFile(join(pageSource, "index.html"), join(outDir, "index.html"));
  return outDir;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildStudioPage();
}
