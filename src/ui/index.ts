/**
 * `agent-lattice/ui`: agents on the web. A query's messages as the AI SDK's UI message stream
 * ({@link toUIMessageStream}, {@link toUIMessageStreamResponse}) — what `useChat` and
 * `readUIMessageStream` read — and a Web-standard chat endpoint that owns the conversation
 * ({@link createChatHandler}, {@link toNodeHandler} for `node:http` and Express). No React and no
 * `ai` runtime dependency: the chunk types are declared here.
 * @module
 */

export { UI_MESSAGE_STREAM_HEADERS } from "./sse-encoding";
export {
  toUIMessageStream,
  toUIMessageStreamResponse,
  type UIMessageStreamOptions,
  type UIMessageStreamResponseOptions,
} from "./to-ui-message-stream";
export type { LatticeMessageMetadata, SubagentProgress, UIFinishReason, UIStreamChunk } from "./ui-chunk";
