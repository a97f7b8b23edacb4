/**
 * MCP servers' questions in the studio page, in headless Chromium, against real MCP servers (two
 * questions-server.mjs processes, so that two questions wait at once): the list marks the
 * conversation as waiting for questions; a form question's fields (text, integer, number, checkbox,
 * a choice, with their defaults and required marks) are filled and accepted, a URL question (an
 * https link) accepted, and the timeline shows the server's real result. A server whose question
 * carries HTML in its message, field titles, descriptions and choices, and a `javascript:` URL:
 * all shown as text, nothing run, no `javascript:` link.
 */
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, createJsonlHistoryStore, defineSubagent } from "../../src/index";
import type { McpServerConfig } from "../../src/integrations/mcp/config";
import { type Studio, startStudio } from "../../src/studio/index";
import { createScriptedClient, type ScriptedStep } from "../../src/testing/scripted-client";
import { deployTool } from "../fixtures/deploy-tool";
import { temporaryFolder } from "../support/temporary-folders";
import { logged, PROFILE_QUESTION, QUESTIONS_SERVER } from "./inputs-support";
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

const LINK_QUESTION = {
  mode: "url",
  message: "Link your billing account",
  url: "https://billing.example/link?state=xyz",
};

const HOSTILE = `<img src=x onerror="window.__pwned = 1"><script>window.__pwned = 2</script>`;
const HOSTILE_FORM = {
  message: `Confirm ${HOSTILE}`,
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: `<b>Name</b>${HOSTILE}`, description: `<i>desc</i>${HOSTILE}` },
      pick: { type: "string", title: "Pick", enum: ["<b>a</b>", `${HOSTILE}`] },
    },
    required: ["name"],
  },
};
const HOSTILE_LINK = { mode: "url", message: `Open ${HOSTILE}`, url: "javascript:window.__pwned = 3" };

/** A conversation in `folder` whose one turn called both servers' `ask` with these questions. */
function setup(folder: string, questions: [object, object]) {
  const log = join(folder, "calls.jsonl");
  const server = (name: string): McpServerConfig => ({
    type: "stdio",
    command: process.execPath,
    args: [QUESTIONS_SERVER],
    env: { QUESTIONS_LOG: `${log}.${name}`, QUESTIONS_READ_ONLY: "1" },
  });
  const agentFor =
    (script: ScriptedStep[]) =>
    ({ conversationId }: { conversationId: string }) =>
      createAgent({
        model: "claude-sonnet-4-6",
        client: createScriptedClient(script),
        mcpServers: { questions: server("questions"), billing: server("billing") },
        historyStore: createJsonlHistoryStore({ path: join(folder, `${conversationId}.jsonl`) }),
      });
  const turn: ScriptedStep = {
    content: [
      { type: "tool_use", id: "toolu_form", name: "mcp__questions__ask", input: questions[0] },
      { type: "tool_use", id: "toolu_link", name: "mcp__billing__ask", input: questions[1] },
    ],
  };
  return { agentFor, turn, log };
}

async function openConversation(studio: Studio, id: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 1000 } });
  await page.goto(`${studio.url}#/c/0/${id}`);
  await page.locator("[data-testid=pending-input]").first().waitFor(WAIT);
  return page;
}

describe("MCP questions in the studio page", BROWSER_TEST, () => {
  it("fills a form question and accepts it and a URL question: the timeline shows the server's real result", async () => {
    const folder = temporaryFolder("studio-inputs-page-");
    const { agentFor, turn, log } = setup(folder, [PROFILE_QUESTION, LINK_QUESTION]);
    const first = agentFor([turn])({ conversationId: "deploy" });
    const paused = await first.prompt("Set up the deployment");
    await first.close();
    expect(paused.pending_inputs?.map((input) => input.id)).toEqual([
      "toolu_form/input-1",
      "toolu_link/input-1",
    ]);

    const studio = await startStudio({ store: folder, createAgent: agentFor([{ content: "Deployed." }]) });
    try {
      const list = await browser.newPage();
      await list.goto(studio.url);
      const row = list.locator('tr[data-conversation="deploy"]');
      await row.waitFor(WAIT);
      expect(await row.locator(".status").textContent()).toBe("paused");
      expect(await row.locator("[data-testid=waiting]").textContent()).toBe("2 questions");
      if (process.env.STUDIO_SCREENSHOTS)
        await list.screenshot({ path: join(process.env.STUDIO_SCREENSHOTS, "list.png") });
      await list.close();

      const page = await openConversation(studio, "deploy");
      const form = page.locator('[data-input-id="toolu_form/input-1"]');
      const link = page.locator('[data-input-id="toolu_link/input-1"]');
      expect(await form.locator("pre.question").textContent()).toBe(PROFILE_QUESTION.message);
      // Defaults filled in, required fields marked.
      expect(await form.locator("input[name=replicas]").inputValue()).toBe("3");
      expect(await form.locator("select[name=region]").inputValue()).toBe("eu");
      expect(await form.locator("input[name=public]").isChecked()).toBe(false);
      expect(await form.locator('[data-field="team"] .required').count()).toBe(1);
      expect(await form.locator('[data-field="budget"] .required').count()).toBe(0);
      expect(await form.locator('[data-field="team"] .field-description').textContent()).toBe("Who owns it");
      expect(await link.locator("code.url-text").textContent()).toBe(LINK_QUESTION.url);
      expect(await link.locator("a.open-url").getAttribute("href")).toBe(LINK_QUESTION.url);
      await page.screenshot({ path: join(folder, "questions.png"), fullPage: true });
      if (process.env.STUDIO_SCREENSHOTS)
        await page.screenshot({
          path: join(process.env.STUDIO_SCREENSHOTS, "questions.png"),
          fullPage: true,
        });

      // A required field left empty is refused on the page; nothing is sent.
      await form.locator("button.accept").click();
      expect(await form.locator(".problem").textContent()).toMatch(/team: required/);
      await form.locator("input[name=team]").fill("platform");
      await form.locator("input[name=replicas]").fill("5");
      await form.locator("input[name=budget]").fill("99.5");
      await form.locator("input[name=public]").check();
      await form.locator("select[name=region]").selectOption("us");
      await form.locator("button.accept").click();
      expect(await form.locator("button.accept").isDisabled()).toBe(true);
      await link.locator("button.accept").click();

      await page.locator("li.turn", { hasText: "Deployed." }).waitFor(WAIT);
      expect(await page.locator("[data-testid=notice]").textContent()).toBe("Resumed: success");
      const call = page.locator('details.call[data-tool="mcp__questions__ask"]');
      await call.locator(":scope > summary").click();
      const content = { team: "platform", replicas: 5, budget: 99.5, public: true, region: "us" };
      expect(await call.locator("pre.output").textContent()).toBe(
        `answer: accept ${JSON.stringify(content)}`,
      );
      const linked = page.locator('details.call[data-tool="mcp__billing__ask"]');
      await linked.locator(":scope > summary").click();
      expect(await linked.locator("pre.output").textContent()).toBe("answer: accept null");
      expect(await page.locator("[data-testid=pending]").count()).toBe(0);
      if (process.env.STUDIO_SCREENSHOTS)
        await page.screenshot({ path: join(process.env.STUDIO_SCREENSHOTS, "answered.png"), fullPage: true });
      // Each server's tool ran twice (the pause, the answer); the answer reached it once.
      const answered = (await logged(`${log}.questions`)).filter((entry) => entry.effect === "answered");
      expect(answered.map((entry) => entry.action)).toEqual(["cancel", "accept"]);
      await page.close();
    } finally {
      await studio.close();
    }
  });

  it("shows a hostile server's question as text: no script runs, no javascript: link", async () => {
    const folder = temporaryFolder("studio-inputs-page-");
    const { agentFor, turn } = setup(folder, [HOSTILE_FORM, HOSTILE_LINK]);
    const first = agentFor([turn])({ conversationId: "hostile" });
    expect((await first.prompt("go")).subtype).toBe("requires_input");
    await first.close();
    const studio = await startStudio({ store: folder, createAgent: agentFor([{ content: "ok" }]) });
    try {
      const page = await openConversation(studio, "hostile");
      const form = page.locator('[data-input-id="toolu_form/input-1"]');
      const link = page.locator('[data-input-id="toolu_link/input-1"]');
      await link.waitFor(WAIT);
      expect(await form.locator("pre.question").textContent()).toBe(HOSTILE_FORM.message);
      expect(await form.locator('[data-field="name"] .field-title').textContent()).toBe(
        `${HOSTILE_FORM.requestedSchema.properties.name.title} *`,
      );
      expect(await form.locator('[data-field="name"] .field-description').textContent()).toBe(
        HOSTILE_FORM.requestedSchema.properties.name.description,
      );
      expect(await form.locator("select[name=pick] option").allTextContents()).toEqual([
        "—",
        ...HOSTILE_FORM.requestedSchema.properties.pick.enum,
      ]);
      expect(await link.locator("pre.question").textContent()).toBe(HOSTILE_LINK.message);
      expect(await link.locator("code.url-text").textContent()).toBe(HOSTILE_LINK.url);
      expect(await page.locator("main a[href^='javascript' i]").count()).toBe(0);
      expect(await link.locator("a").count()).toBe(0);
      expect(await page.locator("main img, main script, main b, main i").count()).toBe(0);
      if (process.env.STUDIO_SCREENSHOTS)
        await page.screenshot({ path: join(process.env.STUDIO_SCREENSHOTS, "hostile.png"), fullPage: true });
      // Answering works as for any question; still nothing ran.
      await form.locator("input[name=name]").fill("x");
      await form.locator("button.accept").click();
      await link.locator("button.decline").click();
      await page.locator("li.turn", { hasText: "ok" }).waitFor(WAIT);
      expect(await page.evaluate("window.__pwned")).toBeUndefined();
      await page.close();
    } finally {
      await studio.close();
    }
  });

  it("shows a subagent's call waiting for approval and a question together, and resumes with both at once", async () => {
    const folder = temporaryFolder("studio-inputs-page-");
    const runs: string[] = [];
    const deploy = deployTool(runs);
    const agentFor =
      (parent: ScriptedStep[], child: ScriptedStep[]) =>
      ({ conversationId }: { conversationId: string }) =>
        createAgent({
          model: "claude-sonnet-4-6",
          client: createScriptedClient(parent),
          tools: [
            defineSubagent({
              name: "releaser",
              description: "Releases",
              readOnly: true,
              client: createScriptedClient(child),
              tools: [deploy],
            }),
          ],
          mcpServers: {
            questions: {
              type: "stdio",
              command: process.execPath,
              args: [QUESTIONS_SERVER],
              env: { QUESTIONS_READ_ONLY: "1" },
            },
          },
          historyStore: createJsonlHistoryStore({ path: join(folder, `${conversationId}.jsonl`) }),
        });
    const first = agentFor(
      [
        {
          content: [
            { type: "tool_use", id: "toolu_sub", name: "releaser", input: { prompt: "release" } },
            { type: "tool_use", id: "toolu_form", name: "mcp__questions__ask", input: PROFILE_QUESTION },
          ],
        },
      ],
      [{ content: [{ type: "tool_use", id: "toolu_deploy", name: "deploy", input: { target: "prod" } }] }],
    )({ conversationId: "both" });
    expect((await first.prompt("Release and set up")).subtype).toBe("requires_input");
    await first.close();
    const studio = await startStudio({
      store: folder,
      createAgent: agentFor([{ content: "Both done." }], [{ content: "Released." }]),
    });
    try {
      const page = await openConversation(studio, "both");
      await page.locator("[data-testid=pending] .pending-call button.approve").waitFor(WAIT);
      expect(await page.locator("[data-testid=pending] h2").allTextContents()).toEqual([
        "Waiting for approval",
        "Waiting for answers to MCP servers' questions",
      ]);
      if (process.env.STUDIO_SCREENSHOTS)
        await page.screenshot({ path: join(process.env.STUDIO_SCREENSHOTS, "both.png"), fullPage: true });
      expect(await page.locator(".pending-call").textContent()).toContain(
        "deploy (inside subagent releaser)",
      );
      // The approval alone sends nothing: the question is still open.
      await page.click("button.approve");
      expect(await page.locator("[data-testid=notice]").textContent()).toBe("");
      expect(runs).toEqual([]);
      const form = page.locator('[data-input-id="toolu_form/input-1"]');
      await form.locator("input[name=team]").fill("ops");
      await form.locator("button.accept").click();
      await page.locator("li.turn", { hasText: "Both done." }).waitFor(WAIT);
      expect(await page.locator("[data-testid=notice]").textContent()).toBe("Resumed: success");
      expect(runs).toEqual(["prod"]);
      await page.close();
    } finally {
      await studio.close();
    }
  });
});
