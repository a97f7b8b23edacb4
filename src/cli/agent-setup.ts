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
import { createWorkspaceTools } from "../workspace-tools/index";
import type { CliOptions, ToolGroup } from "./args";
import { type BashSetup, bashSetupFor, sandboxFailure } from "./bash-setup";
import { COMPACT_MAX_TOKENS, compactionRequestSettings } from "./compact-command";
import type { CliIo } from "./io";
import { type CliMcpAuthorization, defaultMcpTokenFile, withCliAuthorization } from "./mcp-authorization";
import { readMcpConfig } from "./mcp-config";
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
  /** With `--mcp`: the servers' OAuth on the command line (Ctrl-C cancels a wait for the browser). */
  mcpAuthorization?: CliMcpAuthorization;
}

/** Extra pieces a caller may supply instead of the defaults (the demo brings its own client and tools). */
export interface AgentOverrides {
  client?: AgentOptions["client"];
  tools?: Tool[];
  systemPrompt?: string;
  /** Where the `--mcp` servers' authorization URLs are said. Default: a line on stderr. */
  notice?: (text: string) => void;
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
  const bash = options.tools.includes("bash") && !overrides.tools ? bashSetupFor(options, io.cwd) : undefined;
  const tools = overrides.tools ?? workspaceToolsFor(options.tools, io.cwd, bash);
  const client =
    overrides.client ?? createAnthropicClient({ apiKey: options.apiKey, baseURL: options.baseURL });
  const mcp = options.mcpFiles ? await mcpServersFor(options, io, overrides) : undefined;
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
    ...(mcp ? { mcpServers: mcp.authorization.servers, secrets: mcp.secrets } : {}),
  });
  const toolNames = tools.map((tool) => tool.name);
  return {
    agent,
    client,
    outputSchema,
    toolNames,
    bashModeNotice: toolNames.includes("bash") ? bash?.notice : undefined,
    summarySettings: compactionRequestSettings(options.modelSettings, COMPACT_MAX_TOKENS),
    ...(mcp ? { mcpAuthorization: mcp.authorization } : {}),
  };
}

/** The `--mcp` servers, with the command line's OAuth on their `http` servers. */
async function mcpServersFor(options: CliOptions, io: CliIo, overrides: AgentOverrides) {
  const { servers, secrets } = await readMcpConfig(options.mcpFiles ?? [], io.cwd, io.env);
  const authorization = withCliAuthorization(servers, {
    tokenFile: options.mcpTokenFile
      ? path.resolve(io.cwd, options.mcpTokenFile)
      : defaultMcpTokenFile(io.env),
    openBrowser: options.mcpBrowser === true,
    notice: overrides.notice ?? ((text) => io.stderr.write(`${text}\n`)),
  });
  return { authorization, secrets };
}

/**
 * The workspace tools over `root` for the chosen groups. `bash` runs as `bash` says (see
 * bash-setup.ts: sandboxed wherever `bwrap` works, never as root unless asked).
 * @throws {UsageError} when the sandbox user cannot reach `root`, saying what to do.
 */
export function workspaceToolsFor(groups: readonly ToolGroup[], root: string, bash?: BashSetup): Tool[] {
  if (groups.length === 0) return [];
  const wanted = new Set(groups.flatMap((group) => TOOLS_OF_GROUP[group]));
  const allowBash = groups.includes("bash");
  const setup = allowBash ? (bash ?? bashSetupFor({ unconfinedBash: false }, root)) : undefined;
  try {
    return createWorkspaceTools({
      root,
      allowWrite: groups.includes("write"),
      allowBash,
      bashSandbox: setup?.bashSandbox ?? false,
    }).filter((tool) => wanted.has(tool.name));
  } catch (error) {
    throw setup ? sandboxFailure(error, setup, root) : error;
  }
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
