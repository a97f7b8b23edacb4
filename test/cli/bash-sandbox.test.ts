/**
 * `--tools bash` runs its commands in the bubblewrap sandbox when `bwrap` works, and says which
 * mode it runs in. CI installs bubblewrap; Linux only.
 */
import { chownSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing/index";
import { cleanEnvironment, DUMMY_KEY, ensureBuiltCli, runCli, scratchFolder } from "./helpers";

/** The command the model runs: inside the sandbox, PID 1 is bwrap and the host's /etc/shadow is absent. */
const PROBE =
  "echo pid1=$(cat /proc/1/comm); test -e /etc/shadow && echo shadow-visible || echo shadow-absent";

describe.skipIf(process.platform !== "linux")("agent-lattice --tools bash: the sandbox", () => {
  let server: MockAnthropicServer;
  beforeAll(ensureBuiltCli, 300_000);
  beforeEach(async () => {
    server = await startMockAnthropicServer();
    server.enqueue(
      { content: [{ type: "tool_use", id: "b", name: "bash", input: { command: PROBE } }] },
      { content: "Done." },
    );
  });
  afterEach(() => server.close());

  it("runs commands sandboxed where bwrap works, and says so", async () => {
    const folder = scratchFolder();
    // As root, the sandbox runs as the folder's owner (never as root): give it one.
    if (process.getuid?.() === 0) chownSync(folder.root, 64_101, 64_101);
    try {
      const run = await runCli(["--base-url", server.url, "--tools", "bash", "Probe"], {
        env: cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY }),
        cwd: folder.root,
      });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(
        "bash: sandboxed (bubblewrap) · only this folder is visible and writable, no network",
      );
      const result = JSON.stringify(server.requests[1]!.body.messages.at(-1));
      expect(result).toContain("pid1=bwrap");
      expect(result).toContain("shadow-absent");
    } finally {
      folder.remove();
    }
  });

  it("without bwrap, runs them unconfined and says so plainly", async () => {
    const folder = scratchFolder();
    // A PATH with bash and the few programs the probe uses, but no bwrap.
    const bin = mkdtempSync(path.join(tmpdir(), "lattice-cli-no-bwrap-"));
    for (const program of ["bash", "cat", "test"])
      symlinkSync(`/usr/bin/${program}`, path.join(bin, program));
    try {
      // As root, running commands unconfined is asked for, never a fallback (bash-as-root.test.ts).
      const asRoot = process.getuid?.() === 0 ? ["--unconfined-bash"] : [];
      const run = await runCli(["--base-url", server.url, "--tools", "bash", ...asRoot, "Probe"], {
        env: { ...cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY }), PATH: bin },
        cwd: folder.root,
      });
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(
        /bash: NOT sandboxed( \(--unconfined-bash\))? · commands run with your privileges/,
      );
      if (asRoot.length === 0)
        expect(run.stderr).toContain("install bubblewrap (apt-get install bubblewrap)");
      expect(JSON.stringify(server.requests[1]!.body.messages.at(-1))).not.toContain("pid1=bwrap");
    } finally {
      rmSync(bin, { recursive: true, force: true });
      folder.remove();
    }
  });
});
