import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { mockServerPerTest } from "../support/mock-server";
import {
  cleanEnvironment,
  DUMMY_KEY,
  ensureBuiltCli,
  runCli,
  scratchFolder,
  withoutCacheMarkers,
} from "./helpers";

const env = () => cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY });

describe("agent-lattice --session <file>", () => {
  beforeAll(ensureBuiltCli, 300_000);
  const server = mockServerPerTest();

  it("keeps the conversation in a JSONL file, and a second run resumes it", async () => {
    const folder = scratchFolder();
    const session = path.join(folder.root, "sessions", "chat.jsonl");
    server.enqueue({ content: "Nice to meet you, Ada." }, { content: "Your name is Ada." });
    try {
      const first = await runCli(["--base-url", server.url, "--session", session, "My name is Ada."], {
        env: env(),
      });
      expect(first.code).toBe(0);
      expect(first.stderr).not.toContain("resuming");
      const stored = readFileSync(session, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(stored.map((message) => message.role)).toEqual(["user", "assistant"]);

      const second = await runCli(["--base-url", server.url, "--session", session, "What is my name?"], {
        env: env(),
      });
      expect(second.code).toBe(0);
      expect(second.stdout).toBe("Your name is Ada.\n");
      expect(second.stderr).toContain(`↺ resuming ${session} (2 messages)`);
      expect(withoutCacheMarkers(server.requests[1]!.body.messages)).toEqual([
        { role: "user", content: "My name is Ada." },
        { role: "assistant", content: [{ type: "text", text: "Nice to meet you, Ada." }] },
        { role: "user", content: "What is my name?" },
      ]);
      expect(readFileSync(session, "utf8").trim().split("\n")).toHaveLength(4);
      expect(readFileSync(session, "utf8")).not.toContain(DUMMY_KEY);
    } finally {
      folder.remove();
    }
  });

  it("a session file that cannot be written fails the run with exit 1", async () => {
    const folder = scratchFolder({ "taken.txt": "a file, not a folder" });
    server.enqueue({ content: "unused" });
    try {
      const run = await runCli(
        ["--base-url", server.url, "--session", path.join(folder.root, "taken.txt", "chat.jsonl"), "Hi"],
        { env: env() },
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/agent-lattice: .*(ENOTDIR|not a directory)/i);
    } finally {
      folder.remove();
    }
  });
});
