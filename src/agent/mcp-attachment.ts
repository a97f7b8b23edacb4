/**
 * MCP servers attached to an agent: connected lazily before the first query (loading the optional
 * MCP integration only then), their tools registered as `mcp__<server>__<tool>`, refreshed when a
 * server's tool list changes, and closed with the agent.
 * @module
 */
import type { McpServerConfig } from "../integrations/mcp/config";
import type { McpElicitationHandler } from "../integrations/mcp/elicitation-types";
import type * as McpEntry from "../integrations/mcp/index";
import type { Conversation } from "../loop/state/conversation";
import type { McpServerStatus } from "../messages/sdk-messages";
import { importAtRunTime } from "../shared/run-time-import";
import type { Tool } from "../tools/tool";

/**
 * The MCP client is loaded from the package's own `agent-lattice/mcp` entry at run time, never by
 * a literal import a bundler would follow: a one-file bundle of the root entry then holds none of
 * MCP's Node imports (`child_process`, `stream`, `crypto`, `fs`) unless it imports that entry.
 */
export const MCP_ENTRY = "agent-lattice/mcp";

interface Connections {
  tools(): Tool[];
  statuses(): McpServerStatus[];
  close(): Promise<void>;
}

/** Lazily connected MCP servers of one agent. */
export class McpAttachment {
  private connecting: Promise<void> | undefined;
  private connections: Connections | undefined;
  private registered: string[] = [];
  /** Aborted by close(), so closing never waits for a slow connect. */
  private readonly closing = new AbortController();

  constructor(
    private readonly conversation: Conversation,
    private readonly configs: Record<string, McpServerConfig>,
    private readonly onElicitation?: McpElicitationHandler,
  ) {}

  /** Connects once; a failure is reported per server, never thrown. */
  ensureConnected(): Promise<void> {
    this.connecting ??= this.connect();
    return this.connecting;
  }

  private async connect(): Promise<void> {
    try {
      const { connectMcpServers } = await importAtRunTime<typeof McpEntry>(MCP_ENTRY);
      this.connections = await connectMcpServers(this.configs, {
        signal: this.closing.signal,
        onToolsChanged: () => this.syncTools(),
        ...(this.onElicitation ? { onElicitation: this.onElicitation } : {}),
      });
    } catch (error) {
      // A missing optional dependency, or close() during connect: every server is reported failed.
      const reason = (error as Error).message;
      this.conversation.setMcpStatuses(
        Object.keys(this.configs).map((name) => ({ name, status: "failed", error: reason })),
      );
      return;
    }
    this.syncTools();
  }

  /** Replaces the registered MCP tools with the servers' current lists (an agent tool of the same name wins). */
  private syncTools(): void {
    if (!this.connections) return;
    this.registered = this.conversation.tools.replaceFrom(this.registered, this.connections.tools());
    this.conversation.setMcpStatuses(this.connections.statuses());
  }

  async close(): Promise<void> {
    this.closing.abort();
    await this.connecting?.catch(() => {});
    await this.connections?.close();
  }
}
