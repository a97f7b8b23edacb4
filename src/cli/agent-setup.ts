/**
 * Builds the agent a command run talks to: client, workspace tools, session store, output schema.
 * @module
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import { type Agent, createAgent } from "../agent/create-agent";
import type { AgentOptions } from "../agent/options";
import type { RequestSettings } from "../loop/state/loop-config";
import { createAnthropicClient } from "../model/anthropic";
import type { ModelClient } from "../model/client";
import type { Tool } from "../tools/tool";
import { createWorkspaceTools, isBashSandboxAvailable } from "../workspace-tools/index";
import type { CliOptions, ToolGroup } from "./args";
import { COMPACT_MAX_TOKENS, compactionRequestSettings } from "./compact-command";
import type { CliIo } from "./io";
import { type JsonSchemaOutput, loadOutputSchema } from "./output-schema";
import { createSessionStore } from "./session";
import { UsageError } from "./usage-error";

/** The API key is missing: a usage error reported on one line, pointing to the offline demo. */
export class MissingApiKeyError extends UsageError {
  constructor() {
    super(
      "ANTHROPIC_API_KEY is not set. Export it (or pass --base-url for a keyless endpoint), or try the offline demo: agent-lattice --demo",
    );
    this.name = "MissingApiKeyError";
  }
}

/** The workspace tools each `--tools` group enables. */
export const TOOLS_OF_GROUP: Readonly<Record<ToolGroup, readonly string[]>> = {
  read: ["read_file", "list_files", "glob", "grep"],
  write: ["write_file", "edit_file"],
  bash: ["bash"],
};

/** An agent ready for the command, with what the output needs to know about it. */
export interface CliAgent {
  agent: Agent<unknown>;
  /** The client the agent talks through (`/compact` sends its summary request with it too). */
  client: ModelClient;
  /** Set with `--output-schema`: the run must end with a validated JSON payload. */
  outputSchema?: JsonSchemaOutput;
  /** Names of the tools the agent has. */
  toolNames: string[];
  /** With `--tools bash`: the line saying whether its commands run sandboxed. */
  bashModeNotice?: string;
  /** The model settings `/compact`'s summary request carries, as automatic compaction's would. */
  summarySettings: RequestSettings;
}

/** Extra pieces a caller may supply instead of the defaults (the demo brings its own client and tools). */
export interface AgentOverrides {
  client?: AgentOptions["client"];
  tools?: Tool[];
  systemPrompt?: string;
}

/**
 * Creates the agent for `options`.
 * @throws {MissingApiKeyError} without a key, a base URL, or a client override.
 * @throws {UsageError} when the output schema file is unusable.
 */
export async function createCliAgent(
  options: CliOptions,
  io: CliIo,
  overrides: AgentOverrides = {},
): Promise<CliAgent> {
  if (!overrides.client && !options.apiKey && !options.baseURL) throw new MissingApiKeyError();
  const outputSchema = options.outputSchemaPath
    ? await loadOutputSchema(options.outputSchemaPath)
    : undefined;
  const tools = overrides.tools ?? workspaceToolsFor(options.tools, io.cwd);
  const client =
    overrides.client ?? createAnthropicClient({ apiKey: options.apiKey, baseURL: options.baseURL });
  const agent = createAgent<unknown>({
    ...options.modelSettings,
    model: options.model,
    client,
    systemPrompt: options.systemPrompt ?? overrides.systemPrompt ?? defaultSystemPrompt(tools, io.cwd),
    tools,
    ...(options.skillFolders ? { skills: await skillFolders(options.skillFolders, io.cwd) } : {}),
    maxTurns: options.maxTurns,
    ...(options.askBeforeWrites ? { permissionMode: "askBeforeWrites" as const } : {}),
    maxBudgetUsd: options.budgetUsd,
    pricing: options.pricing,
    historyStore: options.sessionPath ? createSessionStore(options.sessionPath) : undefined,
    outputSchema,
    includePartialMessages: !options.json || options.partial,
  });
  const toolNames = tools.map((tool) => tool.name);
  return {
    agent,
    client,
    outputSchema,
    toolNames,
    bashModeNotice: bashModeNotice(toolNames),
    summarySettings: compactionRequestSettings(options.modelSettings, COMPACT_MAX_TOKENS),
  };
}

/**
 * The workspace tools over `root` for the chosen groups. `bash` runs its commands in the
 * bubblewrap sandbox wherever `bwrap` works (see {@link bashModeNotice}).
 */
export function workspaceToolsFor(groups: readonly ToolGroup[], root: string): Tool[] {
  if (groups.length === 0) return [];
  const wanted = new Set(groups.flatMap((group) => TOOLS_OF_GROUP[group]));
  const allowBash = groups.includes("bash");
  return createWorkspaceTools({
    root,
    allowWrite: groups.includes("write"),
    allowBash,
    bashSandbox: allowBash && isBashSandboxAvailable(),
  }).filter((tool) => wanted.has(tool.name));
}

/** Which mode `bash` runs in, for a run whose tools include it. */
function bashModeNotice(toolNames: readonly string[]): string | undefined {
  if (!toolNames.includes("bash")) return undefined;
  return isBashSandboxAvailable()
    ? "bash: sandboxed (bubblewrap) · only this folder is visible and writable, no network"
    : "bash: NOT sandboxed · commands run with your privileges and can reach any file and the network; " +
        (process.platform === "linux"
          ? "install bubblewrap (apt-get install bubblewrap) to confine them"
          : "the bubblewrap sandbox needs Linux");
}

function defaultSystemPrompt(tools: readonly Tool[], cwd: string): string | undefined {
  if (tools.length === 0) return undefined;
  return (
    `You are a command-line assistant working in the folder ${cwd}. ` +
    `Your tools (${tools.map((tool) => tool.name).join(", ")}) operate inside it; give paths relative to it. ` +
    "Use the tools to look things up instead of guessing, and answer concisely."
  );
}

/**
 * The `--skills` folders, resolved against the working folder.
 * @throws {UsageError} for one that is not a folder
 */
async function skillFolders(folders: readonly string[], cwd: string): Promise<string[]> {
  const resolved: string[] = [];
  for (const folder of folders) {
    const absolute = path.resolve(cwd, folder);
    const isFolder = await stat(absolute).then(
      (stats) => stats.isDirectory(),
      () => false,
    );
    if (!isFolder) throw new UsageError(`--skills: ${folder} is not a folder`);
    resolved.push(absolute);
  }
  return resolved;
}
