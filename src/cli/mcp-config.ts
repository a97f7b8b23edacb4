/**
 * `--mcp <file>`: MCP servers from JSON files, in the shape the MCP world shares
 * (`{ "mcpServers": { "<name>": { "type": "stdio" | "http" | "sse", … } } }`, or the map alone;
 * a server with a `command` and no `type` is `stdio`, as in Claude Desktop's and Claude Code's files).
 * `${NAME}` in any string is replaced by the environment variable, so a file need not hold a secret;
 * the values of `headers`, `env` and `auth.clientSecret` are secrets (redacted from what the agent records).
 * @module
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { McpServerConfig } from "../integrations/mcp/config";
import { UsageError } from "./usage-error";

/** The servers of every `--mcp` file, and the secret values they hold. */
export interface CliMcpConfig {
  servers: Record<string, McpServerConfig>;
  /** Header values, stdio `env` values and client secrets: the agent's `secrets`. */
  secrets: string[];
}

const SERVER_TYPES = ["stdio", "http", "sse"] as const;

/**
 * Reads the `--mcp` files (relative to `cwd`), expanding `${NAME}` from `env`.
 * @throws {UsageError} for a file that cannot be read or parsed, a server without a known `type`,
 *   a name used twice, or a variable that is not set.
 */
export async function readMcpConfig(
  files: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<CliMcpConfig> {
  const servers: Record<string, McpServerConfig> = {};
  const secrets: string[] = [];
  for (const file of files) {
    const where = `--mcp ${file}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(path.resolve(cwd, file), "utf8"));
    } catch (error) {
      const reason = (error as { code?: string }).code === "ENOENT" ? "no such file" : "not valid JSON";
      throw new UsageError(`${where}: ${reason}`);
    }
    const map = isObject(parsed) && isObject(parsed.mcpServers) ? parsed.mcpServers : parsed;
    if (!isObject(map)) throw new UsageError(`${where}: expected an object of MCP servers by name`);
    for (const [name, raw] of Object.entries(map)) {
      if (name in servers) throw new UsageError(`${where}: the MCP server "${name}" is configured twice`);
      const config = expand(raw, env, `${where}: server "${name}"`);
      servers[name] = checkServer(config, `${where}: server "${name}"`);
      secrets.push(...secretsOf(servers[name]!));
    }
  }
  return { servers, secrets };
}

function checkServer(raw: unknown, where: string): McpServerConfig {
  if (!isObject(raw)) throw new UsageError(`${where} must be an object`);
  // Claude Desktop's and Claude Code's files leave out "type" for a server started as a command.
  const config = raw.type === undefined && typeof raw.command === "string" ? { ...raw, type: "stdio" } : raw;
  if (!SERVER_TYPES.includes(config.type as (typeof SERVER_TYPES)[number])) {
    throw new UsageError(`${where}: "type" must be one of ${SERVER_TYPES.join(", ")}`);
  }
  const field = config.type === "stdio" ? "command" : "url";
  if (typeof config[field] !== "string" || config[field] === "") {
    throw new UsageError(`${where}: a ${config.type} server needs "${field}"`);
  }
  if (config.auth !== undefined && config.auth !== false && !isObject(config.auth)) {
    throw new UsageError(`${where}: "auth" must be an object of OAuth options, or false`);
  }
  return config as unknown as McpServerConfig;
}

/** Replaces `${NAME}` in every string of `value` (deeply). */
function expand(value: unknown, env: NodeJS.ProcessEnv, where: string): unknown {
  if (typeof value === "string") {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
      const found = env[name];
      if (found === undefined) throw new UsageError(`${where}: the environment variable ${name} is not set`);
      return found;
    });
  }
  if (Array.isArray(value)) return value.map((item) => expand(item, env, where));
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expand(item, env, where)]));
  }
  return value;
}

function secretsOf(config: McpServerConfig): string[] {
  const values: unknown[] = [];
  if (config.type === "stdio") values.push(...Object.values(config.env ?? {}));
  else values.push(...Object.values(config.headers ?? {}));
  if (config.type === "http" && isObject(config.auth)) values.push(config.auth.clientSecret);
  return values.filter((value): value is string => typeof value === "string" && value !== "");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
