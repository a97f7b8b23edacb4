/**
 * What the OAuth pause tests share: the app's callback URL, the person's browser, a model that
 * calls the protected tool, and the app's `mcpServers`.
 */
import { expect } from "vitest";
import type { McpServerConfig } from "../../../src/integrations/mcp/config";
import type { McpTokenStore } from "../../../src/integrations/mcp/oauth/auth-options";
import { createScriptedClient } from "../../../src/testing/scripted-client";

/** The app's own callback route: nothing listens there; the tests read the redirect's Location. */
export const CALLBACK = "https://app.example.com/oauth/callback";

/** The person's browser: opens the authorization URL; the server approves and redirects to the app. */
export async function followAuthorization(url: string): Promise<string> {
  const response = await fetch(url, { redirect: "manual" });
  expect(response.status).toBe(302);
  return response.headers.get("location")!;
}

/** Calls whoami once, then answers with what it said. */
export function whoamiModel() {
  return createScriptedClient((request) => {
    const results = request.messages.flatMap((message) =>
      Array.isArray(message.content) ? message.content.filter((block) => block.type === "tool_result") : [],
    );
    if (results.length === 0)
      return { content: [{ type: "tool_use", id: "toolu_1", name: "mcp__crm__whoami", input: {} }] };
    return { content: "You are an authorized user." };
  });
}

/** The `mcpServers` of the app: crm pauses for authorization, with `tokens` as its store. */
export function pausingServers(
  url: string,
  tokens: McpTokenStore,
  extra: { stateTtlMs?: number } = {},
): Record<string, McpServerConfig> {
  return {
    crm: {
      type: "http",
      url,
      auth: { redirect: "pause", redirectUri: CALLBACK, tokenStore: tokens, ...extra },
    },
  };
}
