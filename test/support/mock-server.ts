/**
 * A mock Messages API server for each test of a block: started before every test, closed after it
 * (hung connections included), so no test sees another's script or requests.
 */
import { afterEach, beforeEach } from "vitest";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing/index";

/**
 * Registers `beforeEach`/`afterEach` hooks in the calling block that start a fresh server (then
 * run `prepare`, e.g. to set a handler) and close it. The returned object stands for the running
 * test's server — `server.url`, `server.enqueue(…)`, `server.requests` — and throws when used
 * outside a test of the block.
 */
export function mockServerPerTest(prepare?: (server: MockAnthropicServer) => void): MockAnthropicServer {
  let current: MockAnthropicServer | undefined;
  beforeEach(async () => {
    current = await startMockAnthropicServer();
    prepare?.(current);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return new Proxy({} as MockAnthropicServer, {
    get(_target, property) {
      if (current === undefined)
        throw new Error("mockServerPerTest: the server exists only while a test of its block runs");
      const value: unknown = Reflect.get(current, property, current);
      return typeof value === "function" ? value.bind(current) : value;
    },
  });
}
