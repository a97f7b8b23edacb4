/**
 * Session-based Streamable HTTP serving: one SDK server and transport per MCP session, created by
 * an `initialize` request, found again through the `mcp-session-id` header, ended by an HTTP
 * DELETE, by idling, or by closing.
 * @module
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/** What {@link createHttpSessions} needs. */
export interface HttpSessionsOptions {
  /** Builds a fresh SDK server for a new session (an SDK server serves one transport). */
  createServer: () => Server;
  /** How long a session may stay without any open request or stream before it is closed. */
  idleTimeoutMs: number;
}

/** The live sessions of one served tool set. */
export interface HttpSessions {
  /** Handles one HTTP request to the MCP endpoint (POST, GET or DELETE). */
  handle(request: IncomingMessage, response: ServerResponse, parsedBody?: unknown): Promise<void>;
  /** How many sessions are open. */
  size(): number;
  /** Closes every session; later requests are answered 503. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  openExchanges: number;
  idleTimer: NodeJS.Timeout | undefined;
  closed: boolean;
}

/** Creates the session table behind `handleHttp`. */
export function createHttpSessions(options: HttpSessionsOptions): HttpSessions {
  return new HttpSessionTable(options);
}

/** The sessions by id, each with its transport, server and idle timer. */
class HttpSessionTable implements HttpSessions {
  private readonly sessions = new Map<string, Session>();
  private closed = false;

  constructor(private readonly options: HttpSessionsOptions) {}

  async handle(request: IncomingMessage, response: ServerResponse, parsedBody?: unknown): Promise<void> {
    if (this.closed) return writeJsonRpcError(response, 503, -32000, "The MCP server is closed.");
    const sessionId = headerValue(request.headers["mcp-session-id"]);
    if (sessionId !== undefined) {
      const session = this.sessions.get(sessionId);
      if (!session)
        return writeJsonRpcError(response, 404, -32001, "Session not found: start a new session.");
      this.trackExchange(session, response);
      return session.transport.handleRequest(request, response, parsedBody);
    }
    if (request.method !== "POST") {
      return writeJsonRpcError(
        response,
        400,
        -32000,
        "Missing mcp-session-id header: initialize a session first.",
      );
    }
    const session = await this.openSession();
    this.trackExchange(session, response);
    await session.transport.handleRequest(request, response, parsedBody);
    // Anything but a successful initialize (answered 4xx by the transport) leaves no session behind.
    if (session.transport.sessionId === undefined || !this.sessions.has(session.transport.sessionId)) {
      await this.closeSession(session);
    }
  }

  size(): number {
    return this.sessions.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      [...this.sessions.values()].map(async (session) => {
        await session.transport.close().catch(() => {});
        await this.closeSession(session);
      }),
    );
  }

  private async closeSession(session: Session): Promise<void> {
    if (session.closed) return;
    session.closed = true;
    clearTimeout(session.idleTimer);
    if (session.transport.sessionId !== undefined) this.sessions.delete(session.transport.sessionId);
    await session.server.close().catch(() => {});
  }

  /** Counts a request or stream as open until its response closes; idling starts when none is left. */
  private trackExchange(session: Session, response: ServerResponse): void {
    const { idleTimeoutMs } = this.options;
    session.openExchanges++;
    clearTimeout(session.idleTimer);
    response.once("close", () => {
      session.openExchanges--;
      if (session.openExchanges === 0 && !session.closed && Number.isFinite(idleTimeoutMs)) {
        session.idleTimer = setTimeout(() => void this.closeSession(session), idleTimeoutMs);
        session.idleTimer.unref();
      }
    });
  }

  /** A new session: its SDK server connected to a fresh transport, filed by id once initialized. */
  private async openSession(): Promise<Session> {
    const server = this.options.createServer();
    const session: Session = {
      transport: undefined!,
      server,
      openExchanges: 0,
      idleTimer: undefined,
      closed: false,
    };
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        this.sessions.set(sessionId, session);
      },
    });
    // Set before connecting: the server chains its own handler after this one. Fires on DELETE too.
    session.transport.onclose = () => void this.closeSession(session);
    await server.connect(session.transport);
    return session;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Answers with a JSON-RPC error body, as the Streamable HTTP transport itself does. */
export function writeJsonRpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
