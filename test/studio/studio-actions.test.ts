/**
 * Acting from the page, over a SQLite store, in headless Chromium: a pending call approved from
 * two tabs at once runs exactly once; a denial carries its reason; a conversation forks at a turn
 * into a new id. Without `createAgent` the buttons are absent.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAgent, createAnthropicClient } from "../../src/index";
import { createSqliteHistoryStore } from "../../src/integrations/stores/sqlite";
import { type Studio, startStudio } from "../../src/studio/index";
import { deployTool } from "../fixtures/deploy-tool";
import { toolUse } from "../support/content";
import { mockServerPerTest } from "../support/mock-server";
import { startBrowser } from "./support";

// Liveness bounds for a browser on a loaded machine; every wait is for an event on the page.
const WAIT = { timeout: 60_000 };
const BROWSER_TEST = { timeout: 240_000 };
let browser: Browser;

beforeAll(async () => {
  browser = await startBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe("acting from the studio page (SQLite)", BROWSER_TEST, () => {
  const server = mockServerPerTest();
  let folder: string;
  let path: string;
  const runs: string[] = [];

  const deploy = deployTool(runs);

  const agentFor = ({ conversationId }: { conversationId: string }) =>
    createAgent({
      model: "claude-sonnet-4-6",
      client: createAnthropicClient({ apiKey: "sk-test", baseURL: server.url }),
      tools: [deploy],
      historyStore: createSqliteHistoryStore({ path, conversationId }),
    });

  beforeEach(async () => {
    runs.length = 0;
    folder = await mkdtemp(join(tmpdir(), "studio-actions-"));
    path = join(folder, "agents.db");
    server.enqueue({ content: [toolUse("d1", "deploy", { target: "prod" })] });
    const agent = agentFor({ conversationId: "release" });
    expect((await agent.prompt("Deploy to prod.")).subtype).toBe("requires_approval");
    await agent.close();
    return () => rm(folder, { recursive: true, force: true });
  });

  async function open(studio: Studio) {
    const page = await browser.newPage();
    await page.goto(`${studio.url}#/c/0/release`);
    await page.locator("[data-testid=timeline]").waitFor(WAIT);
    return page;
  }

  it("approves from two tabs at once: the call runs exactly once, the other tab is told", async () => {
    const studio = await startStudio({ store: `sqlite:${path}`, createAgent: agentFor });
    try {
      const [first, second] = [await open(studio), await open(studio)];
      await first.locator("[data-testid=pending] button.approve").waitFor(WAIT);
      await second.locator("[data-testid=pending] button.approve").waitFor(WAIT);
      server.enqueue({ content: "Deployed." });
      await Promise.all([first.click("button.approve"), second.click("button.approve")]);
      const outcomes = await Promise.all(
        [first, second].map(async (page) => {
          const notice = page.locator("[data-testid=notice]");
          await notice.filter({ hasText: /Resumed|not waiting|busy/ }).waitFor(WAIT);
          return notice.textContent();
        }),
      );
      await first.locator("li.turn", { hasText: "Deployed." }).waitFor(WAIT);
      expect(runs).toEqual(["prod"]);
      expect(outcomes.filter((text) => text?.includes("Resumed: success"))).toHaveLength(1);
      expect(outcomes.filter((text) => text?.includes("not waiting"))).toHaveLength(1);
      const history = await createSqliteHistoryStore({ path, conversationId: "release" }).load();
      const results = history.filter(
        (message) => message.role === "user" && JSON.stringify(message.content).includes("deployed to prod"),
      );
      expect(results).toHaveLength(1);
      await first.close();
      await second.close();
    } finally {
      await studio.close();
    }
  });

  it("denies with a reason: the call does not run and the model reads the reason", async () => {
    const studio = await startStudio({ store: `sqlite:${path}`, createAgent: agentFor });
    try {
      const page = await open(studio);
      server.enqueue({ content: "Understood, not deploying." });
      await page.fill("[data-testid=pending] input[type=text]", "Not on a Friday.");
      await page.click("button.deny");
      await page.locator("li.turn", { hasText: "Understood, not deploying." }).waitFor(WAIT);
      expect(runs).toEqual([]);
      expect(JSON.stringify(server.requests.at(-1)!.body)).toContain("Not on a Friday.");
      await page.close();
    } finally {
      await studio.close();
    }
  });

  it("forks a finished conversation at a turn into a new id", async () => {
    const agent = agentFor({ conversationId: "release" });
    server.enqueue({ content: "Deployed." });
    await agent.prompt({ approvals: { d1: { approved: true } } });
    await agent.close();
    const studio = await startStudio({ store: `sqlite:${path}`, createAgent: agentFor });
    try {
      const page = await open(studio);
      await page.click("button.fork");
      await page.waitForURL(/#\/c\/0\/release-fork-/, WAIT);
      const newId = decodeURIComponent(new URL(page.url()).hash.split("/")[3]!);
      await page.locator("[data-testid=timeline] li.turn", { hasText: "Deployed." }).waitFor(WAIT);
      const original = await createSqliteHistoryStore({ path, conversationId: "release" }).load();
      const forked = await createSqliteHistoryStore({ path, conversationId: newId }).load();
      expect(forked).toEqual(original);
      await page.close();
    } finally {
      await studio.close();
    }
  });

  it("shows no approve, deny or fork buttons without createAgent", async () => {
    const studio = await startStudio({ store: `sqlite:${path}` });
    try {
      const page = await open(studio);
      await page.locator("[data-testid=pending]").waitFor(WAIT);
      expect(await page.locator("button.approve, button.deny, button.fork").count()).toBe(0);
      await page.close();
    } finally {
      await studio.close();
    }
  });
});
