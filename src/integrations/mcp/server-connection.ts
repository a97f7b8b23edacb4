/**
 * One MCP server as the agent sees it: connected within a deadline, its tools adapted to our
 * {@link Tool} contract, refreshed on `tools/list_changed`, a crash noticed, and closed without
 * leaving a child process behind.
 * @module
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerStatus } from "../../messages/sdk-messages";
import type { Tool, ToolContext, ToolOutput } from "../../tools/tool";
import { adaptMcpTool } from "./adapt-tool";
import { settledWithin, startConnectDeadline, untilAborted } from "./bounded-waits";
import type { CallQuestions } from "./call-questions";
import { type ClientTransportHandle, createClientTransport } from "./client-transport";
import { DEFAULT_MCP_CONNECT_TIMEOUT_MS, DEFAULT_MCP_TOOL_TIMEOUT_MS, type McpServerConfig } from "./config";
import { authorizationOf, terminateHttpSession, validateTimeouts } from "./connection-setup";
import { toolOutputFromMcpResult } from "./content";
import { ELICITATION_CAPABILITY, elicitationRequestOf, routeElicitation } from "./elicitation";
import type { McpElicitationHandler } from "./elicitation-types";
import { isRequestTimeout, messageOf, toolFailure, withStderr } from "./failure-texts";
import { listAllTools } from "./list-all-tools";
import type { McpClientSdk } from "./load-client-sdk";
import { DEFAULT_MCP_AUTHORIZATION_TIMEOUT_MS } from "./oauth/auth-options";
import { AWAITING_AUTHORIZATION, type HttpAuthorization, mayAskPerson } from "./oauth/http-auth";
import { redactSecrets, secretRedactor } from "./redact-secrets";
import { RESOURCE_TOOL_NAMES, resourceTools } from "./resource-tools";
import { type CatalogAccess, createCatalog } from "./server-catalog";
import { callQuietly, forwardLog, forwardProgress } from "./server-notices";
import { exposedToolNames } from "./tool-names";

/** How long closing waits for a stdio server's process to be gone (the SDK escalates to SIGKILL after 4 s). */
const PROCESS_EXIT_WAIT_MS = 6_000;

/** What opening one server connection needs. */
export interface ServerConnectionOptions {
  /** The server's key in `mcpServers`. */
  name: string;
  /** The server's part of tool names (see `serverNameSegments`). */
  segment: string;
  config: McpServerConfig;
  sdk: McpClientSdk;
  clientInfo: { name: string; version: string };
  /** Aborts connecting. */
  signal?: AbortSignal;
  /** Called when this server's tool list changed after connecting. Must not throw (errors are ignored). */
  onToolsChanged: () => void;
  /** Answers the server's questions; without it (and `pauseForInput`) the elicitation capability is not declared. */
  onElicitation?: McpElicitationHandler;
  /** A question nobody answers at once pauses the agent's query (its tools get `runAgentCall`). */
  pauseForInput?: boolean;
}

type ConnectionState =
  | { kind: "connecting" }
  | { kind: "connected" }
  | { kind: "failed"; error: string; paused?: { url: string; expiresAt: string } }
  | { kind: "crashed" };

/** One server's connection. Open it with {@link ServerConnection.open}; it never rejects. */
export class ServerConnection {
  private state: ConnectionState = { kind: "connecting" };
  private adaptedTools: Tool[] = [];
  /** Listed tools that cannot be called here (they require tasks), for the status. */
  private skipped: Array<{ tool: string; reason: string }> = [];
  private toolsFingerprint = "";
  private closing: Promise<void> | undefined;
  private refreshing: Promise<void> | undefined;
  private refreshRequested = false;
  /** Listings started and finished by the refresh loop, so a call waits for the one it needs. */
  private refreshesStarted = 0;
  private refreshesFinished = 0;
  /** Settles when the listing in flight finishes. */
  private refreshStep: Promise<void> = Promise.resolve();
  private readonly lifetime = new AbortController();
  /** The tool calls in flight (the context of a server's question): their names and questions. */
  private readonly runningCalls: Array<{ name: string; questions?: CallQuestions }> = [];
  private readonly processClosed: Promise<void>;
  readonly redact: (text: string) => string;
  /** Redacts what the client learned while connected (OAuth tokens) from every tool result. */
  private readonly redactLearned: (text: string) => string;
  private readonly connectTimeoutMs: number;
  private readonly toolTimeoutMs: number;

  private constructor(
    private readonly options: ServerConnectionOptions,
    private readonly client: Client | undefined,
    private readonly handle: ClientTransportHandle | undefined,
    private readonly authorization?: HttpAuthorization,
  ) {
    this.redact = secretRedactor(options.config, () => authorization?.secrets() ?? []);
    this.redactLearned = authorization
      ? (text) => redactSecrets(text, authorization.secrets())
      : (text) => text;
    const auth = options.config.type === "http" ? options.config.auth : undefined;
    this.connectTimeoutMs =
      options.config.connectTimeoutMs ??
      (mayAskPerson(auth) ? DEFAULT_MCP_AUTHORIZATION_TIMEOUT_MS : DEFAULT_MCP_CONNECT_TIMEOUT_MS);
    this.toolTimeoutMs = options.config.toolTimeoutMs ?? DEFAULT_MCP_TOOL_TIMEOUT_MS;
    let markProcessClosed!: () => void;
    this.processClosed = new Promise((resolve) => (markProcessClosed = resolve));
    if (handle) {
      // Set before connecting: the client chains its own handler after this one.
      handle.transport.onclose = () => {
        markProcessClosed();
        this.onTransportClosed();
      };
    }
  }

  /**
   * Connects to one server: starts the transport, runs `initialize` and lists every tool, all
   * within `connectTimeoutMs`. Any failure (bad config, spawn error, crash, timeout, abort) gives a
   * connection whose status is `failed`, with every resource it opened already released.
   */
  static async open(options: ServerConnectionOptions): Promise<ServerConnection> {
    let handle: ClientTransportHandle;
    let authorization: HttpAuthorization | undefined;
    try {
      validateTimeouts(options.config);
      authorization = await authorizationOf(options);
      handle = createClientTransport(options.config, options.sdk, authorization?.fetch);
    } catch (error) {
      await authorization?.close();
      const connection = new ServerConnection(options, undefined, undefined);
      connection.state = { kind: "failed", error: connection.redact(messageOf(error)) };
      return connection;
    }
    const { onElicitation } = options;
    const asks = onElicitation !== undefined || options.pauseForInput === true;
    const capabilities = asks ? ELICITATION_CAPABILITY : {};
    const client = new options.sdk.Client(options.clientInfo, { capabilities });
    // Transport errors also surface as failed requests; the background copies carry nothing more.
    client.onerror = () => {};
    const connection = new ServerConnection(options, client, handle, authorization);
    client.setNotificationHandler(options.sdk.ToolListChangedNotificationSchema, () =>
      connection.refreshTools(),
    );
    client.setNotificationHandler(options.sdk.LoggingMessageNotificationSchema, (notification) =>
      forwardLog(options.config, options.name, notification.params, connection.redact),
    );
    if (asks) {
      client.setRequestHandler(options.sdk.ElicitRequestSchema, (request, extra) => {
        // Only a call alone in flight is known to be the one asking: several share no answer or pause.
        const running = connection.runningCalls.length === 1 ? connection.runningCalls[0] : undefined;
        const context = { signal: extra.signal, ...(running ? { toolName: running.name } : {}) };
        const asked = elicitationRequestOf(options.name, request);
        return routeElicitation(asked, running?.questions, onElicitation, context, connection.redact);
      });
    }
    await connection.connect();
    return connection;
  }

  /** The server's status, as reported on the `init` message. */
  status(): McpServerStatus {
    const { name } = this.options;
    switch (this.state.kind) {
      case "connected": {
        const tools = this.adaptedTools.map((tool) => tool.name);
        return this.skipped.length > 0
          ? { name, status: "connected", tools, skipped: this.skipped.map((entry) => ({ ...entry })) }
          : { name, status: "connected", tools };
      }
      case "failed":
        return { name, status: "failed", error: this.state.error };
      case "crashed":
        return { name, status: "failed", error: this.crashDescription() };
      case "connecting":
        return { name, status: "failed", error: "The connection was not established." };
    }
  }

  /** The authorization connecting paused on (`auth.redirect: "pause"`): its URL and expiry. */
  pausedAuthorization(): { url: string; expiresAt: string } | undefined {
    return this.state.kind === "failed" && this.state.paused ? { ...this.state.paused } : undefined;
  }

  /** The server's tools, named `mcp__<server>__<tool>`; empty unless connected (and not closed). */
  tools(): Tool[] {
    return this.state.kind === "connected" && !this.closing ? [...this.adaptedTools] : [];
  }

  /**
   * The client for resources and prompts, when connected and the server declared `capability`;
   * with the redaction and timeout its requests use.
   */
  catalogAccess(capability: "resources" | "prompts"): CatalogAccess | undefined {
    if (this.state.kind !== "connected" || this.closing || !this.client) return undefined;
    if (!this.client.getServerCapabilities()?.[capability]) return undefined;
    return {
      client: this.client,
      redact: this.redact,
      timeoutMs: this.connectTimeoutMs,
      signal: this.lifetime.signal,
    };
  }

  /** The server's name in `mcpServers`. */
  get name(): string {
    return this.options.name;
  }

  /** Whether the server is connected (and not closed). */
  get connected(): boolean {
    return this.state.kind === "connected" && !this.closing;
  }

  /** Closes the client and transport and waits for a stdio server's process to be gone. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async connect(): Promise<void> {
    const client = this.client!;
    const transport = this.handle!.transport;
    const deadline = startConnectDeadline(this.connectTimeoutMs, this.options.signal);
    try {
      const listed = await untilAborted(deadline.signal, async () => {
        await client.connect(transport, { signal: deadline.signal, timeout: this.connectTimeoutMs });
        return listAllTools(this.client!, deadline.signal, this.connectTimeoutMs);
      });
      this.state = { kind: "connected" };
      this.replaceTools(listed);
      if (this.refreshRequested) this.refreshTools();
    } catch (error) {
      await this.close();
      const paused = this.authorization?.paused();
      if (paused) return void (this.state = { kind: "failed", error: AWAITING_AUTHORIZATION, paused });
      // Let the last stderr output of a crashed process arrive before quoting it.
      await new Promise((resolve) => setImmediate(resolve));
      this.state = {
        kind: "failed",
        error: this.redact(
          withStderr(
            this.authorization?.explainFailure(error, this.connectTimeoutMs) ?? messageOf(error),
            this.handle?.stderrTail(this.redact),
          ),
        ),
      };
    } finally {
      deadline.cancel();
    }
  }

  /** Re-lists the tools after `tools/list_changed`; one refresh at a time, repeated if asked again meanwhile. */
  private refreshTools(): void {
    this.refreshRequested = true;
    if (this.state.kind !== "connected" || this.refreshing) return;
    this.refreshing = this.runRefreshes().finally(() => {
      this.refreshing = undefined;
    });
  }

  private async runRefreshes(): Promise<void> {
    while (this.refreshRequested && this.state.kind === "connected" && !this.closing) {
      this.refreshRequested = false;
      this.refreshesStarted++;
      let finished!: () => void;
      this.refreshStep = new Promise((resolve) => (finished = resolve));
      try {
        const listed = await listAllTools(this.client!, this.lifetime.signal, this.connectTimeoutMs);
        const stillConnected = this.state.kind === "connected" && !this.closing;
        if (stillConnected && this.replaceTools(listed)) this.notifyToolsChanged();
      } catch {
        // Keep the previous list; the server's next notification tries again.
      } finally {
        this.refreshesFinished++;
        finished();
      }
    }
  }

  /** Adapts a listing; returns whether it differs from the previous one. */
  private replaceTools(listed: readonly McpTool[]): boolean {
    const callable = listed.filter((tool) => tool.execution?.taskSupport !== "required");
    this.skipped = listed
      .filter((tool) => tool.execution?.taskSupport === "required")
      .map((tool) => ({ tool: tool.name, reason: "it requires MCP tasks, which this client does not run" }));
    const fingerprint = JSON.stringify(callable);
    if (fingerprint === this.toolsFingerprint) return false;
    const browse =
      this.options.config.resourceTools === true && this.catalogAccess("resources") !== undefined;
    const bare = [...callable.map((tool) => tool.name), ...(browse ? RESOURCE_TOOL_NAMES : [])];
    const names = exposedToolNames(this.options.segment, bare);
    this.adaptedTools = callable.map((tool, index) =>
      adaptMcpTool(tool, names[index]!, (...call) => this.callTool(...call), {
        deferLoading: this.options.config.deferLoading,
        pauseForInput: this.options.pauseForInput,
        server: this.options.name,
      }),
    );
    if (browse) {
      const exposed = [names[callable.length]!, names[callable.length + 1]!] as const;
      this.adaptedTools.push(...resourceTools(this.options.name, exposed, createCatalog([this])));
    }
    this.toolsFingerprint = fingerprint;
    return true;
  }

  /**
   * Runs `tools/call`. Never throws: every failure becomes an error result the model can read.
   * `questions`: the call's stored answers and where its unanswered questions go (a call the loop runs).
   */
  private async callTool(
    toolName: string,
    exposedName: string,
    input: Record<string, unknown>,
    context: ToolContext,
    questions?: CallQuestions,
  ): Promise<ToolOutput> {
    if (this.state.kind !== "connected" || this.closing) {
      return toolFailure(exposedName, `the MCP server "${this.options.name}" is not connected.`);
    }
    const running = questions ? { name: exposedName, questions } : { name: exposedName };
    this.runningCalls.push(running);
    try {
      const result = await this.client!.callTool({ name: toolName, arguments: input }, undefined, {
        signal: context.signal,
        timeout: this.toolTimeoutMs,
        resetTimeoutOnProgress: true,
        // Asking for progress lets a long call keep its timeout alive.
        onprogress: (progress) =>
          forwardProgress(this.options.config, this.options.name, exposedName, progress, this.redact),
      });
      await this.toolListSettled(context.signal);
      return toolOutputFromMcpResult(result, this.redact, this.redactLearned);
    } catch (error) {
      // The state may have changed while the call was running: quote a crash's stderr.
      const state = this.state as ConnectionState;
      if (state.kind !== "crashed" && !context.signal.aborted && isRequestTimeout(error)) {
        return toolFailure(
          exposedName,
          `the server did not answer within toolTimeoutMs (${this.toolTimeoutMs} ms).`,
        );
      }
      this.pauseIfUnauthorized();
      const detail = state.kind === "crashed" ? ` (${this.crashDescription()})` : "";
      return toolFailure(exposedName, this.redact(`${messageOf(error)}${detail}`));
    } finally {
      this.runningCalls.splice(this.runningCalls.indexOf(running), 1);
    }
  }

  /**
   * Waits for the tool-list refresh that covers the notifications received so far, if any. A server
   * that changed its tools during a call sent `tools/list_changed` before the call's result, so once
   * this returns the next model request offers the new list. Only that refresh is awaited — a
   * notification arriving while a listing runs needs the next one — never the end of the refresh
   * loop, which a server announcing changes without pause keeps going forever. The call's signal
   * ends the wait.
   */
  private async toolListSettled(signal: AbortSignal): Promise<void> {
    if (!this.refreshing) return;
    const needed = this.refreshesStarted + (this.refreshRequested ? 1 : 0);
    await untilAborted(signal, async () => {
      while (this.refreshing && this.refreshesFinished < needed) {
        await Promise.race([this.refreshStep, this.refreshing]);
      }
    }).catch(() => {});
  }

  /**
   * A call refused because the server wants a new authorization that paused (`auth.redirect:
   * "pause"`; its tokens were revoked): the server waits for authorization as if connecting had
   * stopped there, and is connected again before the next query.
   */
  private pauseIfUnauthorized(): void {
    const paused = this.authorization?.paused();
    if (!paused || this.state.kind !== "connected" || this.closing) return;
    this.state = { kind: "failed", error: AWAITING_AUTHORIZATION, paused };
    void this.close();
    this.notifyToolsChanged();
  }

  private onTransportClosed(): void {
    if (this.state.kind !== "connected" || this.closing) return;
    this.state = { kind: "crashed" };
    this.notifyToolsChanged();
  }

  private crashDescription(): string {
    return this.redact(
      withStderr("The server closed the connection unexpectedly.", this.handle?.stderrTail(this.redact)),
    );
  }

  private notifyToolsChanged(): void {
    callQuietly(this.options.onToolsChanged);
  }

  private async shutdown(): Promise<void> {
    this.lifetime.abort();
    if (!this.client || !this.handle) return;
    await terminateHttpSession(this.handle);
    await this.client.close().catch(() => {});
    await this.authorization?.close();
    if (this.handle.pid() !== null) await settledWithin(this.processClosed, PROCESS_EXIT_WAIT_MS);
  }
}
