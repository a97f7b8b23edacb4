/**
 * Which service a model client talks to, for tracing: the provider's name as OpenTelemetry's GenAI
 * conventions spell it (`gen_ai.provider.name`) and the server's host and port.
 * @module
 */

/** The service behind a {@link ModelClient}, as far as the client knows it. */
export interface ModelEndpoint {
  /** The provider, e.g. `"anthropic"`, `"deepseek"`; `"anthropic"` when only the API spoken is known. */
  readonly providerName: string;
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
