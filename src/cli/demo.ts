/**
 * `agent-lattice --demo`: a real agent, offline. The bundled mock Messages API server runs on the
 * loopback interface with a scripted model ({@link createDemoModel}); the agent talks to it through
 * the real Anthropic client (streaming) and uses the real workspace tools on a fresh temporary
 * folder, which is kept afterwards so you can look at what it wrote.
 * @module
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { createAnthropicClient } from "../model/anthropic";
import { startMockAnthropicServer } from "../testing/mock-server";
import { createWorkspaceTools } from "../workspace-tools/index";
import { createCliAgent } from "./agent-setup";
import type { CliOptions } from "./args";
import {
  createDemoModel,
  DEMO_PROMPT,
  DEMO_SUMMARY_FILE,
  DEMO_SYSTEM_PROMPT,
  IMMEDIATE_PACING,
  WATCHABLE_PACING,
} from "./demo-model";
import { createDemoWorkspace } from "./demo-workspace";
import { InterruptControl } from "./interrupt-control";
import type { CliIo } from "./io";
import { runOnce } from "./one-shot";
import type { QueryOutput } from "./query-output";

/** The key the demo's client sends to the local mock server, so a real key never leaves for it. */
const DEMO_API_KEY = "demo-offline-key";

/**
 * Runs the demo and returns the exit code. With `ANTHROPIC_API_KEY` set (and no `--offline`) the
 * same task goes to the real API (`ANTHROPIC_BASE_URL` honoured); otherwise a scripted model on
 * the bundled mock server answers, offline.
 */
export async function runDemo(options: CliOptions, io: CliIo, output: QueryOutput): Promise<number> {
  const root = await createDemoWorkspace();
  const live = options.apiKey !== undefined && !options.offline;
  const server = live
    ? undefined
    : await startMockAnthropicServer({ handler: createDemoModel(pacingFor(io)) });
  try {
    output.notice(
      live
        ? `Demo, live: ${options.model} via ${options.baseURL ?? "the Anthropic API"} uses real workspace tools (--offline for the bundled mock model)`
        : "Demo, offline: a scripted model behind a local mock Messages API server uses real workspace tools",
    );
    output.notice(`  workspace: ${root}`);
    const client = server
      ? createAnthropicClient({ apiKey: DEMO_API_KEY, baseURL: server.url })
      : createAnthropicClient({ apiKey: options.apiKey, baseURL: options.baseURL });
    const { agent } = await createCliAgent(options, io, {
      client,
      tools: createWorkspaceTools({ root }),
      systemPrompt: DEMO_SYSTEM_PROMPT,
    });
    output.notice(`› ${DEMO_PROMPT}`);
    let code: number;
    try {
      const control = new InterruptControl(agent, (text) => output.notice(text));
      code = await runOnce(DEMO_PROMPT, { agent, output, control, io, structured: false });
    } finally {
      await agent.close();
    }
    output.notice(closingNotice(root));
    return code;
  } finally {
    await server?.close();
  }
}

/** Where to look afterwards: the summary when the agent wrote it (a denied or paused write did not). */
function closingNotice(root: string): string {
  const summary = path.join(root, DEMO_SUMMARY_FILE);
  return existsSync(summary)
    ? `The demo folder is kept; see what the agent wrote: cat ${summary}`
    : `The demo folder is kept (${root}); the agent wrote no ${DEMO_SUMMARY_FILE} this time.`;
}

function pacingFor(io: CliIo) {
  return io.stdout.isTTY === true ? WATCHABLE_PACING : IMMEDIATE_PACING;
}
