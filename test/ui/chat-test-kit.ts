/**
 * A chat endpoint served over real HTTP (`toNodeHandler` on a loopback port) and a client that
 * talks to it the way `useChat` does: `ai`'s own `DefaultChatTransport` builds the requests and
 * parses the stream, `readUIMessageStream` builds the message.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { onTestFinished } from "vitest";
import {
  type ChatHandler,
  type ChatHandlerOptions,
  createChatHandler,
  toNodeHandler,
} from "../../src/ui/index";
import { expectValidChunks } from "./ui-test-kit";

/** A running endpoint. */
export interface ChatEndpoint {
  /** The chat route, e.g. `http://127.0.0.1:41234/api/chat`. */
  api: string;
  handler: ChatHandler;
  transport: DefaultChatTransport<UIMessage>;
  /** Stops serving (live runs are interrupted). */
  close(): Promise<void>;
}

/** Serves `createChatHandler(options)` at `/api/chat` on a free loopback port, closed after the test. */
export async function serveChat(options: ChatHandlerOptions): Promise<ChatEndpoint> {
  const handler = createChatHandler(options);
  const server: Server = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handler.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  onTestFinished(close);
  return { api, handler, transport: new DefaultChatTransport({ api }), close };
}

/** A user message as useChat makes it. */
export function userMessage(text: string, id = `u-${Math.random().toString(36).slice(2)}`): UIMessage {
  return { id, role: "user", parts: [{ type: "text", text }] };
}

/** Reads a chunk stream to its end: the chunks (each checked against ai's schema) and the message they build. */
export async function readReply(
  stream: ReadableStream<UIMessageChunk>,
  message?: UIMessage,
): Promise<{ chunks: UIMessageChunk[]; message: UIMessage; errors: unknown[] }> {
  const chunks: UIMessageChunk[] = [];
  const errors: unknown[] = [];
  const recorded = stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(chunk, controller) {
        chunks.push(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
  let last: UIMessage | undefined;
  for await (const state of readUIMessageStream({
    stream: recorded,
    message: message === undefined ? undefined : structuredClone(message),
    onError: (error) => errors.push(error),
    terminateOnError: false,
  })) {
    last = state;
  }
  await expectValidChunks(chunks);
  if (last === undefined) throw new Error("the stream built no message");
  return { chunks, message: structuredClone(last), errors };
}

/** Starts sending `messages` like useChat (`submit-message`): the reply's chunks, unread. */
export function startSending(
  endpoint: ChatEndpoint,
  chatId: string,
  messages: UIMessage[],
  options: { abortSignal?: AbortSignal; body?: object } = {},
): Promise<ReadableStream<UIMessageChunk>> {
  return endpoint.transport.sendMessages({
    chatId,
    messages,
    trigger: "submit-message",
    messageId: undefined,
    abortSignal: options.abortSignal,
    ...(options.body === undefined ? {} : { body: options.body }),
  });
}

/** Sends `messages` like useChat (`submit-message`) and reads the whole reply. */
export async function send(
  endpoint: ChatEndpoint,
  chatId: string,
  messages: UIMessage[],
  options: { abortSignal?: AbortSignal; continuing?: UIMessage } = {},
): Promise<{ chunks: UIMessageChunk[]; message: UIMessage; errors: unknown[] }> {
  const stream = await startSending(endpoint, chatId, messages, { abortSignal: options.abortSignal });
  return readReply(stream, options.continuing);
}

/** useChat's `submit-message` body for one user message, as JSON (for requests built by hand). */
export function submitMessageBody(conversationId: string, text: string): string {
  return JSON.stringify({
    id: conversationId,
    trigger: "submit-message",
    messages: [{ id: `u-${text}`, role: "user", parts: [{ type: "text", text }] }],
  });
}

/** POSTs a raw body to the endpoint. */
export function post(
  endpoint: ChatEndpoint,
  body: string | object,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(endpoint.api, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The text of a message's text parts. */
export function textOf(message: UIMessage): string {
  return message.parts
    .filter((part) => part.type === "text")
    .map((part) => (part as { text: string }).text)
    .join("");
}
