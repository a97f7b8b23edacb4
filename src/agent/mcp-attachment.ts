/**
 * MCP servers attached to an agent: connected lazily before the first query (loading the optional
 * MCP integration only then), their tools registered as `mcp__<server>__<tool>`, refreshed when a
 * server's tool list changes, and closed with the agent.
 * @module
 */
import type { McpServerConfig } from "../integrations/mcp/config";
import type { Tool } from "../tools/tool";
import type { AgentCore } from "./agent-core";

interface Connections {
  tools(): Tool[];
  statuses(): import("../messages/sdk-messages").McpServerStatus[];
  close(): Promise<void>;
}

/** Lazily connected MCP servers of one agent. */
export class McpAttachment<T> {
  private connecting: Promise<void> | undefined;
  private connections: Connections | undefined;
  private registered: string[] = [];

  constructor(
    private readonly core: AgentCore<T>,
    private readonly configs: Record<string, McpServerConfig>,
  ) {}

  /** Connects once; a failure is reported per server, never thrown. */
  ensureConnected(): Promise<void> {
    this.connecting ??= this.connect();
    return this.connecting;
  }

  private async connect(): Promise<void> {
    let connectMcpServers: typeof import("../integrations/mcp/connect").connectMcpServers;
    try {
      ({ connectMcpServers } = await import("../integrations/mcp/connect"));
    } catch (error) {
      const reason = `MCP support needs the optional peer dependency @modelcontextprotocol/sdk (npm install @modelcontextprotocol/sdk): ${(error as Error).message}`;
      this.core.mcpStatuses = Object.keys(this.configs).map((name) => ({
        name,
        status: "failed",
        error: reason,
      }));
      return;
    }
    this.connections = await connectMcpServers(this.configs, { onToolsChanged: () => this.syncTools() });
    this.syncTools();
  }

  /** Replaces the registered MCP tools with the servers' current lists. */
  private syncTools(): void {
    if (!this.connections) return;
    for (const name of this.registered) this.core.tools.delete(name);
    this.registered = [];
    for (const tool of this.connections.tools()) {
      if (this.core.tools.has(tool.name)) continue; // an agent tool of the same name wins
      this.core.tools.set(tool.name, tool);
      this.registered.push(tool.name);
    }
    this.core.mcpStatuses = this.connections.statuses();
    this.core.toolsChanged();
  }

  async close(): Promise<void> {
    await this.connecting?.catch(() => {});
    await this.connections?.close();
  }
}
