/**
 * MCP servers attached to an agent: connected lazily before the first query (loading the optional
 * MCP integration only then), their tools registered as `mcp__<server>__<tool>`, refreshed when a
 * server's tool list changes, and closed with the agent.
 * @module
 */
import { InvalidOptionError } from "../errors";
import type { McpCatalog } from "../integrations/mcp/catalog-types";
import type { McpServerConfig } from "../integrations/mcp/config";
import type { McpElicitationHandler } from "../integrations/mcp/elicitation-types";
import type * as McpEntry from "../integrations/mcp/index";
import type { AuthorizationGate } from "../loop/state/authorization-gate";
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

interface Connections extends McpCatalog {
  tools(): Tool[];
  statuses(): McpServerStatus[];
  pendingAuthorizations?(): Array<{ server: string; url: string }>;
  reconnectPaused?(servers?: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** Lazily connected MCP servers of one agent. */
export class McpAttachment {
  private connecting: Promise<void> | undefined;
  private connections: Connections | undefined;
  private registered: string[] = [];
  /** Aborted by close(), so closing never waits for a slow connect. */
  private readonly closing = new AbortController();
  /** Servers whose authorization the person declined (or cancelled): not asked again by this agent. */
  private readonly declined = new Map<string, "decline" | "cancel">();

  constructor(
    private readonly conversation: Conversation,
    private readonly configs: Record<string, McpServerConfig>,
    private readonly onElicitation?: McpElicitationHandler,
  ) {
    conversation.authorizations = this.authorizationGate();
  }

  /**
   * Connects once; a failure is reported per server, never thrown. Later calls (each query's
   * preparation) connect again the servers that paused for authorization, in case it was finished.
   */
  ensureConnected(): Promise<void> {
    if (!this.connecting) {
      this.connecting = this.connect();
      return this.connecting;
    }
    return this.connecting.then(() => this.reconnectPaused());
  }

  private async reconnectPaused(): Promise<void> {
    const waiting = this.waiting().map((entry) => entry.server);
    if (!this.connections || waiting.length === 0 || this.closing.signal.aborted) return;
    await this.connections.reconnectPaused?.(waiting);
    this.syncTools();
  }

  private waiting(): Array<{ server: string; url: string }> {
    // Optional calls: an `agent-lattice/mcp` entry of another copy of the package may lack them.
    return (this.connections?.pendingAuthorizations?.() ?? [])
      .filter((entry) => !this.declined.has(entry.server))
      .map(({ server, url }) => ({ server, url }));
  }

  private authorizationGate(): AuthorizationGate {
    return {
      waiting: () => this.waiting(),
      decline: (server, action) => {
        this.declined.set(server, action);
        this.syncTools();
      },
    };
  }

  private async connect(): Promise<void> {
    try {
      const { connectMcpServers } = await importAtRunTime<typeof McpEntry>(MCP_ENTRY);
      this.connections = await connectMcpServers(this.configs, {
        signal: this.closing.signal,
        onToolsChanged: () => this.syncTools(),
        ...(this.onElicitation ? { onElicitation: this.onElicitation } : {}),
        // A question nobody answers at once pauses the query (`requires_input`).
        pauseForInput: true,
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
    // The root agent's tools (a handoff's specialist may be the one answering now).
    this.registered = this.conversation.rootTools.replaceFrom(this.registered, this.connections.tools());
    this.conversation.setMcpStatuses(
      this.connections.statuses().map((status) => {
        const action = this.declined.get(status.name);
        if (!action || status.status !== "failed") return status;
        const verb = action === "decline" ? "declined" : "cancelled";
        return {
          name: status.name,
          status: "failed",
          error: `Authorization was ${verb} by the user: the server is unavailable to this agent (a new agent asks again).`,
        };
      }),
    );
  }

  /**
   * The servers' resources and prompts, connecting first (as the first query would). A server that
   * failed to connect is named in the error of a read or a prompt, left out of lists.
   */
  catalog(): McpCatalog {
    const connected = async () => {
      await this.ensureConnected();
      if (this.connections) return this.connections;
      throw new Error(
        `The MCP servers are not connected: ${this.conversation.mcpStatuses?.[0]?.error ?? "unknown reason"}`,
      );
    };
    return {
      listResources: async (server) => (await connected()).listResources(server),
      listResourceTemplates: async (server) => (await connected()).listResourceTemplates(server),
      readResource: async (server, uri) => (await connected()).readResource(server, uri),
      listPrompts: async (server) => (await connected()).listPrompts(server),
      getPrompt: async (server, name, args) => (await connected()).getPrompt(server, name, args),
    };
  }

  async close(): Promise<void> {
    this.closing.abort();
    await this.connecting?.catch(() => {});
    await this.connections?.close();
  }
}

/** The catalog of an agent without `mcpServers`: empty lists, and no server to read from. */
export const NO_MCP_CATALOG: McpCatalog = {
  listResources: async (server) => noServer(server),
  listResourceTemplates: async (server) => noServer(server),
  readResource: async (server) => noServer(server),
  listPrompts: async (server) => noServer(server),
  getPrompt: async (server) => {
    noServer(server);
    throw new InvalidOptionError("getPrompt needs a server name.");
  },
};

function noServer(server: string | undefined): never[] {
  if (server === undefined) return [];
  throw new InvalidOptionError(
    `No MCP server is named ${JSON.stringify(server)} (the agent has no mcpServers).`,
  );
}
