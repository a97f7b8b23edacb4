/**
 * Which endpoints run context editing (and server compaction) themselves: the per-provider
 * profile behind `where: "auto"`. The Anthropic API and the cloud platforms that serve Claude
 * (Amazon Bedrock, Google Vertex AI) honour the betas; DeepSeek, Moonshot, Zhipu, MiniMax and any
 * endpoint not known (a proxy, a local server) are treated as not honouring them, and the SDK does
 * the same work on its side.
 * @module
 */
import type { ModelEndpoint } from "./endpoint";

/** Where context is managed: by the provider, or by the SDK on the outgoing request. */
export type ContextManagementSide = "provider" | "client";

/** The providers (OpenTelemetry names, as {@link ModelEndpoint.providerName}) that honour the betas. */
const HONOURING_PLATFORMS: ReadonlySet<string> = new Set(["aws.bedrock", "gcp.vertex_ai"]);

/**
 * Whether the endpoint honours `context_management` (and `compact_20260112`): as its client's
 * `providerProfile` declared; else the Anthropic API (`api.anthropic.com`), Bedrock and Vertex AI
 * do, and every other endpoint, and a client that states no endpoint, is assumed not to.
 */
export function honoursContextManagement(endpoint: ModelEndpoint | undefined): boolean {
  if (!endpoint) return false;
  if (endpoint.features?.contextManagement !== undefined) return endpoint.features.contextManagement;
  if (HONOURING_PLATFORMS.has(endpoint.providerName)) return true;
  return endpoint.providerName === "anthropic" && endpoint.address?.toLowerCase() === "api.anthropic.com";
}

/**
 * The side that manages context for `where` on `endpoint`: `"provider"` and `"client"` as asked,
 * `"auto"` by the profile ({@link honoursContextManagement}).
 */
export function contextSideOf(
  where: "auto" | ContextManagementSide,
  endpoint: ModelEndpoint | undefined,
): ContextManagementSide {
  if (where !== "auto") return where;
  return honoursContextManagement(endpoint) ? "provider" : "client";
}
