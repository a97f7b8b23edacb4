/**
 * `agent-lattice/ui`: agents on the web. A query's messages as the AI SDK's UI message stream
 * ({@link toUIMessageStream}, {@link toUIMessageStreamResponse}) — what `useChat` and
 * `readUIMessageStream` read — and a Web-standard chat endpoint that owns the conversation
 * ({@link createChatHandler}, {@link toNodeHandler} for `node:http` and Express). No React and no
 * `ai` runtime dependency: the chunk types are declared here.
 * @module
 */

export {
  type ChatErrorContext,
  type ChatErrorListener,
  type ChatErrorStage,
  logChatError,
} from "./chat-error-report";
export { type ChatHandler, createChatHandler } from "./chat-handler";
export {
  type ChatHandlerOptions,
  type ChatRefusal,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_MESSAGE_CHARS,
  DEFAULT_RECONNECT_GRACE_MS,
} from "./chat-handler-options";
export { type ChatRunLease, type ChatRunLock, createMemoryRunLock } from "./chat-run-lock";
export {
  type HistoryToUIOptions,
  historyToUIMessages,
  type UIMessagePartShape,
  type UIMessageShape,
} from "./history-to-ui";
export { toNodeHandler } from "./node-handler";
export { DEFAULT_ALLOWED_CONTENT_TYPES } from "./request-guard";
export { UI_MESSAGE_STREAM_HEADERS } from "./sse-encoding";
export {
  toUIMessageStream,
  toUIMessageStreamResponse,
  type UIMessageStreamOptions,
  type UIMessageStreamResponseOptions,
} from "./to-ui-message-stream";
export type {
  HandoffPart,
  LatticeMessageMetadata,
  SubagentProgress,
  UIFinishReason,
  UIStreamChunk,
} from "./ui-chunk";
