/**
 * The main request of a query's turns: its fields and settings, built on the first turn and
 * refreshed on each one rather than rebuilt (a model call copies them into the request it sends,
 * so refreshing them later changes nothing already sent).
 * @module
 */
import type { ModelCallSettings, RequestBase } from "./call-model";
import { manageContext } from "./manage-context";
import { withRequestSettings } from "./request-settings";
import type { LoopContext } from "./state/loop-context";
import type { QueryState } from "./state/query-state";

/** The main request's parts, reused by every turn of one query. */
export class MainRequest {
  private base: RequestBase | undefined;
  private callSettings: ModelCallSettings | undefined;

  constructor(
    private readonly loop: LoopContext<unknown>,
    private readonly query: QueryState,
  ) {}

  /** The request fields of this turn: the history and tool set as they are now. */
  fields(): RequestBase {
    const { conversation } = this.loop;
    if (!this.base) {
      const { modelSettings } = this.loop.config;
      const base: RequestBase = {
        system: conversation.systemPrompt(modelSettings.systemPrompt),
        messages: conversation.history.messages,
        tools: conversation.tools.requestDefinitions(conversation.history.messages),
        maxTokens: this.query.maxTokens,
        outputFormat: modelSettings.outputFormat,
      };
      // The query's settings (the agent's, with its overrides), resolved once per query.
      this.base = withRequestSettings(base, this.query.settings);
    }
    // Cached until the tool set changes, or tool search finds more (appended); a forced deferred tool is loaded.
    this.base.tools = conversation.tools.requestDefinitions(
      conversation.history.messages,
      this.base.toolChoice,
    );
    // History (replaced by compaction and replaceHistory), or the edited copy this turn sends.
    manageContext(this.loop, this.base, conversation.model);
    return this.base;
  }

  /** The call settings of this turn: the model as `setModel()` left it. */
  settings(): ModelCallSettings {
    const model = this.loop.conversation.model;
    if (!this.callSettings) {
      const { modelSettings } = this.loop.config;
      this.callSettings = {
        model,
        fallbackModel: modelSettings.fallbackModel,
        streamEvents: modelSettings.streamEvents,
        applyRequestHooks: true,
      };
    }
    this.callSettings.model = model;
    return this.callSettings;
  }
}
