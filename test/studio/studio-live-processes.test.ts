/**
 * The studio page shows turns that another process writes: a child Node process runs an Agent over
 * the same store (JSONL folder, SQLite file, PostgreSQL schema, Redis prefix) while headless
 * Chromium shows the conversation, opened at its newest window of a long history. The test waits
 * on the page's content, never on time.
 */
import { mkdir } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelMessage } from "../../src/index";
import { type Studio, startStudio } from "../../src/studio/index";
import { openStore } from "../fixtures/stores/open-store";
import type { StoreLocation } from "../fixtures/stores/store-workload";
import { startChild } from "../integrations/stores/child-runner";
import {
  PROCESS_TEST_TIMEOUT_MS,
  storeLocations,
  useProcessTestEnvironment,
} from "../integrations/stores/process-test-environment";
import { startBrowser } from "./support";

const WAIT = { timeout: 60_000 };
const env = useProcessTestEnvironment("studio_live", "test/fixtures/stores/live-writer-child.ts");
let browser: Browser;

beforeAll(async () => {
  browser = await startBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** A finished conversation of 150 turns (301 messages): longer than the page's first window. */
function longHistory(): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: "user", content: "Start the long job." }];
  for (let turn = 0; turn < 150; turn++) {
    messages.push(
      {
        role: "assistant",
        content: [{ type: "text", text: `Step ${turn} of the long job.` }],
        stop_reason: "end_turn",
        model: "claude-sonnet-4-6",
        usage: { input_tokens: 10, output_tokens: 5 },
        meta: { latency_ms: 100, cost_usd: 0.001 },
      },
      { role: "user", content: `Go on after step ${turn}.` },
    );
  }
  messages.push({
    role: "assistant",
    content: [{ type: "text", text: "Long job done." }],
    stop_reason: "end_turn",
  });
  return messages;
}

/** The studio's `--store` location for the same place as `location`. */
function studioLocation(location: StoreLocation): string {
  switch (location.kind) {
    case "jsonl":
      return env.folder + "/live-jsonl";
    case "sqlite":
      return `sqlite:${location.path}`;
    case "postgres":
      return `${location.connectionString}?schema=${location.schema}`;
    case "redis":
      return `${location.url}${location.url.includes("?") ? "&" : "?"}keyPrefix=${encodeURIComponent(location.keyPrefix)}`;
  }
}

describe.each(["jsonl", "sqlite", "postgres", "redis"] as const)("the studio over %s", (kind) => {
  it(
    "shows turns another process writes, without a reload, on a conversation opened at its newest window",
    async () => {
      const conversation = `live-${kind}`;
      const location: StoreLocation =
        kind === "jsonl"
          ? { kind, path: `${env.folder}/live-jsonl/${conversation}.jsonl` }
          : storeLocations(env)[kind](conversation);
      if (kind === "jsonl") await mkdir(`${env.folder}/live-jsonl`, { recursive: true });
      const seed = openStore(location);
      await seed.replace(longHistory());
      await seed.close();

      const studio: Studio = await startStudio({ store: studioLocation(location) });
      const page: Page = await browser.newPage();
      try {
        await page.goto(`${studio.url}#/c/0/${conversation}`);
        await page.locator("li.turn", { hasText: "Long job done." }).waitFor(WAIT);
        // Opened at its end: the first prompt is not on the page until asked for.
        expect(await page.locator("li.prompt", { hasText: "Start the long job." }).count()).toBe(0);
        expect(await page.locator("button.more").isVisible()).toBe(true);
        // The totals of the whole conversation arrive after the window (counted apart).
        await page.locator("[data-testid=totals] dd", { hasText: /^151$/ }).waitFor(WAIT);

        for (const turn of [1, 2]) {
          const child = startChild(env.childScript, { location, turn });
          await child.waitForLine((line) => line === `turn ${turn} success`);
          expect((await child.exited).code).toBe(0);
          await page.locator("li.turn", { hasText: `Answer ${turn} from another process` }).waitFor(WAIT);
          await page.locator("li.prompt", { hasText: `Question ${turn} from another process` }).waitFor(WAIT);
        }
        await page.locator("[data-testid=totals] dd", { hasText: /^155$/ }).waitFor(WAIT);
        await page.locator("[data-testid=totals] dd", { hasText: "finished (answer)" }).waitFor(WAIT);
        // Earlier messages still load from the start.
        // The button hides itself once nothing earlier is left, possibly between a check and a
        // click: click it in the page, only while it shows, until the first prompt is there.
        const firstPrompt = page.locator("li.prompt", { hasText: "Start the long job." });
        while ((await firstPrompt.count()) === 0) {
          await page.evaluate(
            "(() => { const more = document.querySelector('button.more'); if (more && !more.hidden) more.click(); })()",
          );
          await page.waitForTimeout(100);
        }
        await firstPrompt.waitFor(WAIT);
      } finally {
        await page.close();
        await studio.close();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
