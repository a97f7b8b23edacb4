/**
 * Issue 17: bad options are InvalidOptionErrors naming the option (never a raw TypeError, never
 * accepted), and unknown option names are refused by every factory, naming the closest known one.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { AGENT_OPTION_NAMES } from "../../src/agent/option-shapes";
import {
  createAgent,
  createAnthropicClient,
  createJsonlHistoryStore,
  InvalidOptionError,
} from "../../src/index";
import { createPostgresHistoryStore } from "../../src/integrations/stores/postgres";
import { createRedisHistoryStore } from "../../src/integrations/stores/redis";
import { createSqliteHistoryStore } from "../../src/integrations/stores/sqlite";
import { closestName, editDistance } from "../../src/shared/known-options";
import { createScriptedClient } from "../../src/testing/index";
import { createWorkspaceTools } from "../../src/workspace-tools/index";

const root = mkdtempSync(join(tmpdir(), "option-names-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function thrown(work: () => unknown): Error {
  try {
    work();
  } catch (error) {
    return error as Error;
  }
  throw new Error("it did not throw");
}

const base = { model: "claude-sonnet-4-6", client: createScriptedClient([]) };

describe("createAgent's bad options", () => {
  it.each([
    ["tools", { tools: {} }],
    ["outputSchema", { outputSchema: 42 }],
    ["historyStore", { historyStore: {} }],
    ["historyStore", { historyStore: { load: async () => [] } }],
    ["systemPrompt", { systemPrompt: 42 }],
    ["fallbackModel", { fallbackModel: "" }],
  ])("`%s` of the wrong shape: an InvalidOptionError naming it", (name, extra) => {
    const error = thrown(() => createAgent({ ...base, ...(extra as object) } as never));
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error.message).toContain(`\`${name}\``);
  });
});

describe("unknown option names", () => {
  it.each([
    ["createAgent", () => createAgent({ ...base, maxTurn: 3 } as never), "maxTurns"],
    ["createAgent", () => createAgent({ ...base, systemPromt: "x" } as never), "systemPrompt"],
    ["createWorkspaceTools", () => createWorkspaceTools({ root, bashSandbx: true } as never), "bashSandbox"],
    [
      "createJsonlHistoryStore",
      () => createJsonlHistoryStore({ path: join(root, "a.jsonl"), failOnErorr: true } as never),
      "failOnError",
    ],
    [
      "createSqliteHistoryStore",
      () => createSqliteHistoryStore({ conversationId: "c", tablename: "t" } as never),
      "tableName",
    ],
    [
      "createPostgresHistoryStore",
      () => createPostgresHistoryStore({ conversationId: "c", conectionString: "x" } as never),
      "connectionString",
    ],
    [
      "createRedisHistoryStore",
      () => createRedisHistoryStore({ conversationId: "c", keyprefix: "x" } as never),
      "keyPrefix",
    ],
    [
      "createAnthropicClient",
      () => createAnthropicClient({ apiKey: "k", baseUrl: "http://x" } as never),
      "baseURL",
    ],
  ])("%s refuses a misspelt option, naming the closest (%#)", (factory, create, closest) => {
    const error = thrown(create);
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error.message).toContain(factory);
    expect(error.message).toContain(`did you mean \`${closest}\`?`);
  });

  it("the model settings being added elsewhere are already known names", () => {
    for (const name of [
      "temperature",
      "topP",
      "topK",
      "stopSequences",
      "toolChoice",
      "parallelToolCalls",
      "thinking",
      "effort",
      "metadata",
      "serviceTier",
      "promptCaching",
      "extraBody",
    ])
      expect(AGENT_OPTION_NAMES).toContain(name);
    expect(() => createWorkspaceTools({ root, allowBash: true, bashSandbox: false })).not.toThrow();
  });

  it("any name one edit away from a known option is refused, naming that option (property)", () => {
    const known = AGENT_OPTION_NAMES.filter((name) => name.length > 6 && !name.startsWith("_"));
    fc.assert(
      fc.property(fc.constantFrom(...known), fc.nat(), (name, at) => {
        const index = at % name.length;
        const misspelt = name.slice(0, index) + name.slice(index + 1); // one letter dropped
        fc.pre(!(AGENT_OPTION_NAMES as readonly string[]).includes(misspelt));
        const error = thrown(() => createAgent({ ...base, [misspelt]: 1 } as never));
        expect(error).toBeInstanceOf(InvalidOptionError);
        const suggested = /did you mean `([^`]+)`/.exec(error.message)?.[1];
        expect(editDistance(misspelt.toLowerCase(), suggested!.toLowerCase())).toBeLessThanOrEqual(1);
      }),
    );
  });

  it("editDistance is the Levenshtein distance", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("bashSandbx", "bashSandbox")).toBe(1);
    expect(closestName("bashsandbox", ["allowBash", "bashSandbox"])).toBe("bashSandbox");
  });
});
