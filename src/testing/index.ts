/**
 * `agent-lattice/testing`: the scripted model client and the mock Messages API server that our own
 * tests use, for testing your agents without a network.
 * @module
 */

export {
  defaultMinCacheableTokens,
  MockPromptCache,
  type MockPromptCacheOptions,
  type PromptCacheOutcome,
} from "./mock-prompt-cache";
export {
  type MockAnthropicServer,
  type MockAnthropicServerOptions,
  type MockRecordedRequest,
  startMockAnthropicServer,
} from "./mock-server";
export type { MockFault, MockHandler, MockResponse, MockStep } from "./mock-server-steps";
export { mockToolSearch } from "./mock-tool-search";
export {
  createScriptedClient,
  type ScriptedClient,
  type ScriptedClientOptions,
  type ScriptedResponse,
  type ScriptedStep,
  type WaitForRequestOptions,
} from "./scripted-client";
export { runHistoryStoreConformance } from "./store-conformance";
export type {
  ConformanceAssertion,
  ConformanceTestApi,
  HistoryStoreConformanceOptions,
  HistoryStoreFactory,
} from "./store-conformance-api";
