/**
 * The lines the terminal shows for a subagent's child: its text, its tool calls and their results,
 * and how it ended, indented under the call that started it (a grandchild one level further).
 * @module
 */
import type { SDKMessage } from "../messages/sdk-messages";
import type { ToolResultBlock, ToolUseBlock } from "../messages/types";
import { neutraliseControls, type Style } from "./terminal";
import { describeToolCall } from "./tool-summary";

/** Four spaces per level of subagent. */
const INDENT = "    ";

/** Tracks which agent made each tool call, so a child's lines are indented by its depth. */
export class ChildLines {
  /** The depth of the agent that made each call seen (0: the query's own agent). */
  private readonly depths = new Map<string, number>();
  private readonly calls = new Map<string, ToolUseBlock>();

  constructor(private readonly style: Style) {}

  /** Notes the calls of the query's own response (depth 0). */
  noteCalls(calls: readonly ToolUseBlock[]): void {
    for (const call of calls) this.depths.set(call.id, 0);
  }

  /**
   * The lines for a message a child yielded (tagged with `parent_tool_use_id`), indented; none
   * for its stream events and notices, which would break into the parent's answer line.
   */
  linesOf(message: SDKMessage, parentToolUseId: string): string[] {
    const depth = (this.depths.get(parentToolUseId) ?? 0) + 1;
    const indent = INDENT.repeat(depth);
    const { style } = this;
    switch (message.type) {
      case "assistant": {
        const lines: string[] = [];
        for (const block of message.message.content) {
          if (block.type === "text" && block.text.trim() !== "")
            for (const line of block.text.trim().split("\n"))
              lines.push(`${indent}${style.dim(neutraliseControls(line))}`);
          if (block.type === "tool_use") {
            this.depths.set(block.id, depth);
            this.calls.set(block.id, block);
          }
        }
        return lines;
      }
      case "user": {
        const content = message.message.content;
        if (typeof content === "string") return [];
        return content
          .filter((block): block is ToolResultBlock => block.type === "tool_result")
          .map((result) => {
            const line = describeToolCall(this.calls.get(result.tool_use_id), result);
            this.calls.delete(result.tool_use_id);
            const mark = line.ok ? style.green("✓") : style.red("✗");
            return `${indent}${mark} ${style.bold(line.call)} ${style.dim("→")} ${line.ok ? style.dim(line.outcome) : style.red(line.outcome)}`;
          });
      }
      case "result":
        if (message.subtype === "success") return [`${indent}${style.dim("└ subagent done")}`];
        return [`${indent}${style.yellow(`└ subagent ${message.subtype}`)}`];
      default:
        return [];
    }
  }
}
