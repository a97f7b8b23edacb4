/**
 * The chat endpoint's defaults against requests from other sites. A page on another origin can
 * send a "simple" request (a `text/plain` POST, `no-cors`, no preflight) and the browser attaches
 * the user's cookies to it: the endpoint refuses such requests before anything else happens.
 * - Cross-site: a request whose `Origin` is not the request's own host (scheme ignored: a proxy
 *   that ends TLS changes it), or that the browser marks `Sec-Fetch-Site: cross-site`, answers 403
 *   `cross_site_request` — unless its origin is listed in `allowedOrigins` (`"*"`: any).
 * - Content type: a POST body must be one of `allowedContentTypes` (default `application/json`,
 *   what `useChat` sends), else 415 `unsupported_media_type`; the stop route may have no body.
 * @module
 */
import { InvalidOptionError } from "../index";
import { ChatRequestError } from "./chat-errors";

/** The media types a POST body is accepted as, unless told otherwise: what `useChat` sends. */
export const DEFAULT_ALLOWED_CONTENT_TYPES: readonly string[] = ["application/json"];

/** What a route takes as a body. */
export type BodyRule = "json" | "none-or-json" | "none";

/** The endpoint's site and content-type checks. */
export class RequestGuard {
  private readonly anyOrigin: boolean;
  private readonly origins: ReadonlySet<string>;
  private readonly contentTypes: ReadonlySet<string>;

  constructor(allowedOrigins: readonly string[] = [], allowedContentTypes = DEFAULT_ALLOWED_CONTENT_TYPES) {
    if (!Array.isArray(allowedOrigins) || !Array.isArray(allowedContentTypes))
      throw new InvalidOptionError(
        "createChatHandler: allowedOrigins and allowedContentTypes are arrays of strings.",
      );
    this.anyOrigin = allowedOrigins.includes("*");
    this.origins = new Set(allowedOrigins.filter((origin) => origin !== "*").map(normalOrigin));
    this.contentTypes = new Set(allowedContentTypes.map((type) => String(type).trim().toLowerCase()));
  }

  /** @throws ChatRequestError 403 for a request from another site whose origin is not listed */
  checkSite(request: Request): void {
    if (!this.anyOrigin && this.isCrossSite(request))
      throw new ChatRequestError(
        403,
        "cross_site_request",
        "Requests from another site are refused (list the page's origin in allowedOrigins)",
      );
  }

  /** @throws ChatRequestError 415 for a body sent as another type than the route takes */
  checkBody(request: Request, body: BodyRule): void {
    if (body === "none") return;
    const type = request.headers.get("content-type");
    if (type === null && body === "none-or-json") return;
    const media = (type ?? "").split(";", 1)[0]!.trim().toLowerCase();
    if (!this.contentTypes.has(media))
      throw new ChatRequestError(
        415,
        "unsupported_media_type",
        `Send the body as ${[...this.contentTypes].join(" or ") || "nothing"}`,
      );
  }

  private isCrossSite(request: Request): boolean {
    const origin = request.headers.get("origin");
    if (origin !== null) {
      if (this.origins.has(origin.toLowerCase())) return false;
      return origin === "null" || hostOf(origin) !== hostOf(request.url);
    }
    return request.headers.get("sec-fetch-site") === "cross-site";
  }
}

/** `https://App.example.com:443/` → `https://app.example.com`: how browsers write an Origin. */
function normalOrigin(origin: string): string {
  if (origin === "null") return origin;
  try {
    const url = new URL(origin);
    if (url.origin !== "null") return url.origin.toLowerCase();
  } catch {}
  throw new InvalidOptionError(
    `createChatHandler: allowedOrigins holds ${JSON.stringify(String(origin)).slice(0, 80)}, not an origin (https://host[:port]) or "*".`,
  );
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return undefined;
  }
}
