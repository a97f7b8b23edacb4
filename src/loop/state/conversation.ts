/**
 * The long-lived state of one conversation, which the loop reads and changes across its queries:
 * history, the model of the next turn, the tools, the compaction breaker, the context size the
 * latest response reported, and what was already reported once (unpriced models, MCP servers).
 * @module
 */
import { totalInputTokens } from "../../cost/usage";
import { HistoryLog } from "../../history/history-log";
import type { HistoryStore } from "../../history/store";
import { WithdrawnTracker } from "../../history/withdrawn-turns";
import type { McpServerStatus } from "../../messages/sdk-messages";
import type { Usage } from "../../messages/types";
import { NOOP_TELEMETRY, type Telemetry } from "../../telemetry/telemetry";
import type { SubmitOutputTool } from "../../tools/submit-output";
import type { Tool } from "../../tools/tool";
import { ToolRegistry } from "../../tools/tool-registry";
import { AgentSeat } from "./agent-seat";
import type { AuthorizationGate } from "./authorization-gate";
import { CompactionBreaker } from "./compaction-breaker";
import { ContextState } from "./context-state";
import type { SkillGrants } from "./skill-grants";

/** How a conversation starts. */
export interface ConversationSetup {
  /** The model of the first turn. */
  model: string;
  historyStore: HistoryStore | undefined;
  /** The reserved `submit_output` tool, when the agent has an `outputSchema`. */
  submitTool: SubmitOutputTool<unknown> | undefined;
  /** Replaced by `[redacted]` in everything history records. */
  secrets?: readonly string[];
  /** The name of the agent that answers first (`AgentOptions.name`). @default "main" */
  agentName?: string;
}

/** One conversation's state. One query at a time changes it (the agent's guard sees to that). */
export class Conversation {
  /** History and its store. */
  readonly history: HistoryLog;
  /** Turns automatic compaction off after repeated failures. */
  readonly compaction = new CompactionBreaker();
  /** Context management between requests (`contextManagement`, `getContextUsage()`). */
  readonly context = new ContextState();
  /** Whether history holds turns a guardrail withdrew (never sent), looked up as history grows. */
  readonly withdrawn = new WithdrawnTracker();
  /** MCP servers that pause for authorization (`auth.redirect: "pause"`); set by the agent's MCP attachment. */
  authorizations: AuthorizationGate | undefined;
  /** Each agent's own state (tools, model, system sections), by name; the first is the root. */
  private readonly seats = new Map<string, AgentSeat>();
  private readonly submitTool: SubmitOutputTool<unknown> | undefined;
  private active: AgentSeat;
  private readonly root: AgentSeat;
  private reportedInputTokens: number | undefined;
  private readonly unpricedModels = new Set<string>();
  private servers: McpServerStatus[] | undefined;
  private spans: Telemetry = NOOP_TELEMETRY;

  constructor(setup: ConversationSetup) {
    this.history = new HistoryLog(setup.historyStore, setup.secrets);
    this.submitTool = setup.submitTool;
    this.root = this.addAgent(setup.agentName ?? "main", setup.model);
    this.active = this.root;
  }

  /** The root agent's tools (the agent's own `tools`, MCP's, `addTools`), whoever answers now. */
  get rootTools(): ToolRegistry {
    return this.root.tools;
  }

  /** The root agent's state. */
  get rootSeat(): AgentSeat {
    return this.root;
  }

  /**
   * Adds an agent of the conversation (a handoff's specialist): its own tools and model. The first
   * agent added (by the constructor) is the root, who answers until a handoff.
   */
  addAgent(name: string, model: string): AgentSeat {
    const seat = new AgentSeat(name, model, new ToolRegistry(this.submitTool));
    this.seats.set(name, seat);
    return seat;
  }

  /** The state of agent `name`; undefined when the conversation has no such agent. */
  seat(name: string): AgentSeat | undefined {
    return this.seats.get(name);
  }

  /** Every agent's tools by name (the root's first): what history's calls may have run. */
  everyTool(): Map<string, Tool> {
    const tools = new Map<string, Tool>();
    for (const seat of this.seats.values())
      for (const [name, tool] of seat.tools.byName) if (!tools.has(name)) tools.set(name, tool);
    return tools;
  }

  /** The name of the agent that answers now (`agent.activeAgent`). */
  get activeAgent(): string {
    return this.active.name;
  }

  /** Agent `name` answers from now on (a handoff, or the one history records). */
  activate(name: string): void {
    const seat = this.seats.get(name);
    if (!seat) throw new Error(`No agent named ${JSON.stringify(name)} in this conversation.`);
    this.active = seat;
  }

  /** The tools offered to the model: the active agent's. */
  get tools(): ToolRegistry {
    return this.active.tools;
  }

  /** The model of the next turn: the active agent's. */
  get model(): string {
    return this.active.model;
  }

  /** Switches the active agent's model for later turns (validated by the caller). */
  setModel(model: string): void {
    this.active.model = model;
  }

  /** Input tokens (all buckets) the latest response reported; drives automatic compaction. */
  get lastInputTokens(): number | undefined {
    return this.reportedInputTokens;
  }

  /** A response reported its usage: it measures the context the next request starts from. */
  noteUsage(usage: Usage | undefined): void {
    if (usage) this.reportedInputTokens = totalInputTokens(usage);
  }

  /** History was rewritten or replaced: the last reported usage no longer measures it. */
  forgetUsage(): void {
    this.reportedInputTokens = undefined;
  }

  /** Whether `model` is reported as unpriced now: true the first time only, per conversation. */
  reportUnpricedOnce(model: string): boolean {
    if (this.unpricedModels.has(model)) return false;
    this.unpricedModels.add(model);
    return true;
  }

  /** The MCP servers' statuses, as the `init` message reports them (none without `mcpServers`). */
  get mcpStatuses(): McpServerStatus[] | undefined {
    return this.servers;
  }

  /** The MCP servers connected (or failed to). */
  setMcpStatuses(statuses: McpServerStatus[]): void {
    this.servers = statuses;
  }

  /**
   * Blocks appended to the system prompt (project instructions, the skill catalog), set by the
   * agent before the first query: the same text on every request, so the cached prefix holds.
   */
  setSystemSections(sections: readonly string[]): void {
    this.active.setSystemSections(sections);
  }

  /** `base` (the active agent's system prompt) with its sections appended, one string reused on every turn. */
  systemPrompt(base: string | undefined): string | undefined {
    return this.active.systemPrompt(base);
  }

  /** The tools pre-approved by skills (`allowed-tools`), set by the agent. */
  setSkillGrants(grants: SkillGrants): void {
    this.active.grants = grants;
  }

  /** The tool patterns the active agent's skills used so far in history pre-approve. */
  skillGrantedTools(): readonly string[] {
    return this.active.grants?.grantedIn(this.history.messages) ?? [];
  }

  /** Spans; the no-op until the agent loads OpenTelemetry. */
  get telemetry(): Telemetry {
    return this.spans;
  }

  /** OpenTelemetry was loaded: spans from now on. */
  useTelemetry(telemetry: Telemetry): void {
    this.spans = telemetry;
  }
}
