// The root entry loads only our own modules (issue 39): `import("agent-lattice")` and
// `require("agent-lattice")` from the build, each followed by `createAgent(...)`, in a fresh
// process each, must load no module from node_modules but the packages allowed in
// scripts/root-import-allow-list.json — today none. A third-party module the root needs is
// loaded lazily (`import()` where it is used) or goes behind an entry point of its own.
//   node scripts/check-root-import.mjs            (builds first when dist/ is stale, see build-if-stale)
// Prints what each form loaded; exits 1 when a module outside the allow-list was loaded.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const dist = join(root, "dist");
const allowList = JSON.parse(readFileSync(join(root, "scripts", "root-import-allow-list.json"), "utf8"));
const allowed = new Set(allowList.packages);

/** What the child does after loading the entry: the cheapest agent, no network. */
const CREATE_AGENT = 'm.createAgent({ model: "claude-sonnet-4-6", apiKey: "check-not-a-real-key" });';

/** The files (absolute paths) one form of the root entry loads, builtins left out. */
function loadedFiles(form) {
  const folder = mkdtempSync(join(tmpdir(), "agent-lattice-root-import-"));
  const listFile = join(folder, "loaded.txt");
  try {
    const script =
      form === "esm"
        ? `import { register } from "node:module";
register(${JSON.stringify(pathToFileURL(join(root, "scripts", "root-import-hook.mjs")).href)}, { data: { listFile: ${JSON.stringify(listFile)} } });
const m = await import(${JSON.stringify(pathToFileURL(join(dist, "index.js")).href)}); ${CREATE_AGENT}`
        : `const m = require(${JSON.stringify(join(dist, "index.cjs"))}); ${CREATE_AGENT}
require("node:fs").writeFileSync(${JSON.stringify(listFile)}, Object.keys(require.cache).join("\\n"));`;
    const child = spawnSync(process.execPath, form === "esm" ? ["--input-type=module", "-e", script] : ["-e", script], {
      cwd: folder,
      encoding: "utf8",
    });
    if (child.status !== 0) throw new Error(`the ${form} root entry failed to load:\n${child.stderr}`);
    return readFileSync(listFile, "utf8")
      .split("\n")
      .filter((line) => line.startsWith("file:") || line.startsWith(sep))
      .map((line) => (line.startsWith("file:") ? fileURLToPath(line) : line));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The package a file in node_modules belongs to (`zod`, `@scope/name`), or undefined for ours. */
function packageOf(file) {
  const parts = file.split(sep);
  const at = parts.lastIndexOf("node_modules");
  if (at === -1) return undefined;
  return parts[at + 1]?.startsWith("@") ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1];
}

let failed = false;
for (const form of ["esm", "cjs"]) {
  const files = [...new Set(loadedFiles(form))];
  const foreign = files.filter((file) => packageOf(file) !== undefined);
  const refused = foreign.filter((file) => !allowed.has(packageOf(file)));
  const ours = files.length - foreign.length;
  console.log(`${form}: ${files.length} modules loaded by the root entry + createAgent (${ours} ours, ${foreign.length} from node_modules)`);
  for (const file of refused) console.log(`  not allowed: ${packageOf(file)} (${file})`);
  if (refused.length > 0) failed = true;
}
if (failed) {
  console.error(
    "The root entry loaded third-party modules. Load them lazily where they are used, or put them behind an entry point of their own; see scripts/root-import-allow-list.json for the rare case a package must be allowed.",
  );
  process.exit(1);
}
