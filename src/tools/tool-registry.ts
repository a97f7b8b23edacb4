/**
 * The tools of one conversation, by name, and their definitions as sent to the model — rebuilt only
 * when the tool set changes, not per turn.
 * @module
 */
import { InvalidOptionError } from "../errors";
import type { ModelMessage } from "../messages/types";
import type { ModelToolDefinition } from "../model/client";
import type { ToolChoice } from "../model/model-settings";
import type { ToolSearchSynonyms } from "../shared/tool-synonyms";
import { FoundTools } from "./found-tools";
import { createSearchToolsTool, SEARCH_TOOLS_TOOL_NAME } from "./search-tools-tool";
import { SUBMIT_OUTPUT_TOOL_NAME, type SubmitOutputTool } from "./submit-output";
import type { Tool } from "./tool";

/**
 * How deferred tools (`deferLoading`) are offered: `"provider"` sends them with `defer_loading: true`
 * (the provider searches), `"client"` leaves them out and offers `search_tools` (the found ones are
 * appended from then on), `"off"` sends them like any other tool.
 */
export type ToolSearchMode = "provider" | "client" | "off";

/** The registered tools; `submit_output` (of an `outputSchema`) is reserved and always offered last. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  /** The definitions `definitions()` returns; `null` when stale. */
  private definitionCache: ModelToolDefinition[] | undefined | null = null;
  /** The deferred tools (rebuilt with the definitions), for `search_tools`. */
  private deferredCache: Tool[] = [];
  private searchMode: ToolSearchMode = "off";
  private searchSynonyms: ToolSearchSynonyms | undefined;
  private readonly searchTool = createSearchToolsTool(
    () => this.deferredCache,
    () => this.searchSynonyms,
  );
  private readonly found = new FoundTools();
  /** The last request's tools: the base definitions and the found ones appended, reused while unchanged. */
  private requestCache:
    | { base: ModelToolDefinition[] | undefined; found: number; tools: ModelToolDefinition[] }
    | undefined;

  constructor(private readonly submitTool: SubmitOutputTool<unknown> | undefined) {}

  /**
   * How deferred tools are offered, and the synonyms client-side search adds to its defaults (set
   * once by the agent, before the first request; left as they are when not given).
   */
  setToolSearch(mode: ToolSearchMode, synonyms: ToolSearchSynonyms | undefined = this.searchSynonyms): void {
    this.searchMode = mode;
    this.searchSynonyms = synonyms;
    this.definitionCache = null;
  }

  /** The tool search mode in force. */
  get toolSearch(): ToolSearchMode {
    return this.searchMode;
  }

  /**
   * The provider refused the tool-search fields: from now on the deferred tools are left out and
   * `search_tools` finds them. True when this changed what is sent (provider search with at least
   * one deferred tool), false otherwise — so a conversation falls back once.
   */
  fallBackToClientSearch(): boolean {
    if (this.searchMode !== "provider") return false;
    this.definitions(); // the deferred tools as they are now
    if (this.deferredCache.length === 0) return false;
    this.setToolSearch("client");
    return true;
  }

  /**
   * The tools by name: a live view (a tool call reads it when it runs, so a tool added later is
   * seen). Change it only through this class.
   */
  get byName(): ReadonlyMap<string, Tool> {
    return this.tools;
  }

  /**
   * Adds a tool.
   * @throws InvalidOptionError on something `defineTool` did not make, a duplicate name, or
   * `submit_output` while `outputSchema` is set.
   */
  add(tool: Tool): void {
    if (
      !tool ||
      typeof tool.name !== "string" ||
      typeof tool.execute !== "function" ||
      typeof tool.parseInput !== "function"
    ) {
      throw new InvalidOptionError(
        "A tool must be created with defineTool() (it needs name, inputSchema and execute).",
      );
    }
    if (this.submitTool && tool.name === SUBMIT_OUTPUT_TOOL_NAME) {
      throw new InvalidOptionError(
        `The tool name "${SUBMIT_OUTPUT_TOOL_NAME}" is reserved while outputSchema is set.`,
      );
    }
    const existing = this.tools.get(tool.name);
    if (existing && existing !== this.searchTool)
      throw new InvalidOptionError(`A tool named "${tool.name}" is already registered.`);
    this.tools.set(tool.name, tool);
    this.definitionCache = null;
  }

  /**
   * Replaces the tools a source (an MCP server set) registered before, named by `previous`, with
   * `tools`; a tool whose name is already taken by another one is skipped (the agent's own wins).
   * Returns the names registered now, to pass as `previous` next time.
   */
  replaceFrom(previous: readonly string[], tools: readonly Tool[]): string[] {
    for (const name of previous) this.tools.delete(name);
    const registered: string[] = [];
    for (const tool of tools) {
      const existing = this.tools.get(tool.name);
      if (existing && existing !== this.searchTool) continue;
      this.tools.set(tool.name, tool);
      registered.push(tool.name);
    }
    this.definitionCache = null;
    return registered;
  }

  /**
   * The tools of the next main request: {@link definitions}, then — with client-side tool search —
   * the deferred tools loaded in `messages` (found by `search_tools`, or called), in the order
   * loaded (append-only: the definitions sent before keep their places), and last the deferred
   * tool `toolChoice` forces when it is not loaded yet (the model calls it, so it stays loaded).
   */
  requestDefinitions(
    messages: readonly ModelMessage[],
    toolChoice?: ToolChoice,
  ): ModelToolDefinition[] | undefined {
    const base = this.definitions();
    if (this.searchMode !== "client" || this.deferredCache.length === 0) return base;
    const names = this.found.namesIn(messages);
    const cached = this.requestCache;
    let tools: ModelToolDefinition[];
    if (cached && cached.base === base && cached.found === names.length) tools = cached.tools;
    else {
      tools = [...(base ?? [])];
      for (const name of names) {
        const tool = this.tools.get(name);
        if (tool?.deferLoading) tools.push(definitionOf(tool));
      }
      this.requestCache = { base, found: names.length, tools };
    }
    return this.withForcedTool(tools, toolChoice);
  }

  /** `tools` with the deferred tool `toolChoice` names appended when it is not among them. */
  private withForcedTool(
    tools: ModelToolDefinition[],
    toolChoice: ToolChoice | undefined,
  ): ModelToolDefinition[] {
    if (typeof toolChoice !== "object") return tools;
    const forced = this.tools.get(toolChoice.name);
    if (!forced?.deferLoading || tools.some((tool) => tool.name === forced.name)) return tools;
    return [...tools, definitionOf(forced)];
  }

  /** The names offered to the model, `submit_output` included (the `init` message lists them). */
  names(): string[] {
    this.definitions(); // registers search_tools when it is offered
    const names = [...this.tools.keys()];
    if (this.submitTool) names.push(this.submitTool.definition.name);
    return names;
  }

  /** The definitions sent with each main request; undefined when there is no tool at all. */
  definitions(): ModelToolDefinition[] | undefined {
    if (this.definitionCache === null) this.definitionCache = this.buildDefinitions();
    return this.definitionCache;
  }

  private buildDefinitions(): ModelToolDefinition[] | undefined {
    const definitions: ModelToolDefinition[] = [];
    const deferred: Tool[] = [];
    for (const tool of this.tools.values()) {
      if (tool === this.searchTool) continue;
      if (tool.deferLoading && this.searchMode !== "off") {
        deferred.push(tool);
        if (this.searchMode === "provider") definitions.push({ ...definitionOf(tool), defer_loading: true });
        continue;
      }
      definitions.push(definitionOf(tool));
    }
    this.deferredCache = deferred;
    this.syncSearchTool(deferred.length > 0 && this.searchMode === "client");
    if (this.tools.get(SEARCH_TOOLS_TOOL_NAME) === this.searchTool)
      definitions.push(definitionOf(this.searchTool));
    if (this.submitTool) definitions.push(this.submitTool.definition);
    return definitions.length > 0 ? definitions : undefined;
  }

  /** Registers `search_tools` while client-side search has deferred tools (an agent tool of that name wins). */
  private syncSearchTool(wanted: boolean): void {
    const current = this.tools.get(SEARCH_TOOLS_TOOL_NAME);
    if (wanted && current === undefined) this.tools.set(SEARCH_TOOLS_TOOL_NAME, this.searchTool);
    else if (!wanted && current === this.searchTool) this.tools.delete(SEARCH_TOOLS_TOOL_NAME);
  }
}

function definitionOf(tool: Tool): ModelToolDefinition {
  const definition: ModelToolDefinition = { name: tool.name, input_schema: tool.inputSchema };
  if (tool.description) definition.description = tool.description;
  if (tool.nativeType) definition.native_type = tool.nativeType;
  return definition;
}
