import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createJsonlHistoryStore,
  DEFAULT_COMPACTION_PROMPT,
  defineTool,
  isWellFormedHistory,
  type ModelMessage,
  type ModelRequest,
  type SDKResultMessage,
} from "../../src/index";
import { createScriptedClient, type ScriptedResponse } from "../../src/testing/index";
import { sharedTemporaryFolder } from "../support/temporary-folders";

const TASK =
  "TASK-7F3A: migrate every module of the billing service from callbacks to async/await, keeping the public API unchanged.";
const TASK_LINE = /TASK-7F3A: [^\n"\\<]*/;
const TURNS = 300;
const DOCUMENT_CHARS = 20_000;
const WINDOW_TOKENS = 200_000;
const MODEL = "claude-sonnet-4-6";

/** A 20 KB document whose number can be read back from its first line. */
function documentNumbered(number: number): string {
  const head = `document ${number} of the billing service\n`;
  return head + FILLER.slice(0, DOCUMENT_CHARS - head.length);
}
const FILLER = "export async function settleInvoice(id) { return ledger.post(id); }\n".repeat(
  Math.ceil(DOCUMENT_CHARS / 60),
);

const readDocument = defineTool({
  name: "read_document",
  description: "Read one document of the billing service",
  readOnly: true,
  inputSchema: z.object({ number: z.number().int() }),
  execute: ({ number }) => documentNumbered(number),
});

/** The text the request's messages carry (what a tokenizer would see, give or take the JSON). */
function requestCharacters(request: ModelRequest): string {
  return JSON.stringify(request.messages) + (typeof request.system === "string" ? request.system : "");
}

function isCompactionRequest(request: ModelRequest): boolean {
  const [only] = request.messages;
  return (
    request.messages.length === 1 &&
    only !== undefined &&
    typeof only.content !== "string" &&
    only.content.some((block) => block.type === "text" && block.text === DEFAULT_COMPACTION_PROMPT)
  );
}

/** What the scripted model saw and did. */
interface ModelLog {
  mainRequests: number;
  compactionRequests: number;
  maxReportedInputTokens: number;
  overflows: number;
  requestsWithoutTask: number;
  malformedRequests: number;
  summaries: string[];
}

/**
 * The scripted model. Main turns: read the next one or two documents (three at a time every 25th
 * turn), then answer after {@link TURNS} turns. Summaries: quote the task line and the highest
 * document number found in the transcript, as a model instructed to keep the user's requests and the
 * current state would.
 */
function createSoakModel(log: ModelLog) {
  let nextDocument = 1;
  return createScriptedClient(
    (request): ScriptedResponse => {
      const text = requestCharacters(request);
      const tokens = Math.ceil(text.length / 4);
      const usage = {
        input_tokens: Math.ceil(tokens / 10),
        cache_read_input_tokens: tokens - Math.ceil(tokens / 10),
        output_tokens: 120,
      };
      if (isCompactionRequest(request)) {
        log.compactionRequests += 1;
        const task = text.match(TASK_LINE)?.[0] ?? "(no task found)";
        const numbers = [...text.matchAll(/document (\d+) of the billing service/g)].map((match) =>
          Number(match[1]),
        );
        const summary = `The user's request, verbatim: ${task}\nState: documents up to ${Math.max(0, ...numbers)} have been read and converted.\nNext: read the next document.`;
        log.summaries.push(summary);
        return { content: summary, usage: { ...usage, output_tokens: 80 } };
      }
      log.mainRequests += 1;
      log.maxReportedInputTokens = Math.max(log.maxReportedInputTokens, tokens);
      if (!text.includes("TASK-7F3A")) log.requestsWithoutTask += 1;
      if (!isWellFormedHistory(request.messages)) log.malformedRequests += 1;
      if (tokens > WINDOW_TOKENS) {
        log.overflows += 1;
        return { content: "", stop_reason: "model_context_window_exceeded", usage };
      }
      if (log.mainRequests > TURNS) return { content: "All modules are migrated.", usage };
      const count = log.mainRequests % 25 === 0 ? 3 : log.mainRequests % 2 === 0 ? 2 : 1;
      const calls = Array.from({ length: count }, () => {
        const number = nextDocument++;
        return { type: "tool_use" as const, id: `toolu_${number}`, name: "read_document", input: { number } };
      });
      return { content: calls, usage };
    },
    { record: false, emitEvents: false },
  );
}

const folder = sharedTemporaryFolder("lattice-soak-");

async function reload(path: string): Promise<ModelMessage[]> {
  const store = createJsonlHistoryStore({ path, failOnError: true });
  try {
    return await store.load();
  } finally {
    await store.close();
  }
}

function firstText(message: ModelMessage | undefined): string {
  if (!message) return "";
  if (typeof message.content === "string") return message.content;
  return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("compaction soak", () => {
  it("a 300-turn task with 20 KB tool results compacts repeatedly, stays in the window and keeps the task", async () => {
    const log: ModelLog = {
      mainRequests: 0,
      compactionRequests: 0,
      maxReportedInputTokens: 0,
      overflows: 0,
      requestsWithoutTask: 0,
      malformedRequests: 0,
      summaries: [],
    };
    const path = join(folder, "billing.jsonl");
    const store = createJsonlHistoryStore({ path, failOnError: true });
    const agent = createAgent({
      model: MODEL,
      client: createSoakModel(log),
      tools: [readDocument],
      historyStore: store,
      maxTurns: TURNS + 20,
      autoCompact: true,
    });

    let compactions = 0;
    let result: SDKResultMessage | undefined;
    const unexpected: string[] = [];
    for await (const message of agent.query(TASK)) {
      if (message.type === "result") result = message;
      if (message.type !== "system" || message.subtype === "init") continue;
      if (message.subtype !== "compaction") {
        unexpected.push(message.subtype);
        continue;
      }
      compactions += 1;
      // The query is paused at this message: compare the store on disk with the live history.
      const history = await agent.getHistory();
      expect(await reload(path)).toEqual(history);
      expect(isWellFormedHistory(history)).toBe(true);
      expect(firstText(history[0])).toContain(TASK);
      expect(message.compacted_messages).toBeGreaterThan(0);
      expect(message.trigger).toBe("auto");
    }

    expect(unexpected).toEqual([]);
    expect(result?.subtype).toBe("success");
    expect(result?.result).toBe("All modules are migrated.");
    expect(log.mainRequests).toBe(TURNS + 1);
    expect(result?.num_turns).toBe(TURNS + 1);
    expect(compactions).toBeGreaterThanOrEqual(10);
    expect(log.compactionRequests).toBe(compactions);
    expect(log.overflows).toBe(0);
    expect(log.maxReportedInputTokens).toBeLessThanOrEqual(WINDOW_TOKENS);
    expect(log.requestsWithoutTask).toBe(0);
    expect(log.malformedRequests).toBe(0);
    // Summaries of summaries still quote the task word for word, and the state moves forward.
    for (const summary of log.summaries) expect(summary).toContain(TASK);
    const progress = log.summaries.map((summary) => Number(summary.match(/documents up to (\d+)/)![1]));
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBeGreaterThan(300);

    const history = await agent.getHistory();
    expect(isWellFormedHistory(history)).toBe(true);
    expect(await reload(path)).toEqual(history);
    await agent.close();
  }, 60_000);
});
