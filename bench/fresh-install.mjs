#!/usr/bin/env node
// A fresh clone's first hour, timed: for each commit given (default: HEAD), a clone into a scratch
// folder, `npm install` with an empty npm cache of its own (`--cache <scratch>/npm-cache`: what a
// new machine has; the machine's own cache is left alone), then `npm run demo`. Prints the wall time
// of each, the phases of the install from npm's timing log — resolution and download/unpack
// ("reify" before the scripts), the install scripts (better-sqlite3's compile, when it is there),
// the `prepare` build — and the load average. Commits run back to back, in the order given, so
// that a before/after pair shares the machine's conditions as far as one can.
//
//   node bench/fresh-install.mjs 0209628 HEAD      # before, after
//   node bench/fresh-install.mjs --keep HEAD       # keep the clone (prints where)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";

const args = process.argv.slice(2);
const keep = args.includes("--keep");
const commits = args.filter((arg) => !arg.startsWith("--"));
const repo = spawnSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).stdout.trim();

function timed(command, commandArgs, cwd) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, commandArgs, { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) {
    throw new Error(`${command} ${commandArgs.join(" ")} failed (${result.status}):\n${result.stderr.slice(-3000)}`);
  }
  return { seconds, stdout: result.stdout, stderr: result.stderr };
}

/** The phases of one install, in seconds, from the timing lines of npm's debug log. */
function phases(cache) {
  const logs = join(cache, "_logs");
  const log = readdirSync(logs).find((name) => name.endsWith("-debug-0.log"));
  const text = log ? readFileSync(join(logs, log), "utf8") : "";
  const ms = (name) => {
    const match = text.match(new RegExp(`timing ${name} Completed in (\\d+)ms`));
    return match ? Number(match[1]) / 1000 : Number.NaN;
  };
  const install = ms("command:install");
  const reify = ms("reify");
  const scripts = ms("build");
  return {
    download: reify - scripts, // resolution, fetch, unpack
    scripts, // the dependencies' install scripts
    prepare: install - reify, // the package's own prepare (the build), and the audit of the tree
    packages: (text.match(/^\d+ timing reifyNode:/gm) ?? []).length,
  };
}

function measure(commit) {
  const scratch = mkdtempSync(join(tmpdir(), "lattice-fresh-install-"));
  const clone = join(scratch, "agent-lattice");
  const cache = join(scratch, "npm-cache");
  try {
    timed("git", ["clone", "-q", repo, clone], scratch);
    timed("git", ["checkout", "-q", "--detach", commit], clone);
    const sha = timed("git", ["rev-parse", "--short", "HEAD"], clone).stdout.trim();
    const loadBefore = loadavg()[0];
    const install = timed("npm", ["install", "--cache", cache, "--no-audit", "--no-fund", "--timing"], clone);
    const demo = timed("npm", ["run", "demo"], clone);
    const row = {
      commit: sha,
      install: install.seconds,
      demo: demo.seconds,
      total: install.seconds + demo.seconds,
      ...phases(cache),
      load: `${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}`,
    };
    if (keep) console.error(`kept: ${clone}`);
    return row;
  } finally {
    if (!keep) rmSync(scratch, { recursive: true, force: true });
  }
}

const f = (seconds) => `${seconds.toFixed(1)} s`;
console.log("| commit | install | demo | total | download | install scripts | prepare | packages | load (1 min) |");
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const commit of commits.length > 0 ? commits : ["HEAD"]) {
  const r = measure(commit);
  console.log(
    `| ${r.commit} | ${f(r.install)} | ${f(r.demo)} | ${f(r.total)} | ${f(r.download)} | ${f(r.scripts)} | ${f(r.prepare)} | ${r.packages} | ${r.load} |`,
  );
}
