/**
 * An answer already in history as the chunks that build it again: what a page that reconnects to
 * an approval's resume gets before the live chunks, so the resumed run continues the paused
 * assistant message in full (its earlier text and tool calls) rather than starting a new one.
 * @module
 */
import type { UIMessageShape } from "./history-to-ui";
import type { UIStreamChunk } from "./ui-chunk";

/**
 * The chunks that rebuild `message`'s parts (after a `start` chunk). Calls in `decided` — the ones
 * the running resume carries a decision for — are left `input-available`: no approval is asked again.
 */
export function messageToChunks(message: UIMessageShape, decided: ReadonlySet<string>): UIStreamChunk[] {
  const chunks: UIStreamChunk[] = [];
  let stepOpen = false;
  message.parts.forEach((part, index) => {
    const id = `rebuilt-${index}`;
    switch (part.type) {
      case "step-start":
        if (stepOpen) chunks.push({ type: "finish-step" });
        chunks.push({ type: "start-step" });
        stepOpen = true;
        return;
      case "text":
        chunks.push({ type: "text-start", id }, { type: "text-delta", id, delta: String(part.text) });
        chunks.push({ type: "text-end", id });
        return;
      case "reasoning":
        chunks.push(
          { type: "reasoning-start", id },
          { type: "reasoning-delta", id, delta: String(part.text) },
        );
        chunks.push({ type: "reasoning-end", id });
        return;
      case "dynamic-tool":
        chunks.push(...toolChunks(part, decided));
        return;
      default:
        return;
    }
  });
  if (stepOpen) chunks.push({ type: "finish-step" });
  return chunks;
}

function toolChunks(part: UIMessageShape["parts"][number], decided: ReadonlySet<string>): UIStreamChunk[] {
  const toolCallId = String(part.toolCallId);
  const chunks: UIStreamChunk[] = [
    {
      type: "tool-input-available",
      toolCallId,
      toolName: String(part.toolName),
      input: part.input,
      dynamic: true,
    },
  ];
  if (part.state === "output-available")
    chunks.push({ type: "tool-output-available", toolCallId, output: part.output, dynamic: true });
  else if (part.state === "output-error")
    chunks.push({ type: "tool-output-error", toolCallId, errorText: String(part.errorText), dynamic: true });
  else if (part.state === "approval-requested" && !decided.has(toolCallId))
    chunks.push({ type: "tool-approval-request", approvalId: toolCallId, toolCallId });
  return chunks;
}
