/**
 * The loopback listener that receives the authorization server's redirect (RFC 8252 §7.3): it
 * listens on 127.0.0.1 only, answers the redirect path alone, and hands over the code of a redirect
 * whose `state` matches the request it is waiting for.
 * @module
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_MCP_REDIRECT_PATH } from "./auth-options";

interface Waiter {
  state: string;
  resolve(code: string): void;
  reject(error: Error): void;
}

/** A listener for one client's redirects. Open it with {@link LoopbackRedirect.open}. */
export class LoopbackRedirect {
  private waiter: Waiter | undefined;

  private constructor(
    private readonly server: Server,
    /** The redirect URI to register and send. */
    readonly url: string,
    private readonly path: string,
  ) {
    server.on("request", (request, response) => {
      const target = new URL(request.url ?? "/", "http://127.0.0.1");
      if (request.method !== "GET" || target.pathname !== this.path) {
        response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found.\n");
        return;
      }
      const outcome = this.settle(target.searchParams);
      response.writeHead(outcome.ok ? 200 : 400, { "content-type": "text/plain; charset=utf-8" });
      response.end(`${outcome.text}\n`);
    });
  }

  /**
   * Listens at `redirectUri` (an `http` loopback URL; its port may be 0) or at
   * `http://127.0.0.1:<free port>/callback`.
   * @throws Error when `redirectUri` is not an http URL on 127.0.0.1, [::1] or localhost
   */
  static async open(redirectUri?: string): Promise<LoopbackRedirect> {
    const wanted = new URL(redirectUri ?? `http://127.0.0.1:0${DEFAULT_MCP_REDIRECT_PATH}`);
    const host = wanted.hostname.replace(/^\[|\]$/g, "");
    if (wanted.protocol !== "http:" || !["127.0.0.1", "::1", "localhost"].includes(host)) {
      throw new Error("auth.redirectUri must be an http:// URL on 127.0.0.1, [::1] or localhost.");
    }
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(Number(wanted.port || 0), host === "localhost" ? "127.0.0.1" : host, () => resolve());
    });
    server.unref();
    const { port } = server.address() as AddressInfo;
    const url = new URL(wanted);
    url.port = String(port);
    return new LoopbackRedirect(server, url.toString(), wanted.pathname);
  }

  /**
   * Waits for the redirect carrying `state`; resolves with its code. A redirect with an `error`
   * rejects; `signal` ends the wait. One wait at a time: a new one replaces (and rejects) the last.
   */
  waitForCode(state: string, signal?: AbortSignal): Promise<string> {
    this.waiter?.reject(new Error("A newer authorization request replaced this one."));
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        this.waiter = undefined;
        reject(new Error("Waiting for the authorization redirect was aborted."));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      const done = () => signal?.removeEventListener("abort", onAbort);
      this.waiter = {
        state,
        resolve: (code) => {
          done();
          resolve(code);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
    });
  }

  /** Stops listening; a wait in progress rejects. */
  async close(): Promise<void> {
    this.waiter?.reject(new Error("The MCP connection closed before authorization finished."));
    this.waiter = undefined;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private settle(query: URLSearchParams): { ok: boolean; text: string } {
    const waiter = this.waiter;
    if (!waiter || query.get("state") !== waiter.state) {
      return { ok: false, text: "This authorization response was not expected (unknown state)." };
    }
    this.waiter = undefined;
    const error = query.get("error");
    const code = query.get("code");
    if (error !== null || code === null) {
      // The server's own words, without anything else from the query.
      const reason = error ?? "no code";
      waiter.reject(new Error(`The authorization server refused: ${reason.slice(0, 100)}.`));
      return { ok: false, text: "Authorization was refused. You can close this window." };
    }
    waiter.resolve(code);
    return { ok: true, text: "Authorization complete. You can close this window." };
  }
}
