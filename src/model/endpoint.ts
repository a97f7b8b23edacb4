/**
 * Which service a model client talks to, for tracing: the provider's name as OpenTelemetry's GenAI
 * conventions spell it (`gen_ai.provider.name`) and the server's host and port.
 * @module
 */
import { InvalidOptionError } from "../errors";

/**
 * What an endpoint runs beyond the portable Messages API. Unset, each follows the endpoint's host
 * (the Anthropic API, Bedrock and Vertex AI manage context; only the Anthropic API searches
 * tools); a gateway or proxy in front of the Anthropic API declares it, since its host says nothing.
 */
export interface ProviderFeatures {
  /**
   * Runs context editing, the native memory tool (`memory_20250818`) and server compaction
   * (`context_management`, `compact_20260112`) itself.
   */
  contextManagement: boolean;
  /** Searches deferred tools itself (`defer_loading`, `tool_search_tool_*`). */
  toolSearch: boolean;
}

/**
 * The provider profile a client declares for its endpoint: `"anthropic"` — everything the Anthropic
 * API runs (a gateway in front of it); `"portable"` — none of it, the SDK does the work on its side;
 * or each feature named (one left out follows the host).
 */
export type ProviderProfile = "anthropic" | "portable" | Partial<ProviderFeatures>;

/** Every provider profile's name and feature key, for option checks. */
export const PROVIDER_PROFILE_KEYS: readonly string[] = ["contextManagement", "toolSearch"];

/** The service behind a {@link ModelClient}, as far as the client knows it. */
export interface ModelEndpoint {
  /** The provider, e.g. `"anthropic"`, `"deepseek"`; `"anthropic"` when only the API spoken is known. */
  readonly providerName: string;
  /**
   * The features its client declared (`providerProfile`); a feature not declared follows the host
   * (see `honoursContextManagement`, `providerSearchesTools`).
   */
  readonly features?: Partial<ProviderFeatures>;
  /** Host name of the server (`server.address`). */
  readonly address?: string;
  /** Port of the server (`server.port`). */
  readonly port?: number;
}

/** The Anthropic API, where a client without `baseURL` sends its requests. */
export const ANTHROPIC_API_URL = "https://api.anthropic.com";

/** Hosts of the Anthropic-compatible endpoints documented in providers.md, by provider. */
const PROVIDERS_BY_HOST: ReadonlyMap<string, string> = new Map([
  ["api.anthropic.com", "anthropic"],
  ["api.deepseek.com", "deepseek"],
  ["api.moonshot.ai", "moonshot"],
  ["api.moonshot.cn", "moonshot"],
  ["open.bigmodel.cn", "zhipu"],
  ["api.z.ai", "zhipu"],
  ["api.minimax.io", "minimax"],
  ["api.minimaxi.com", "minimax"],
]);

/** Hosts of the cloud platforms that serve Claude, by OpenTelemetry's provider name. */
const PLATFORMS_BY_HOST: ReadonlyArray<{ pattern: RegExp; providerName: string }> = [
  {
    pattern: /(^|\.)aiplatform(\.[a-z]+)?\.rep\.googleapis\.com$|(^|-)aiplatform\.googleapis\.com$/i,
    providerName: "gcp.vertex_ai",
  },
  { pattern: /^bedrock-runtime(-fips)?\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/i, providerName: "aws.bedrock" },
];

/**
 * How errors name the service at `endpoint`: "Anthropic API" for the Anthropic API itself, else
 * "Model provider" (a compatible endpoint, a proxy, a cloud platform, a local server).
 */
export function serviceLabelOf(endpoint: ModelEndpoint): string {
  return endpoint.address?.toLowerCase() === "api.anthropic.com" ? "Anthropic API" : "Model provider";
}

/**
 * How an error names the service that answered (or sent a malformed answer): "Anthropic API" for
 * the Anthropic API only; another endpoint by its host and port (`"Model provider
 * api.deepseek.com:443"`, a proxy, a local server), so the message points at the right server.
 */
export function errorSourceOf(endpoint: ModelEndpoint): string {
  const label = serviceLabelOf(endpoint);
  if (label === "Anthropic API" || endpoint.address === undefined) return label;
  return `${label} ${endpoint.address}${endpoint.port === undefined ? "" : `:${endpoint.port}`}`;
}

/**
 * The features `profile` declares (`undefined`: none, each follows the host).
 * @throws {InvalidOptionError} for a profile that is not `"anthropic"`, `"portable"` or an object of booleans.
 */
export function featuresOf(profile: ProviderProfile | undefined): Partial<ProviderFeatures> | undefined {
  if (profile === undefined) return undefined;
  if (profile === "anthropic") return { contextManagement: true, toolSearch: true };
  if (profile === "portable") return { contextManagement: false, toolSearch: false };
  const valid =
    typeof profile === "object" &&
    profile !== null &&
    !Array.isArray(profile) &&
    Object.entries(profile).every(
      ([key, value]) =>
        PROVIDER_PROFILE_KEYS.includes(key) && (value === undefined || typeof value === "boolean"),
    );
  if (!valid)
    throw new InvalidOptionError(
      'providerProfile must be "anthropic", "portable" or { contextManagement?: boolean, toolSearch?: boolean }.',
    );
  return { ...profile };
}

/**
 * Describes the endpoint at `baseURL`. A host not in the table (a proxy, a local server) is named
 * `"anthropic"`, the API it speaks; its address and port still tell which server it is.
 */
export function endpointOf(baseURL: string = ANTHROPIC_API_URL): ModelEndpoint {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return { providerName: "anthropic" }; // the first request reports the malformed URL
  }
  const address = url.hostname;
  const port = url.port ? Number(url.port) : url.protocol === "http:" ? 80 : 443;
  const providerName =
    PROVIDERS_BY_HOST.get(address.toLowerCase()) ??
    PLATFORMS_BY_HOST.find((platform) => platform.pattern.test(address))?.providerName ??
    "anthropic";
  return { providerName, address, port };
}
