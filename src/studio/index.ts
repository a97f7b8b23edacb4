/**
 * `agent-lattice/studio`: a local page that shows every conversation of your history stores —
 * turns, tool calls, tokens, cache, cost and time, live — and, given `createAgent`, approves or
 * denies pending calls, answers MCP servers' pending questions and forks conversations. Serves on 127.0.0.1 with a random token.
 * @module
 */
export type { StudioAgentFactory } from "./actions";
export { DEFAULT_STUDIO_HOST, type Studio, type StudioOptions, startStudio } from "./start-studio";
export type { ConversationStatus, ConversationSummary } from "./summary";
