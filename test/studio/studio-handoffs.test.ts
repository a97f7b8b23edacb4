/**
 * The studio in a real browser (headless Chromium) over a JSONL folder holding a conversation with
 * a handoff: the timeline shows the handoff where it happened and, on each turn, who answered it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, createAnthropicClient, createJsonlHistoryStore, defineHandoff } from "../../src/index";
import { startStudio } from "../../src/studio/index";
import { toolUse } from "../support/content";
import { mockServerPerTest } from "../support/mock-server";
import { startBrowser } from "./support";

const WAIT = { timeout: 60_000 };
let browser: Browser;

beforeAll(async () => {
  browser = await startBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe("handoffs in the studio", { timeout: 240_000 }, () => {
  const server = mockServerPerTest();

  it("shows the handoff on the timeline and who answered each turn", async () => {
    const folder = await mkdtemp(join(tmpdir(), "studio-handoffs-"));
    try {
      server.enqueue(
        { content: [toolUse("h1", "transfer_to_billing", { reason: "invoice" })] },
        { content: "Invoice A7 is paid." },
      );
      const agent = createAgent({
        model: "claude-sonnet-4-6",
        client: createAnthropicClient({ apiKey: "sk-ant-studio-handoffs-0123456789", baseURL: server.url }),
        name: "triage",
        handoffs: [defineHandoff({ name: "billing", description: "Invoices.", model: "claude-haiku-4-5" })],
        historyStore: createJsonlHistoryStore({ path: join(folder, "support.jsonl") }),
      });
      await agent.prompt("Is invoice A7 paid?");
      await agent.close();
      const studio = await startStudio({ store: folder });
      const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
      try {
        await page.goto(studio.url);
        await page.click('tr[data-conversation="support"] a');
        const timeline = page.locator("[data-testid=timeline]");
        await timeline.waitFor(WAIT);
        const handoff = timeline.locator("[data-testid=handoff]");
        await handoff.waitFor(WAIT);
        expect(await handoff.textContent()).toContain("triage → billing");
        const turns = timeline.locator("li.turn");
        expect(await turns.count()).toBe(2);
        expect(await turns.nth(0).locator(".fact.agent").textContent()).toBe("agenttriage");
        expect(await turns.nth(1).locator(".fact.agent").textContent()).toBe("agentbilling");
        await page.screenshot({ path: join(tmpdir(), "studio-handoffs.png"), fullPage: true });
      } finally {
        await page.close();
        await studio.close();
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
