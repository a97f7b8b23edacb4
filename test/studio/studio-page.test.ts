/**
 * The studio in a real browser (headless Chromium) over a JSONL folder: the list, a timeline with
 * tool calls and a nested subagent, the charts, stored HTML shown as text and never run, a
 * running conversation's new turns appearing without a reload, and a run claim's start and end
 * shown live in the list and the conversation.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createAgent,
  createAnthropicClient,
  createJsonlHistoryStore,
  type ModelMessage,
} from "../../src/index";
import { type Studio, startStudio } from "../../src/studio/index";
import { mockServerPerTest } from "../support/mock-server";
import { HOSTILE_OUTPUT, HOSTILE_PROMPT, recordConversation, startBrowser } from "./support";

// Liveness bounds for a browser on a loaded machine; every wait is for an event on the page.
const WAIT = { timeout: 60_000 };
const BROWSER_TEST = { timeout: 240_000 };

let browser: Browser;
let folder: string;

beforeAll(async () => {
  browser = await startBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe("the studio page over a JSONL folder", BROWSER_TEST, () => {
  const server = mockServerPerTest();
  let studio: Studio;
  let page: Page;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), "studio-page-"));
    const store = (id: string) => createJsonlHistoryStore({ path: join(folder, `${id}.jsonl`) });
    await recordConversation(server, store("research"), (toolUseId) => store(`research-${toolUseId}`));
    studio = await startStudio({ store: folder });
    page = await browser.newPage();
    return async () => {
      await page.close();
      await studio.close();
      await rm(folder, { recursive: true, force: true });
    };
  });

  it("lists the conversations, most recent first, and filters them by status", async () => {
    await page.goto(studio.url);
    const rows = page.locator("[data-testid=conversation-list] tbody tr");
    await rows.first().waitFor(WAIT);
    expect(await rows.count()).toBe(2); // the parent and the subagent's own conversation
    const parent = page.locator('tr[data-conversation="research"]');
    expect(await parent.locator(".status").textContent()).toBe("finished");
    expect(await parent.textContent()).toContain("claude-sonnet-4-6");
    await page.selectOption("select[name=status]", "failed");
    await page.click("form.filters button");
    await page.locator("p.muted").filter({ hasText: "conversations" }).waitFor(WAIT);
    await page.waitForFunction(
      "document.querySelectorAll('[data-testid=conversation-list] tbody tr').length === 0",
      undefined,
      WAIT,
    );
  });

  it("shows the timeline: turns with their facts, tool calls with input, output and duration, the subagent nested, the charts", async () => {
    await page.goto(studio.url);
    await page.click('tr[data-conversation="research"] a');
    const timeline = page.locator("[data-testid=timeline]");
    await timeline.waitFor(WAIT);
    const turns = timeline.locator("li.turn");
    expect(await turns.count()).toBe(2);
    const first = await turns.first().locator(".facts").textContent();
    expect(first).toContain("tool_use");
    expect(first).toContain("1,200"); // input tokens
    expect(first).toMatch(/latency\s*\d/);
    const lookup = timeline.locator('details.call[data-tool="lookup"]');
    await lookup.locator(":scope > summary").click();
    expect(await lookup.locator("pre.output").textContent()).toBe(`lattice: ${HOSTILE_OUTPUT}`);
    const researcher = timeline.locator('details.call[data-tool="researcher"]');
    await researcher.locator(":scope > summary").click();
    const child = researcher.locator("details.subagent");
    await child.locator("summary").click();
    await child.locator("li.turn").first().waitFor(WAIT);
    expect(await child.locator("li.turn").first().textContent()).toContain("Child finding: deep roots.");
    // Three charts, each a uPlot canvas.
    expect(await page.locator("[data-testid=charts] figure canvas").count()).toBe(3);
    expect(await page.locator("[data-testid=totals]").textContent()).toContain("$");
  });

  it("shows stored HTML as text: a <script> or <img onerror> in a prompt or a tool output does nothing", async () => {
    await page.goto(studio.url);
    await page.click('tr[data-conversation="research"] a');
    await page.locator("[data-testid=timeline] li.prompt").first().waitFor(WAIT);
    await page.locator("details.call summary").first().click();
    expect(await page.locator("li.prompt pre").first().textContent()).toBe(HOSTILE_PROMPT);
    expect(await page.evaluate("window.__pwned")).toBeUndefined();
    expect(await page.locator("main img, main script, main b").count()).toBe(0);
  });

  it("shows a running conversation's new turns without a reload", async () => {
    await page.goto(studio.url);
    await page.click('tr[data-conversation="research"] a');
    await page.locator("[data-testid=timeline]").waitFor(WAIT);
    expect(await page.locator("li.turn").count()).toBe(2);
    // Another agent (as another process would) goes on with the conversation in the same file.
    server.enqueue({ content: "A later answer arrived." });
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client: createAnthropicClient({ apiKey: "sk-test", baseURL: server.url }),
      historyStore: createJsonlHistoryStore({ path: join(folder, "research.jsonl") }),
    });
    await agent.prompt("Anything else?");
    await page.locator("li.turn", { hasText: "A later answer arrived." }).waitFor(WAIT);
    expect(await page.locator("li.prompt", { hasText: "Anything else?" }).count()).toBe(1);
  });

  it("adds earlier messages once, however often Load earlier is clicked while they load", async () => {
    const messages: ModelMessage[] = [{ role: "user", content: "The very first prompt." }];
    for (let turn = 0; turn < 150; turn++)
      messages.push(
        { role: "assistant", content: [{ type: "text", text: `Step ${turn}.` }], stop_reason: "end_turn" },
        { role: "user", content: `Prompt ${turn + 1}.` },
      );
    messages.push({ role: "assistant", content: [{ type: "text", text: "Done." }], stop_reason: "end_turn" });
    const long = createJsonlHistoryStore({ path: join(folder, "long.jsonl") });
    await long.replace(messages);
    await long.close();
    await page.goto(`${studio.url}#/c/0/long`);
    await page.locator("li.turn", { hasText: "Done." }).waitFor(WAIT);
    // Three clicks in one task: the second and third come while the first one's window loads.
    await page.evaluate(
      "(() => { const more = document.querySelector('button.more'); more.click(); more.click(); more.click(); })()",
    );
    await page.locator("li.prompt", { hasText: "The very first prompt." }).waitFor(WAIT);
    expect(await page.locator("li.prompt").count()).toBe(151);
    expect(await page.locator("li.turn", { hasText: "Step 0." }).count()).toBe(1);
  });

  it("shows a run claim's start and end live: running (run claim) in the list and the conversation, then finished", async () => {
    const claimer = createJsonlHistoryStore({ path: join(folder, "research.jsonl") });
    const status = page.locator('tr[data-conversation="research"] .status');
    await page.goto(studio.url);
    await status.waitFor(WAIT);
    expect(await status.textContent()).toBe("finished");

    // A run (of a chat server in another process, say) claims the conversation; the list shows it.
    const claim = await claimer.claimRun({ ttlMs: 600_000 });
    await page.locator('tr[data-conversation="research"] .status[title="by run claim"]').waitFor(WAIT);
    expect(await status.textContent()).toBe("running");
    await claim!.release();
    await page.locator('tr[data-conversation="research"] .status[title="by answer"]').waitFor(WAIT);
    expect(await status.textContent()).toBe("finished");

    await page.click('tr[data-conversation="research"] a');
    const totals = page.locator("[data-testid=totals]");
    await totals.waitFor(WAIT);
    const again = await claimer.claimRun({ ttlMs: 600_000 });
    await totals.filter({ hasText: "running (run claim)" }).waitFor(WAIT);
    await again!.release();
    await totals.filter({ hasText: "finished (answer)" }).waitFor(WAIT);
    await claimer.close();
  });
});
