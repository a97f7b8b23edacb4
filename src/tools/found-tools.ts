/**
 * The deferred tools loaded in a conversation with client-side search — found by `search_tools`,
 * or called by the model (a tool `toolChoice` forced; a tool the provider's own search had found,
 * in a conversation resumed by an agent on client-side search) — read back from history, so a
 * resumed conversation (another process, the same store) offers the same tools, in the same order.
 * @module
 */
import type { ContentBlock, ModelMessage } from "../messages/types";
import { foundToolNames, SEARCH_TOOLS_TOOL_NAME } from "./search-tools-tool";

/**
 * The names loaded in `messages` (by `search_tools` results, and the names of tool calls — the
 * registry keeps the deferred ones), in the order they were first seen,
 * kept incrementally: appending messages scans only the new ones; a rewritten history (compaction,
 * `replaceHistory`) is scanned again.
 */
export class FoundTools {
  private scanned: readonly ModelMessage[] = [];
  private scannedCount = 0;
  private readonly searchCalls = new Set<string>();
  private readonly found: string[] = [];
  private readonly seen = new Set<string>();

  /** The names found so far in `messages`. */
  namesIn(messages: readonly ModelMessage[]): readonly string[] {
    const appended =
      messages === this.scanned ||
      (messages.length >= this.scannedCount && this.scannedCount > 0 && messages[0] === this.scanned[0]);
    if (!appended || messages.length < this.scannedCount) this.reset();
    for (let index = this.scannedCount; index < messages.length; index++) this.scan(messages[index]!);
    this.scanned = messages;
    this.scannedCount = messages.length;
    return this.found;
  }

  private reset(): void {
    this.scannedCount = 0;
    this.searchCalls.clear();
    this.found.length = 0;
    this.seen.clear();
  }

  private scan(message: ModelMessage): void {
    if (typeof message.content === "string") return;
    for (const block of message.content as ContentBlock[]) {
      if (block.type === "tool_use") {
        if (block.name === SEARCH_TOOLS_TOOL_NAME) this.searchCalls.add(block.id);
        else this.add(block.name);
      }
      if (block.type !== "tool_result" || block.is_error || !this.searchCalls.has(block.tool_use_id))
        continue;
      const text =
        typeof block.content === "string"
          ? block.content
          : block.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      for (const name of foundToolNames(text)) this.add(name);
    }
  }

  private add(name: string): void {
    if (this.seen.has(name)) return;
    this.seen.add(name);
    this.found.push(name);
  }
}
