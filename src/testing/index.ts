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
  type MockFault,
  type MockHandler,
  type MockRecordedRequest,
  type MockResponse,
  type MockStep,
  startMockAnthropicServer,
} from "./mock-server";
export { mockToolSearch } from "./mock-tool-search";
export {
  createScriptedClient,
  type ScriptedClient,
  type ScriptedClientOptions,
  type ScriptedResponse,
  type ScriptedStep,
  type WaitForRequestOptions,
} from "./scripted-client";
export {
  type ConformanceAssertion,
  type ConformanceTestApi,
  type HistoryStoreConformanceOptions,
  type HistoryStoreFactory,
  runHistoryStoreConformance,
} from "./store-conformance";
