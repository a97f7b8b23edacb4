/**
 * The studio shows a tool call's durable steps (issue 43): the timeline model joins each call with
 * the steps its results recorded and whether it was run again after a crash, and the page shows
 * them — as text — in the call's detail, in real Chromium.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelMessage } from "../../src/index";
import { startStudio } from "../../src/studio/index";
import { timelineOf } from "../../src/studio/page/turns";
import { HOSTILE_OUTPUT, startBrowser } from "./support";

const WAIT = { timeout: 60_000 };

const history: ModelMessage[] = [
  { role: "user", content: "Charge 5 USD.", meta: { checkpoint_id: "cp_00000000000000000000000000000001" } },
  {
    role: "assistant",
    content: [{ type: "tool_use", id: "c1", name: "charge", input: { cents: 500 } }],
    stop_reason: "tool_use",
  },
  {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "c1", content: "charged ch-1" }],
    meta: {
      tool_steps: { c1: [{ name: "reserve", result: { hold: HOSTILE_OUTPUT } }, { name: "capture" }] },
      rerun_calls: ["c1"],
    },
  },
  { role: "assistant", content: [{ type: "text", text: "Charged." }], stop_reason: "end_turn" },
];

describe("a tool call's durable steps in the studio", () => {
  it("the timeline model carries each call's steps and its recovery", () => {
    const turn = timelineOf(history, 0).find((item) => item.kind === "turn");
    expect(turn && "calls" in turn && turn.calls[0]).toMatchObject({
      steps: [{ name: "reserve", result: { hold: HOSTILE_OUTPUT } }, { name: "capture" }],
      recovery: "rerun",
    });
  });

  describe("in Chromium", { timeout: 240_000 }, () => {
    let browser: Browser;
    let folder: string;
    beforeAll(async () => {
      browser = await startBrowser();
      folder = await mkdtemp(join(tmpdir(), "studio-steps-"));
      await writeFile(
        join(folder, "order.jsonl"),
        `${history.map((message) => JSON.stringify(message)).join("\n")}\n`,
      );
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await rm(folder, { recursive: true, force: true });
    });

    it("shows the steps and the re-run in the call's detail, as text", async () => {
      const studio = await startStudio({ store: folder });
      const page = await browser.newPage();
      try {
        await page.goto(studio.url);
        await page.click('tr[data-conversation="order"] a');
        const call = page.locator('details.call[data-tool="charge"]');
        await call.waitFor(WAIT);
        expect(await call.locator(".status.recovery").textContent()).toContain("run again after a crash");
        await call.locator(":scope > summary").click();
        const steps = call.locator("ol.steps li");
        expect(await steps.count()).toBe(2);
        expect(await steps.nth(0).textContent()).toContain("reserve");
        expect(await steps.nth(0).textContent()).toContain(HOSTILE_OUTPUT.replaceAll('"', '\\"'));
        expect(await steps.nth(1).textContent()).toBe("capture (no result)");
        expect(await page.evaluate("window.__pwned")).toBeUndefined();
        expect(await page.locator("main img").count()).toBe(0);
      } finally {
        await page.close();
        await studio.close();
      }
    });
  });
});
