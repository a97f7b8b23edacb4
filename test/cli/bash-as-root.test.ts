/**
 * `--tools bash` run as root (a container's usual user): the sandbox runs commands as an
 * unprivileged user — the folder's owner, `--sandbox-user`, or nobody — never as root; a folder
 * that user cannot reach stops the command at start with what to do; without a usable sandbox the
 * command stops rather than run commands as root, unless `--unconfined-bash` asks for it. Runs
 * only as root on Linux (CI runs as root); the commands come from the `--mock` model.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanEnvironment, ensureBuiltCli, runCli } from "./helpers";

const asRoot = process.platform === "linux" && process.getuid?.() === 0;
const ID = "Run `id -u`";

describe.skipIf(!asRoot)("agent-lattice --tools bash as root", () => {
  const made: string[] = [];
  beforeAll(ensureBuiltCli, 300_000);
  afterEach(() => {
    for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  /** A 0700 folder of root's (as mkdtemp makes it) with `project` inside. */
  function closedParent(): { parent: string; project: string } {
    const parent = mkdtempSync(path.join(tmpdir(), "lattice-root-"));
    made.push(parent);
    const project = path.join(parent, "project");
    mkdirSync(project);
    return { parent, project };
  }

  const run = (args: string[], cwd: string, env = cleanEnvironment()) =>
    runCli(["--mock", "--tools", "bash", ...args], { env, cwd });

  it("a folder the sandbox user cannot reach stops the command at start, saying what to do", async () => {
    const { parent, project } = closedParent();
    const stopped = await run([ID], project);
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toContain("that user, nobody (uid 65534), cannot reach");
    expect(stopped.stderr).toContain(`(${parent} does not let it through)`);
    expect(stopped.stderr).toContain("chown -R <user>");
    expect(stopped.stderr).toContain("--sandbox-user <user>");
    expect(stopped.stderr).not.toContain("InvalidOptionError");
    expect(stopped.stdout).toBe("");

    // Made theirs — the folder chowned, the folder above searchable — it runs as that user.
    chownSync(project, 64_111, 64_111);
    const owned = await run([ID], project);
    expect(owned.stderr).toContain(`(${parent} does not let it through)`);
    chmodSync(parent, 0o711);
    const reached = await run([ID], project);
    expect(reached.code).toBe(0);
    expect(reached.stderr).toContain("bash: sandboxed (bubblewrap)");
    expect(reached.stderr).toContain("as uid 64111, not root");
    expect(reached.stdout).toMatch(/Here is what the tool returned:\n64111\n/);
  });

  it("--sandbox-user chooses the user; root is refused; a folder of root's is said to be read-only to it", async () => {
    const { parent, project } = closedParent();
    chmodSync(parent, 0o711);
    const readOnly = await run(["--sandbox-user", "64112", ID], project);
    expect(readOnly.code).toBe(0);
    expect(readOnly.stderr).toContain("as uid 64112, not root · the folder is read-only to that user");
    expect(readOnly.stderr).toContain(`chown -R 64112 ${project}`);
    expect(readOnly.stdout).toMatch(/returned:\n64112\n/);
    const named = await run(["--sandbox-user", "nobody", ID], project);
    expect(named.stdout).toMatch(/returned:\n65534\n/);
    for (const root of ["root", "0", "0:0"]) {
      const refused = await run(["--sandbox-user", root, ID], project);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("--sandbox-user cannot be root");
    }
    const unknown = await run(["--sandbox-user", "no-such-user-here", ID], project);
    expect(unknown.stderr).toContain('--sandbox-user: no user "no-such-user-here"');
  });

  it("without a usable sandbox it stops rather than run commands as root; --unconfined-bash asks for it", async () => {
    const { parent, project } = closedParent();
    // A PATH with bash and the programs the command uses, but no bwrap.
    const bin = path.join(parent, "bin");
    mkdirSync(bin);
    for (const program of ["bash", "id"]) symlinkSync(`/usr/bin/${program}`, path.join(bin, program));
    const env = { ...cleanEnvironment(), PATH: bin };
    const stopped = await run([ID], project, env);
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toContain("bash would run every command as root with nothing confining it");
    expect(stopped.stderr).toContain("apt-get install bubblewrap");
    expect(stopped.stderr).toContain("--unconfined-bash");
    const asked = await run(["--unconfined-bash", ID], project, env);
    expect(asked.code).toBe(0);
    expect(asked.stderr).toContain(
      "bash: NOT sandboxed (--unconfined-bash) · commands run with your privileges (root's)",
    );
    expect(asked.stdout).toMatch(/returned:\n0\n/);
  });
});
