/**
 * Who may talk to the studio: a request must name the studio by a host it listens as (the `Host`
 * header — a DNS-rebinding page names its own domain), come from the studio's own page when a
 * browser says where it comes from (`Origin`, `Sec-Fetch-Site`), and carry the random token of the
 * printed URL: `?token=` for the page and its two files (the printed URL opens it), only the
 * `x-studio-token` header for the API — a token in an API URL would be written to proxy and server
 * logs and browser history at every poll, and a header cannot be set by another site's page
 * without a preflight the studio never grants.
 * @module
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { networkInterfaces } from "node:os";

/** The header the page sends its token in. */
export const TOKEN_HEADER = "x-studio-token";

/** A fresh token: 24 random bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(24).toString("base64url");
}

/** Why a request is refused, or `undefined` when it may go on. */
export interface Refusal {
  status: 401 | 403;
  reason: string;
}

/** The checks of one studio. `hosts` are the `host:port` names it answers to. */
export class RequestGuard {
  private readonly token: Buffer;

  constructor(
    token: string,
    private readonly hosts: ReadonlySet<string>,
  ) {
    this.token = Buffer.from(token);
  }

  /** Checks Host, Origin and the token (from the header; from the query too for the page and its files). */
  check(request: IncomingMessage, url: URL): Refusal | undefined {
    const host = (request.headers.host ?? "").toLowerCase();
    if (!this.hosts.has(host)) return { status: 403, reason: "Unknown Host header." };
    const origin = request.headers.origin;
    if (origin !== undefined && !this.isOwnOrigin(origin))
      return { status: 403, reason: "Cross-origin request." };
    const site = request.headers["sec-fetch-site"];
    if (site === "cross-site") return { status: 403, reason: "Cross-site request." };
    const inQuery = url.pathname.startsWith("/api/") ? null : url.searchParams.get("token");
    const given = request.headers[TOKEN_HEADER] ?? inQuery ?? "";
    if (typeof given !== "string" || !this.isToken(given))
      return {
        status: 401,
        reason: url.searchParams.has("token")
          ? `Missing or wrong token (the API takes it in the ${TOKEN_HEADER} header only).`
          : "Missing or wrong token.",
      };
    return undefined;
  }

  private isOwnOrigin(origin: string): boolean {
    try {
      const parsed = new URL(origin);
      return parsed.protocol === "http:" && this.hosts.has(parsed.host.toLowerCase());
    } catch {
      return false;
    }
  }

  private isToken(given: string): boolean {
    const candidate = Buffer.from(given);
    return candidate.length === this.token.length && timingSafeEqual(candidate, this.token);
  }
}

/** The `host:port` names a studio bound to `host` answers to. */
export function hostNamesFor(host: string, port: number): Set<string> {
  const names = new Set<string>();
  const add = (name: string) => names.add(`${name}:${port}`.toLowerCase());
  if (host === "127.0.0.1" || host === "localhost" || host === "::1") {
    add("127.0.0.1");
    add("localhost");
    add("[::1]");
  } else if (host === "0.0.0.0" || host === "::") {
    add("127.0.0.1");
    add("localhost");
    add("[::1]");
    for (const address of localAddresses()) add(address.includes(":") ? `[${address}]` : address);
  } else {
    add(host.includes(":") ? `[${host}]` : host);
  }
  return names;
}

function localAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address));
}
