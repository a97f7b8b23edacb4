/**
 * A subagent call's progress as the client sees it: one `data-subagent` part per call, replaced in
 * place (same `id`) each time the child takes a turn or ends.
 * @module
 */
import type { SDKMessage } from "../index";
import type { SubagentProgress, UIStreamChunk } from "./ui-chunk";

/** The progress of every subagent call seen so far in one stream, by the parent's tool call id. */
export class SubagentProgressTracker {
  private readonly calls = new Map<string, SubagentProgress>();

  /** The chunk to emit for a child's message, or `undefined` when it changes nothing shown. */
  update(parentToolUseId: string, message: SDKMessage<unknown>): UIStreamChunk | undefined {
    let progress = this.calls.get(parentToolUseId);
    if (progress === undefined) {
      progress = { toolCallId: parentToolUseId, status: "running", text: "", turns: 0, tools: [] };
      this.calls.set(parentToolUseId, progress);
    }
    if (message.type === "assistant") {
      progress.turns++;
      for (const block of message.message.content) {
        if (block.type === "text" && block.text)
          progress.text += progress.text ? `\n${block.text}` : block.text;
        if (block.type === "tool_use") progress.tools.push(block.name);
      }
    } else if (message.type === "result") {
      progress.status = message.is_error ? "error" : "done";
    } else {
      return undefined;
    }
    // A copy: a chunk already handed to a consumer never changes afterwards.
    return {
      type: "data-subagent",
      id: parentToolUseId,
      data: { ...progress, tools: [...progress.tools] },
    };
  }
}
