/**
 * A chat page on `useChat` against `createChatHandler`: the server owns the conversation, so the
 * page loads it from `GET /api/chat/{id}/messages`, sends only its newest message, resumes a live
 * run after a reload (`resume: true`), and resends approval responses automatically.
 */
import { useChat } from "@ai-sdk/react";
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from "ai";
import { type FormEvent, useEffect, useState } from "react";
import { MessageView } from "./message-view";

function chatIdFromUrl(): string {
  const url = new URL(window.location.href);
  let id = url.searchParams.get("chat");
  if (!id) {
    id = crypto.randomUUID();
    url.searchParams.set("chat", id);
    window.history.replaceState(null, "", url);
  }
  return id;
}

export function App() {
  const [id] = useState(chatIdFromUrl);
  const [initial, setInitial] = useState<UIMessage[] | undefined>();
  useEffect(() => {
    void fetch(`/api/chat/${encodeURIComponent(id)}/messages`)
      .then((response) => response.json())
      .then((body: { messages: UIMessage[] }) => setInitial(body.messages));
  }, [id]);
  if (initial === undefined) return <p className="loading">Loading…</p>;
  return <Chat id={id} initialMessages={initial} />;
}

const transport = new DefaultChatTransport({
  api: "/api/chat",
  // The server keeps the history: send only the newest message (a prompt, or approval responses).
  prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => ({
    body: { id, messages: messages.slice(-1), trigger, messageId },
  }),
});

function Chat({ id, initialMessages }: { id: string; initialMessages: UIMessage[] }) {
  const { messages, sendMessage, status, stop, error, addToolApprovalResponse } = useChat({
    id,
    messages: initialMessages,
    transport,
    resume: true,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState("");
  const busy = status === "submitted" || status === "streaming";

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!input.trim() || busy) return;
    void sendMessage({ text: input });
    setInput("");
  }

  async function stopRun() {
    // Interrupt on the server at once, then stop reading (a reload would only detach).
    await fetch(`/api/chat/${encodeURIComponent(id)}/stop`, { method: "POST" });
    await stop();
  }

  return (
    <main data-status={status}>
      <header>
        <h1>agent-lattice</h1>
        <span className="status">{status}</span>
      </header>
      <section className="messages">
        {messages.map((message) => (
          <MessageView
            key={message.id}
            message={message}
            onDecide={(approvalId, approved) =>
              void addToolApprovalResponse({
                id: approvalId,
                approved,
                ...(approved ? {} : { reason: "Denied in the page" }),
              })
            }
          />
        ))}
      </section>
      {error && <p className="error">{error.message}</p>}
      <form onSubmit={submit}>
        <input
          value={input}
          onChange={(event) => setInput(event.target.value)}
          placeholder="Ask something…"
          aria-label="Message"
        />
        {busy ? (
          <button type="button" onClick={() => void stopRun()}>
            Stop
          </button>
        ) : (
          <button type="submit">Send</button>
        )}
      </form>
    </main>
  );
}
