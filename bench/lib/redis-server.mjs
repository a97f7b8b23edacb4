// A private `redis-server` on a free port for a benchmark (needs `redis-server` on PATH): no
// persistence, its own temporary directory, stopped with SIGKILL.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** A port nobody listens on now (the kernel's choice). */
export async function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts a private Redis; resolves with its `url` and `stop()` once it accepts connections. */
export async function startPrivateRedis() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "agent-lattice-bench-redis-"));
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir]);
  await new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`redis-server exited ${code}`)));
    createInterface({ input: child.stdout }).on("line", (line) => line.includes("Ready to accept") && resolve());
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      child.removeAllListeners("exit");
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
