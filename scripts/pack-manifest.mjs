#!/usr/bin/env node
/**
 * The package.json that goes into the tarball carries no scripts: they name files of scripts/,
 * which the tarball does not ship, and npm 11 lists a `prepare` of an installed package as an
 * install script to review. `prepack` runs `--strip` after the build (package.json without
 * `scripts`, the original kept in `.tmp/package.json.before-pack`); `postpack` runs `--restore`.
 * npm reads the manifest again after `prepack`, so the stripped one is what it packs (and it then
 * runs no `prepare`: the build is done in `prepack`). A backup left by a pack that never reached
 * `postpack` is restored by the next `--strip` or `--restore`. Prints nothing on stdout
 * (`npm pack --json` writes its report there).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = join(root, "package.json");
const backup = join(root, ".tmp", "package.json.before-pack");

function restore() {
  if (existsSync(backup)) renameSync(backup, manifest);
}

function strip() {
  restore();
  const text = readFileSync(manifest, "utf8");
  const packageJson = JSON.parse(text);
  if (packageJson.scripts === undefined) return;
  mkdirSync(dirname(backup), { recursive: true });
  writeFileSync(backup, text);
  delete packageJson.scripts;
  writeFileSync(manifest, `${JSON.stringify(packageJson, null, 2)}\n`);
}

if (process.argv.includes("--strip")) strip();
else if (process.argv.includes("--restore")) restore();
else {
  console.error("usage: node scripts/pack-manifest.mjs --strip | --restore");
  process.exit(2);
}
