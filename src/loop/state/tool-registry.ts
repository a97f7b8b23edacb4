/**
 * The tools of one conversation, by name, and their definitions as sent to the model — rebuilt only
 * when the tool set changes, not per turn.
 * @module
 */
import { InvalidOptionError } from "../../errors";
import type { ModelToolDefinition } from "../../model/client";
import { SUBMIT_OUTPUT_TOOL_NAME, type SubmitOutputTool } from "../../tools/submit-output";
import type { Tool } from "../../tools/tool";

/** The registered tools; `submit_output` (of an `outputSchema`) is reserved and always offered last. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  /** The definitions `definitions()` returns; `null` when stale. */
  private definitionCache: ModelToolDefinition[] | undefined | null = null;

  constructor(private readonly submitTool: SubmitOutputTool<unknown> | undefined) {}

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
    if (this.tools.has(tool.name))
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
      if (this.tools.has(tool.name)) continue;
      this.tools.set(tool.name, tool);
      registered.push(tool.name);
    }
    this.definitionCache = null;
    return registered;
  }

  /** The names offered to the model, `submit_output` included (the `init` message lists them). */
  names(): string[] {
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
    for (const tool of this.tools.values()) {
      const definition: ModelToolDefinition = { name: tool.name, input_schema: tool.inputSchema };
      if (tool.description) definition.description = tool.description;
      if (tool.nativeType) definition.native_type = tool.nativeType;
      definitions.push(definition);
    }
    if (this.submitTool) definitions.push(this.submitTool.definition);
    return definitions.length > 0 ? definitions : undefined;
  }
}
