/** One message: text, reasoning, tool calls (with approve/deny when one waits), subagent progress, and how the run ended. */
import type { DynamicToolUIPart, UIMessage } from "ai";

interface Metadata {
  end?: string;
  totalCostUsd?: number;
}

export function MessageView({
  message,
  onDecide,
}: {
  message: UIMessage;
  onDecide: (approvalId: string, approved: boolean) => void;
}) {
  const metadata = (message.metadata ?? {}) as Metadata;
  return (
    <article className={`message ${message.role}`} data-role={message.role}>
      {message.parts.map((part, index) => {
        const key = `${message.id}-${index}`;
        if (part.type === "text") return <p key={key}>{part.text}</p>;
        if (part.type === "reasoning") {
          return (
            <details key={key}>
              <summary>Thinking</summary>
              {part.text}
            </details>
          );
        }
        if (part.type === "dynamic-tool") return <ToolCard key={key} part={part} onDecide={onDecide} />;
        if (part.type === "data-subagent") {
          const data = part.data as { status: string; turns: number; text: string };
          return (
            <div key={key} className="subagent">
              subagent {data.status} · {data.turns} turns · {data.text}
            </div>
          );
        }
        return null;
      })}
      {metadata.end && metadata.end !== "success" && <p className="end">Run ended: {metadata.end}</p>}
    </article>
  );
}

function ToolCard({
  part,
  onDecide,
}: {
  part: DynamicToolUIPart;
  onDecide: (approvalId: string, approved: boolean) => void;
}) {
  return (
    <div className="tool" data-state={part.state} data-tool={part.toolName}>
      <div className="tool-head">
        <strong>{part.toolName}</strong> <code>{JSON.stringify(part.input ?? {})}</code>
        <span className="tool-state">{part.state}</span>
      </div>
      {part.state === "approval-requested" && (
        <div className="approval">
          <button type="button" onClick={() => onDecide(part.approval.id, true)}>
            Approve
          </button>
          <button type="button" onClick={() => onDecide(part.approval.id, false)}>
            Deny
          </button>
        </div>
      )}
      {part.state === "output-available" && <pre className="tool-output">{String(part.output)}</pre>}
      {part.state === "output-error" && <pre className="tool-error">{part.errorText}</pre>}
      {part.state === "output-denied" && <p className="tool-denied">Denied</p>}
    </div>
  );
}
