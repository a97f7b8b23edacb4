/**
 * What the studio tests share: the page built once, headless Chromium (Debian's, through
 * playwright-core), and a conversation recorded over the mock Messages API — a tool call, a
 * subagent keeping its own history beside the parent's, and stored text that looks like HTML.
 */
import { type Browser, chromium } from "playwright-core";
import { z } from "zod";
import { buildStudioPage } from "../../scripts/build-studio-page.mjs";
import {
  createAgent,
  createAnthropicClient,
  defineSubagent,
  defineTool,
  type HistoryStore,
} from "../../src/index";
import type { MockAnthropicServer } from "../../src/testing/index";
import { toolUse } from "../support/content";

/** Where the system's Chromium is (never downloaded). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Text a stored prompt carries that would run if the page rendered it as HTML. */
export const HOSTILE_PROMPT = `Summarise <script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">`;
/** Tool output of the same kind. */
export const HOSTILE_OUTPUT = `<img src=y onerror="window.__pwned = 3"><b>bold?</b>`;

/** Builds the page into dist/studio-page and starts Chromium. */
export async function startBrowser(): Promise<Browser> {
  await buildStudioPage();
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

/** The lookup tool of the recorded conversation: echoes hostile-looking output. */
export const lookupTool = defineTool({
  name: "lookup",
  description: "Looks a word up",
  readOnly: true,
  inputSchema: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: ${HOSTILE_OUTPUT}`,
});

/**
 * Records a conversation into `store`: a lookup call, a subagent call whose child history goes to
 * `childStore(toolUseId)`, and an answer.
 */
export async function recordConversation(
  server: MockAnthropicServer,
  store: HistoryStore,
  childStore: (toolUseId: string) => HistoryStore,
): Promise<void> {
  server.enqueue(
    {
      content: [
        toolUse("toolu_look", "lookup", { word: "lattice" }),
        toolUse("toolu_sub", "researcher", { prompt: "dig" }),
      ],
      usage: {
        input_tokens: 1_200,
        output_tokens: 60,
        cache_read_input_tokens: 800,
        cache_creation_input_tokens: 300,
      },
    },
    { content: "Child finding: deep roots.", usage: { input_tokens: 300, output_tokens: 12 } },
    {
      content: "All done: lattice found.",
      usage: { input_tokens: 1_500, output_tokens: 20, cache_read_input_tokens: 1_100 },
    },
  );
  const client = createAnthropicClient({ apiKey: "sk-test", baseURL: server.url });
  const researcher = defineSubagent({
    name: "researcher",
    description: "Researches",
    historyStore: (call) => childStore(call.toolUseId),
  });
  const agent = createAgent({
    model: "claude-sonnet-4-6",
    client,
    tools: [lookupTool, researcher],
    historyStore: store,
    toolConcurrency: 1,
  });
  const result = await agent.prompt(HOSTILE_PROMPT);
  if (result.subtype !== "success") throw new Error(`recording failed: ${result.subtype}`);
  await agent.close();
}
