/**
 * Issue 17: the built CLI, run against the mock server, never prints the API key nor stores or
 * sends it — even when a tool reads it from a `.env` of the folder, and in `--json` mode where every
 * message is printed.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing/index";
import { cleanEnvironment, ensureBuiltCli, runCli, scratchFolder } from "./helpers";

/** A key that does not look like an Anthropic key: only the configured secret can redact it. */
const KEY = "tenant-7f3a9c-credential-5b21d8e4f0";

describe("agent-lattice and the API key", () => {
  let server: MockAnthropicServer;
  beforeAll(ensureBuiltCli, 300_000);
  beforeEach(async () => {
    server = await startMockAnthropicServer();
    server.enqueue(
      { content: [{ type: "tool_use", id: "r", name: "read_file", input: { path: ".env" } }] },
      { content: "Read it." },
    );
  });
  afterEach(() => server.close());

  it.each([[["--json"]], [[]]])(
    "a .env holding the key read by read_file: not printed, stored or sent (%j)",
    async (mode) => {
      const folder = scratchFolder({ ".env": `ANTHROPIC_API_KEY=${KEY}\nPORT=8080\n` });
      try {
        const session = path.join(folder.root, "session.jsonl");
        const run = await runCli(
          ["--base-url", server.url, "--tools", "read", "--session", session, ...mode, "Read .env"],
          { env: cleanEnvironment({ ANTHROPIC_API_KEY: KEY }), cwd: folder.root },
        );
        expect(run.code).toBe(0);
        expect(run.stdout).toContain("Read it.");
        expect(run.stdout + run.stderr).not.toContain(KEY);
        expect(readFileSync(session, "utf8")).not.toContain(KEY);
        const sent = JSON.stringify(server.requests[1]!.body.messages);
        expect(sent).not.toContain(KEY);
        expect(sent).toContain("ANTHROPIC_API_KEY=[redacted]");
        expect(sent).toContain("PORT=8080");
      } finally {
        folder.remove();
      }
    },
  );

  it.each([[["--json"]], [[]]])(
    "a key split across two text blocks of the answer: neither part printed or stored (%j)",
    async (mode) => {
      const [head, tail] = [KEY.slice(0, 14), KEY.slice(14)];
      const split = await startMockAnthropicServer();
      split.enqueue({
        content: [
          { type: "text", text: `The key is ${head}` },
          { type: "text", text: `${tail} — keep it safe.` },
        ],
      });
      const folder = scratchFolder({});
      try {
        const session = path.join(folder.root, "session.jsonl");
        const run = await runCli(["--base-url", split.url, "--session", session, ...mode, "Show the key"], {
          env: cleanEnvironment({ ANTHROPIC_API_KEY: KEY }),
          cwd: folder.root,
        });
        expect(run.code).toBe(0);
        expect(run.stdout).toContain("keep it safe");
        const stored = readFileSync(session, "utf8");
        for (const surface of [run.stdout + run.stderr, stored]) {
          expect(surface).not.toContain(KEY);
          expect(surface).not.toContain(head);
          expect(surface).not.toContain(tail);
        }
        expect(stored).toContain("The key is [redacted]");
      } finally {
        folder.remove();
        await split.close();
      }
    },
  );
});
