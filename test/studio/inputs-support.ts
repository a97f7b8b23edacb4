/**
 * What the tests of MCP questions in the studio share: the questions server, a form question with
 * every kind of field, the scripted call that asks it, the server's log, and the API as a page calls it.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { ScriptedStep } from "../../src/testing/scripted-client";

/** test/fixtures/mcp/questions-server.mjs: a real MCP server whose tools ask questions. */
export const QUESTIONS_SERVER = fileURLToPath(
  new URL("../fixtures/mcp/questions-server.mjs", import.meta.url),
);

/** A form question with every kind of field: text, number, integer, boolean, a choice; defaults and required ones. */
export const PROFILE_QUESTION = {
  message: "Tell us about the deployment",
  requestedSchema: {
    type: "object",
    properties: {
      team: { type: "string", title: "Team", description: "Who owns it", minLength: 2 },
      replicas: { type: "integer", title: "Replicas", minimum: 1, maximum: 9, default: 3 },
      budget: { type: "number", title: "Budget (USD)" },
      public: { type: "boolean", title: "Public", default: false },
      region: { type: "string", title: "Region", enum: ["eu", "us"], default: "eu" },
    },
    required: ["team", "replicas"],
  },
};

export function callAsk(question: object, id = "toolu_ask"): ScriptedStep {
  return { content: [{ type: "tool_use", id, name: "mcp__questions__ask", input: question }] };
}

export async function logged(log: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(log, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** The studio's API as a page calls it: token in the header, the studio's own Host. */
export function client(studioUrl: string) {
  const url = new URL(studioUrl);
  const token = url.searchParams.get("token")!;
  return {
    get: async (path: string) => {
      const response = await fetch(new URL(path, url), { headers: { "x-studio-token": token } });
      return { status: response.status, body: (await response.json()) as any };
    },
    post: async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(new URL(path, url), {
        method: "POST",
        headers: { "x-studio-token": token, "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json().catch(() => ({}))) as any };
    },
  };
}
