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
import { ToolRegistry } from "../../tools/tool-registry";
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
}

/** One conversation's state. One query at a time changes it (the agent's guard sees to that). */
export class Conversation {
  /** History and its store. */
  readonly history: HistoryLog;
  /** The tools offered to the model. */
  readonly tools: ToolRegistry;
  /** Turns automatic compaction off after repeated failures. */
  readonly compaction = new CompactionBreaker();
  /** Context management between requests (`contextManagement`, `getContextUsage()`). */
  readonly context = new ContextState();
  /** Whether history holds turns a guardrail withdrew (never sent), looked up as history grows. */
  readonly withdrawn = new WithdrawnTracker();
  private currentModel: string;
  private reportedInputTokens: number | undefined;
  private readonly unpricedModels = new Set<string>();
  private servers: McpServerStatus[] | undefined;
  private spans: Telemetry = NOOP_TELEMETRY;
  private sections: readonly string[] = [];
  private system: { base: string | undefined; value: string | undefined } | undefined;
  private grants: SkillGrants | undefined;

  constructor(setup: ConversationSetup) {
    this.currentModel = setup.model;
    this.history = new HistoryLog(setup.historyStore, setup.secrets);
    this.tools = new ToolRegistry(setup.submitTool);
  }

  /** The model of the next turn. */
  get model(): string {
    return this.currentModel;
  }

  /** Switches the model for later turns (validated by the caller). */
  setModel(model: string): void {
    this.currentModel = model;
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
    this.sections = sections.filter((section) => section.length > 0);
    this.system = undefined;
  }

  /** `base` (the agent's system prompt) with the sections appended, one string reused on every turn. */
  systemPrompt(base: string | undefined): string | undefined {
    if (this.sections.length === 0) return base;
    if (this.system?.base !== base || this.system === undefined) {
      const value = [base, ...this.sections]
        .filter((part) => part !== undefined && part.length > 0)
        .join("\n\n");
      this.system = { base, value };
    }
    return this.system.value;
  }

  /** The tools pre-approved by skills (`allowed-tools`), set by the agent. */
  setSkillGrants(grants: SkillGrants): void {
    this.grants = grants;
  }

  /** The tool patterns the skills used so far in history pre-approve. */
  skillGrantedTools(): readonly string[] {
    return this.grants?.grantedIn(this.history.messages) ?? [];
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
