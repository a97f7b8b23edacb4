/**
 * scripts/build-if-stale.mjs: `prepare` builds only the command (dist/cli/, seconds) for a
 * developer's own `npm install` / `npm ci` in the clone, and the whole package whenever npm is about
 * to ship it (`npm pack`, a git dependency, a folder installed with --install-links, a link);
 * `--cli` checks and builds the command alone. The whole-package side is exercised for real by
 * test/package/install-from-clone.test.ts (`npm pack` of a clone without dist/).
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, statSync, symlinkSync, utimesSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { isDevelopmentInstall } from "../../scripts/build-if-stale.mjs";
import { sharedTemporaryFolder } from "../support/temporary-folders";

const run = promisify(execFile);
const root = resolve(__dirname, "../..");

describe("isDevelopmentInstall: which `prepare` runs may build the command only", () => {
  const own = { npm_command: "install", INIT_CWD: root, npm_lifecycle_event: "prepare" };

  it("npm install and npm ci started in the clone's root", () => {
    expect(isDevelopmentInstall(own)).toBe(true);
    expect(isDevelopmentInstall({ ...own, npm_command: "ci" })).toBe(true);
    expect(isDevelopmentInstall({ ...own, INIT_CWD: `${root}/` })).toBe(true);
  });

  it("never when the package is being shipped or installed elsewhere", () => {
    // npm pack / npm publish
    expect(isDevelopmentInstall({ ...own, npm_command: "pack" })).toBe(false);
    expect(isDevelopmentInstall({ ...own, npm_command: "publish" })).toBe(false);
    // `npm install ../agent-lattice` from another project: the link's prepare runs with that project as INIT_CWD
    expect(isDevelopmentInstall({ ...own, INIT_CWD: resolve(root, "..") })).toBe(false);
    // a folder installed with --install-links, and the packing of a git dependency (npm's fetcher)
    expect(isDevelopmentInstall({ ...own, npm_package_resolved: `file:${root}` })).toBe(false);
    // the install npm runs inside a git dependency's clone before packing it
    expect(isDevelopmentInstall({ ...own, _PACOTE_NO_PREPARE_: "git+ssh://host/repo.git#abc" })).toBe(false);
    expect(isDevelopmentInstall({ ...own, _PACOTE_NO_PREPARE_: "" })).toBe(false);
    // anything not recognised builds the whole package
    expect(isDevelopmentInstall({ npm_command: "install" })).toBe(false);
    expect(isDevelopmentInstall({ ...own, INIT_CWD: "/no/such/folder" })).toBe(false);
    expect(isDevelopmentInstall({})).toBe(false);
  });
});

describe("a developer's npm install builds the command alone, and only once", () => {
  const scratch = sharedTemporaryFolder("lattice-prepare-");
  const clone = join(scratch, "agent-lattice");

  /** The files a build reads, as in a clone; node_modules linked. */
  function copyClone(): void {
    mkdirSync(clone);
    for (const file of ["src", "scripts", "package.json", "tsconfig.json", "tsup.config.ts"])
      cpSync(join(root, file), join(clone, file), { recursive: true });
    symlinkSync(join(root, "node_modules"), join(clone, "node_modules"), "dir");
  }

  async function prepare(env: Record<string, string>) {
    const {
      npm_command: _c,
      INIT_CWD: _i,
      npm_package_resolved: _r,
      _PACOTE_NO_PREPARE_: _p,
      ...base
    } = process.env;
    return run(process.execPath, ["scripts/build-if-stale.mjs", "--prepare"], {
      cwd: clone,
      env: { ...base, ...env },
      timeout: 300_000,
    });
  }

  it("builds dist/cli/ and no library entry; runs the demo; a second run builds nothing", async () => {
    copyClone();
    const first = await prepare({ npm_command: "install", INIT_CWD: clone });
    expect(first.stderr).toContain("building the command, dist/cli/ (dist/cli/main.js is missing)");
    expect(existsSync(join(clone, "dist/cli/main.js"))).toBe(true);
    expect(existsSync(join(clone, "dist/index.js"))).toBe(false);
    const built = statSync(join(clone, "dist/cli/main.js")).mtimeMs;

    const second = await prepare({ npm_command: "ci", INIT_CWD: clone });
    expect(second.stderr).toBe("");
    expect(statSync(join(clone, "dist/cli/main.js")).mtimeMs).toBe(built);

    const demo = await run(process.execPath, ["dist/cli/main.js", "--demo"], {
      cwd: clone,
      timeout: 120_000,
    });
    expect(demo.stderr).toMatch(/✓ done · 5 turns/);
    expect(demo.stdout).toContain("SUMMARY.md");
  }, 320_000);

  it("--cli rebuilds the command when a source changed, and the library is still reported missing", async () => {
    // The command built before a source changed: made older than every source, not by waiting.
    const past = new Date(statSync(join(clone, "src")).mtimeMs - 3_600_000);
    utimesSync(join(clone, "dist/cli/main.js"), past, past);
    const { stderr } = await run(process.execPath, ["scripts/build-if-stale.mjs", "--cli"], {
      cwd: clone,
      timeout: 300_000,
    });
    expect(stderr).toContain("building the command, dist/cli/ (the sources changed since the last build)");
    const { staleReason } = await import(join(clone, "scripts/build-if-stale.mjs"));
    expect(staleReason(true)).toBeUndefined();
    expect(staleReason(false)).toMatch(/^dist\/.* is missing$/);
  }, 320_000);
});
