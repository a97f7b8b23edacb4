import {
  BudgetExceededError,
  createAgent,
  createAnthropicClient,
  ProviderError,
  TimeoutError,
} from "../../../src/index";
import { startMockAnthropicServer } from "../../../src/testing/index";

const server = await startMockAnthropicServer({ responses: [{ fault: "status", status: 401 }] });
const agent = createAgent({
  model: "claude-sonnet-4-6",
  client: createAnthropicClient({ apiKey: "a-revoked-key", baseURL: server.url }),
});

const result = await agent.prompt("Hello");
switch (result.subtype) {
  case "success":
    console.log(result.result);
    break;
  case "error_during_execution":
    if (result.error instanceof ProviderError) {
      const { status, errorType, requestId, retryable } = result.error;
      // 401/403: fix the key or its permissions. 400/404: fix the request or the model id.
      // retryable: the retries were spent — try again later. requestId: quote it to the provider.
      console.log(status, errorType, requestId, retryable);
    }
    break;
  case "error_max_budget_usd":
    if (result.error instanceof BudgetExceededError) console.log(`spent $${result.error.spentUsd}`);
    break;
  case "error_timeout":
    if (result.error instanceof TimeoutError) console.log(`no answer within ${result.error.timeoutMs} ms`);
    break;
  default:
    console.log(result.subtype, result.error?.message);
}
await server.close();
