/**
 * The request half of the built-in Anthropic client: a {@link ModelRequest} becomes the body of
 * `POST /v1/messages`, holding API fields only.
 * @module
 */
import type { MessageCreateParamsBase } from "@anthropic-ai/sdk/resources/messages/messages";
import type { ModelMessage } from "../messages/types";
import type { ModelRequest } from "./client";

/** The Messages API body, without `stream` (the caller sets it). */
export type AnthropicRequestBody = Omit<MessageCreateParamsBase, "stream">;

/**
 * Maps a request to the wire body: `maxTokens` → `max_tokens`, `outputFormat` →
 * `output_config.format` (without our `parse`), `system` and `tools` when present. Assistant
 * messages lose the metadata the SDK keeps beside them (`providerResponseId`, `model`, `usage`,
 * `stop_reason`); content blocks are passed by reference, not copied.
 */
export function toAnthropicRequestBody(request: ModelRequest): AnthropicRequestBody {
  const body: AnthropicRequestBody = {
    model: request.model,
    max_tokens: request.maxTokens,
    messages: request.messages.map(toWireMessage) as AnthropicRequestBody["messages"],
  };
  if (request.system !== undefined && request.system.length > 0) body.system = request.system;
  if (request.tools && request.tools.length > 0) body.tools = request.tools as AnthropicRequestBody["tools"];
  if (request.outputFormat) {
    body.output_config = { format: { type: "json_schema", schema: request.outputFormat.schema } };
  }
  return body;
}

/** A history message as the API accepts it: `role` and `content`, nothing else. */
function toWireMessage(message: ModelMessage): {
  role: ModelMessage["role"];
  content: ModelMessage["content"];
} {
  return { role: message.role, content: message.content };
}
