/** Shared pieces of the subagent tests: a client that answers by system prompt, and message filters. */
import type { ModelRequest, SDKMessage } from "../../src/index";
import { createScriptedClient, type ScriptedClient, type ScriptedResponse } from "../../src/testing/index";

/** Answers each request with the handler registered for its system prompt ("" for none). */
export function routedClient(
  routes: Record<
    string,
    (request: ModelRequest) => ScriptedResponse | Error | Promise<ScriptedResponse | Error>
  >,
): ScriptedClient {
  return createScriptedClient((request) => {
    const system = typeof request.system === "string" ? request.system : "";
    const route = routes[system];
    if (!route) return new Error(`no route for the system prompt "${system}"`);
    return route(request);
  });
}

/** The number of tool results a request carries (how far its conversation is). */
export function resultsIn(request: ModelRequest): string[] {
  const texts: string[] = [];
  for (const message of request.messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type !== "tool_result") continue;
      const content = block.content;
      texts.push(
        typeof content === "string"
          ? content
          : (content ?? []).map((part) => (part.type === "text" ? part.text : "")).join(""),
      );
    }
  }
  return texts;
}

/** The first user prompt of a request, as text. */
export function firstPrompt(request: ModelRequest): string {
  const first = request.messages[0]!;
  if (typeof first.content === "string") return first.content;
  return first.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** The messages of the query itself (no parent_tool_use_id). */
export function own<T>(messages: SDKMessage<T>[]): SDKMessage<T>[] {
  return messages.filter((message) => message.parent_tool_use_id === undefined);
}

/** The messages a child of call `toolUseId` yielded. */
export function childOf<T>(messages: SDKMessage<T>[], toolUseId: string): SDKMessage<T>[] {
  return messages.filter((message) => message.parent_tool_use_id === toolUseId);
}
