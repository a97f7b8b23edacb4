/**
 * Durable tools: a tool whose effects happen once, even when its process is killed in the middle.
 *
 *   npx tsx examples/durable-tool.ts
 *
 * A worker process runs an agent whose `charge_card` tool does three steps — reserve, capture,
 * receipt — each with `context.step`, over a JSONL history store. The worker is killed with SIGKILL
 * inside "capture", after "reserve" was recorded. A second agent over the same store picks the
 * conversation up: the interrupted call runs again first, "reserve" is replayed from the store (not
 * repeated), "capture" and "receipt" run, and the model sees the real result. The payment
 * provider's log below shows each effect once. Without ANTHROPIC_API_KEY it runs offline, against
 * the bundled mock server (the model is a small function). See docs/en/durable-tools.md.
 */
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { createAgent, createJsonlHistoryStore, defineTool } from "../src/index";
import { type MockHandler, startMockAnthropicServer } from "../src/testing/index";

/** The payment provider, standing in: it logs every effect with the idempotency key it was given. */
function effect(folder: string, what: string, key: string): void {
  appendFileSync(join(folder, "payments.log"), `${what} ${key}\n`);
}

function chargeCard(folder: string, killInCapture: boolean) {
  return defineTool({
    name: "charge_card",
    description: "Charges the customer's card.",
    inputSchema: z.object({ cents: z.number().int().positive() }),
    execute: async ({ cents }, context) => {
      const hold = await context.step("reserve", () => {
        effect(folder, "reserve", context.idempotencyKey);
        return { holdId: `hold-${cents}` };
      });
      const capture = await context.step("capture", () => {
        if (killInCapture) process.kill(process.pid, "SIGKILL"); // the worker dies here
        effect(folder, "capture", context.idempotencyKey);
        return { chargeId: `ch-${hold.holdId}` };
      });
      await context.step("receipt", () => effect(folder, "receipt", context.idempotencyKey));
      return `Charged ${cents} cents (${capture.chargeId}).`;
    },
  });
}

/** The offline model: asks for the charge, then reports the tool's result. */
const offlineModel: MockHandler = (body) => {
  const results = body.messages.flatMap((message: { content: unknown }) =>
    Array.isArray(message.content)
      ? message.content.filter((block: { type: string }) => block.type === "tool_result")
      : [],
  );
  if (results.length === 0)
    return {
      content: [{ type: "tool_use", id: "toolu_charge", name: "charge_card", input: { cents: 4200 } }],
    };
  return { content: `Done: ${String(results.at(-1).content)}` };
};

function agentFor(folder: string, baseURL: string | undefined, killInCapture: boolean) {
  return createAgent({
    model: process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-6",
    ...(baseURL ? { apiKey: "offline", baseURL } : {}),
    tools: [chargeCard(folder, killInCapture)],
    historyStore: createJsonlHistoryStore({ path: join(folder, "order-42.jsonl") }),
  });
}

/** The worker: charges, and is killed inside the capture step. */
async function worker(folder: string, baseURL: string | undefined): Promise<void> {
  await agentFor(folder, baseURL, true).prompt("Charge 42 USD to the customer's card.");
}

/** Runs the worker in a child process (this file, with the same loader) and waits for it to die. */
function runWorker(folder: string, baseURL: string | undefined): Promise<NodeJS.Signals | null> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [...process.execArgv, self, "worker", folder, baseURL ?? ""], {
    stdio: "inherit",
  });
  return new Promise((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
}

async function main(): Promise<void> {
  const live = Boolean(process.env.ANTHROPIC_API_KEY);
  const server = live ? undefined : await startMockAnthropicServer({ handler: offlineModel });
  const folder = mkdtempSync(join(tmpdir(), "durable-tool-"));
  console.log(live ? "Using the real API." : `Offline, against the mock server at ${server!.url}.`);
  try {
    console.log(`worker: ${await runWorker(folder, server?.url)}`);
    const agent = agentFor(folder, server?.url, false);
    const result = await agent.prompt("Did the charge go through?");
    await agent.close();
    console.log(result.subtype === "success" ? result.result : result.subtype);
    console.log("payment provider log:");
    process.stdout.write(readFileSync(join(folder, "payments.log"), "utf8"));
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await server?.close();
  }
}

if (process.argv[2] === "worker") await worker(process.argv[3]!, process.argv[4] || undefined);
else await main();
