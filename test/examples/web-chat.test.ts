/**
 * The web chat example end to end in a real browser: Debian's Chromium driven by playwright-core
 * (no browser download), the page built by Vite, `useChat` talking to `createChatHandler` over the
 * bundled mock model. Every wait is on page state, with generous timeouts (a busy machine).
 */
import { copyFile, rm } from "node:fs/promises";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebChat } from "../../examples/web-chat/server";

const CHROMIUM = "/usr/bin/chromium";
const WAIT = 60_000;
const ROOT = path.resolve(__dirname, "../..");

/** The screenshot the docs show: written under .tmp, copied into docs/images with WEB_CHAT_SCREENSHOT=1. */
const SCREENSHOT = path.join(ROOT, ".tmp/web-chat.png");
const DATA = path.join(ROOT, ".tmp", `web-chat-data-${process.pid}`);

let browser: Browser;
let chat: Awaited<ReturnType<typeof startWebChat>>;
/** What the deploy tool awaits (set by a test that holds a deploy mid-run). */
let deployGate: (() => Promise<void>) | undefined;

beforeAll(async () => {
  chat = await startWebChat({
    dataDir: DATA,
    outDir: path.join(ROOT, ".tmp/web-chat-e2e"),
    deployGate: () => deployGate?.() ?? Promise.resolve(),
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await chat?.close();
  await rm(DATA, { recursive: true, force: true });
  if (process.env.WEB_CHAT_SCREENSHOT === "1")
    await copyFile(SCREENSHOT, path.join(ROOT, "docs/images/web-chat.png"));
});

async function openChat(id: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
  await page.goto(`${chat.url}/?chat=${id}`);
  await page.getByLabel("Message").waitFor({ timeout: WAIT });
  return page;
}

async function say(page: Page, text: string): Promise<void> {
  await page.getByLabel("Message").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

const assistant = (page: Page) => page.locator('article[data-role="assistant"]');

/** A test's own bound: several page waits of up to WAIT each (vitest's default 30 s is less than one). */
const BROWSER_TEST = { timeout: 240_000 };

describe("examples/web-chat in headless Chromium", BROWSER_TEST, () => {
  it("sends a message and shows the streamed answer", async () => {
    const page = await openChat("e2e-hello");
    await say(page, "Hi there");
    await expect
      .poll(() => assistant(page).last().textContent(), { timeout: WAIT })
      .toContain("Ask me for the weather");
    await page.locator('main[data-status="ready"]').waitFor({ timeout: WAIT });
    await page.close();
  });

  it("renders a tool call with its output", async () => {
    const page = await openChat("e2e-tool");
    await say(page, "What is the weather in Paris?");
    const tool = page.locator('.tool[data-tool="weather"][data-state="output-available"]');
    await tool.waitFor({ timeout: WAIT });
    expect(await tool.textContent()).toContain("Sunny and 21 °C in Paris");
    await expect
      .poll(() => assistant(page).last().textContent(), { timeout: WAIT })
      .toContain("Done. The tool says");
    await page.close();
  });

  it("approves a call with a click and the run finishes", async () => {
    const page = await openChat("e2e-approve");
    await say(page, "Please deploy staging");
    await page.getByRole("button", { name: "Approve" }).waitFor({ timeout: WAIT });
    await page.locator('main[data-status="ready"]').waitFor({ timeout: WAIT });
    await page.screenshot({ path: SCREENSHOT });
    await page.getByRole("button", { name: "Approve" }).click();
    await page.locator('.tool[data-tool="deploy"][data-state="output-available"]').waitFor({ timeout: WAIT });
    await expect
      .poll(() => assistant(page).last().textContent(), { timeout: WAIT })
      .toContain("deployed to staging");
    await page.locator('main[data-status="ready"]').waitFor({ timeout: WAIT });
    await page.close();
  });

  it("stops mid-run, then sends again", async () => {
    const page = await openChat("e2e-stop");
    await say(page, "Tell me a story");
    await expect.poll(() => assistant(page).last().textContent(), { timeout: WAIT }).toContain("Chapter 1");
    await page.getByRole("button", { name: "Stop" }).click();
    await page.locator('main[data-status="ready"]').waitFor({ timeout: WAIT });
    expect(await assistant(page).last().textContent()).not.toContain("Chapter 8");
    await say(page, "Hello again");
    await expect
      .poll(() => assistant(page).last().textContent(), { timeout: WAIT })
      .toContain('You said: "Hello again"');
    await page.close();
  });

  it("reloaded mid-run, the page picks the run up and sees it finish; a second tab sees it too", async () => {
    const page = await openChat("e2e-reload");
    await say(page, "Tell me a story");
    await expect.poll(() => assistant(page).last().textContent(), { timeout: WAIT }).toContain("Chapter 1");
    await page.reload();
    const second = await openChat("e2e-reload");
    for (const tab of [page, second]) {
      await expect.poll(() => assistant(tab).last().textContent(), { timeout: WAIT }).toContain("Chapter 8");
      await tab.locator('main[data-status="ready"]').waitFor({ timeout: WAIT });
      // One question, one answer: the run was picked up, not started again.
      expect(await tab.locator('article[data-role="user"]').count()).toBe(1);
      expect(await assistant(tab).count()).toBe(1);
    }
    await page.close();
    await second.close();
  });

  it("reloaded while an approved call resumes, the page continues the same answer (no second message)", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let deploying!: () => void;
    const deployStarted = new Promise<void>((resolve) => (deploying = resolve));
    deployGate = () => {
      deploying();
      return released;
    };
    try {
      const page = await openChat("e2e-approve-reload");
      await say(page, "Please deploy production");
      await page.getByRole("button", { name: "Approve" }).waitFor({ timeout: WAIT });
      await page.locator('main[data-status="ready"]').waitFor({ timeout: WAIT });
      await page.getByRole("button", { name: "Approve" }).click();
      await deployStarted; // the approved call runs on the server now
      await page.reload();
      // The paused answer comes back whole with the reconnected run; its call runs (no approval asked again).
      await page
        .locator('.tool[data-tool="deploy"][data-state="input-available"]')
        .waitFor({ timeout: WAIT });
      expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0);
      release();
      await page
        .locator('.tool[data-tool="deploy"][data-state="output-available"]')
        .waitFor({ timeout: WAIT });
      await expect
        .poll(() => assistant(page).last().textContent(), { timeout: WAIT })
        .toContain("deployed to production");
      await page.locator('main[data-status="ready"]').waitFor({ timeout: WAIT });
      const answer = await assistant(page).last().textContent();
      expect(answer).toContain("I will deploy production once you approve.");
      expect(await assistant(page).count()).toBe(1);
      expect(await page.locator('article[data-role="user"]').count()).toBe(1);
      // Loaded again once the run is over: the same single answer, from history.
      await page.reload();
      await expect
        .poll(() => assistant(page).last().textContent(), { timeout: WAIT })
        .toContain("deployed to production");
      expect(await assistant(page).count()).toBe(1);
      expect(await page.locator('.tool[data-tool="deploy"]').count()).toBe(1);
      await page.close();
    } finally {
      release();
      deployGate = undefined;
    }
  }, 240_000);
});
