/**
 * `agent-lattice studio`: its arguments, its help, the URL it prints (with a token, never a
 * store's password), the warning for a non-loopback host, and a clean stop.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { buildStudioPage } from "../../scripts/build-studio-page.mjs";
import type { CliIo } from "../../src/cli/io";
import { parseStudioArguments, runStudioCommand, STUDIO_USAGE } from "../../src/cli/studio-command";
import { createJsonlHistoryStore } from "../../src/index";

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

function captureIo(cwd: string) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk) => (out += chunk));
  stderr.on("data", (chunk) => (err += chunk));
  const io = { stdin: new PassThrough(), stdout, stderr, env: {}, cwd } as unknown as CliIo;
  return { io, out: () => out, err: () => err };
}

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 20_000) throw new Error("timed out waiting for the studio to start");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("agent-lattice studio", () => {
  it("parses its flags and refuses unknown ones", () => {
    expect(parseStudioArguments(["--store", "a", "--store=sqlite:b.db", "--port", "0", "--open"])).toEqual({
      stores: ["a", "sqlite:b.db"],
      port: 0,
      open: true,
      help: false,
    });
    expect(() => parseStudioArguments(["--port", "99999"])).toThrow(/port/);
    expect(() => parseStudioArguments(["--verbose"])).toThrow("Unknown option '--verbose'");
    expect(() => parseStudioArguments(["--store"])).toThrow("Option '--store <value>' argument missing");
    expect(() => parseStudioArguments(["--store="])).toThrow("--store needs a value.");
    expect(() => parseStudioArguments(["history.jsonl"])).toThrow("Unexpected argument 'history.jsonl'");
    expect(() => parseStudioArguments(["--open=yes"])).toThrow(/does not take an argument/);
    expect(STUDIO_USAGE).toContain("--store <location>");
  });

  it("serves the stores it is given, prints the URL with its token, warns for another host, stops cleanly", async () => {
    await buildStudioPage();
    const folder = await mkdtemp(join(tmpdir(), "studio-cli-"));
    folders.push(folder);
    await createJsonlHistoryStore({ path: join(folder, "chat.jsonl") }).replace([
      { role: "user", content: "hi" },
    ]);
    const { io, out, err } = captureIo(folder);
    const stop = new AbortController();
    const running = runStudioCommand(["--store", ".", "--host", "0.0.0.0"], io, stop.signal);
    await until(() => out().includes("Studio: "));
    const url = /Studio: (\S+)/.exec(out())![1]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
    expect(err()).toContain("Warning: the studio listens on 0.0.0.0");
    const token = new URL(url).searchParams.get("token")!;
    const list = await fetch(new URL("/api/conversations", url), { headers: { "x-studio-token": token } });
    expect(((await list.json()) as { items: unknown[] }).items).toHaveLength(1);
    stop.abort();
    expect(await running).toBe(0);
  });

  it("without --store and without .agent-sessions, says what to do", async () => {
    const folder = await mkdtemp(join(tmpdir(), "studio-cli-empty-"));
    folders.push(folder);
    const { io, err } = captureIo(folder);
    expect(await runStudioCommand([], io, new AbortController().signal)).toBe(2);
    expect(err()).toContain("--store");
  });
});
