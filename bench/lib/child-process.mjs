// Runs the scenario scripts in child processes of their own (fresh heap, clean RSS, no JIT state
// shared between contenders) and starts the mock server process.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** Absolute path of a file in bench/scenarios. */
export function scenarioScript(name) {
  return fileURLToPath(new URL(`../scenarios/${name}`, import.meta.url));
}

/** Lines a child wrote to stderr that are worth showing, with repeats and Node's hints dropped. */
function interestingLines(text) {
  const seen = new Set();
  return text
    .split("\n")
    .filter((line) => line.trim() && !line.includes("--trace-warnings") && !seen.has(line) && seen.add(line));
}

/**
 * Runs `node [nodeArguments] script [scriptArguments]` and resolves with the JSON object it printed
 * last on stdout. Rejects with the child's stderr when it fails or outlives `timeoutMs` (then it is
 * killed). Warnings it printed are returned as `warnings`.
 */
export function runChild(script, scriptArguments, { nodeArguments = [], env = process.env, timeoutMs = 300_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArguments, script, ...scriptArguments.map(String)], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`timed out after ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const lastLine = stdout.trim().split("\n").at(-1) ?? "";
      if (code === 0 && lastLine.startsWith("{")) {
        resolve({ ...JSON.parse(lastLine), warnings: interestingLines(stderr) });
        return;
      }
      const detail = interestingLines(stderr).slice(0, 12).join("\n") || `exit code ${code ?? signal}`;
      reject(new Error(detail));
    });
  });
}

/**
 * Starts ./scenarios/mock-server-process.mjs and resolves with its `url` and a `stop()` that ends
 * it (closing its stdin, then a kill as backstop).
 */
export function startMockServerProcess(env = process.env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [scenarioScript("mock-server-process.mjs")], {
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const lines = createInterface({ input: child.stdout });
    const failed = (code) => reject(new Error(`the mock server exited (${code}): ${stderr.trim()}`));
    child.once("exit", failed);
    lines.once("line", (line) => {
      child.off("exit", failed);
      const { url } = JSON.parse(line);
      resolve({
        url,
        stop: () =>
          new Promise((done) => {
            const backstop = setTimeout(() => child.kill("SIGKILL"), 5_000);
            child.once("exit", () => {
              clearTimeout(backstop);
              done();
            });
            child.stdin.end();
          }),
      });
    });
  });
}
