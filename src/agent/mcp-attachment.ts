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
  /** Aborted by close(), so closing never waits for a slow connect. */
  private readonly closing = new AbortController();

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
    try {
      const { connectMcpServers } = await import("../integrations/mcp/connect");
      this.connections = await connectMcpServers(this.configs, {
        signal: this.closing.signal,
        onToolsChanged: () => this.syncTools(),
      });
    } catch (error) {
      // A missing optional dependency, or close() during connect: every server is reported failed.
      const reason = (error as Error).message;
      this.core.mcpStatuses = Object.keys(this.configs).map((name) => ({
        name,
        status: "failed",
        error: reason,
      }));
      return;
    }
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
    this.closing.abort();
    await this.connecting?.catch(() => {});
    await this.connections?.close();
  }
}
