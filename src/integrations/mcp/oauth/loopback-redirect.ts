/**
 * The loopback listener that receives the authorization server's redirect (RFC 8252 §7.3): it
 * listens on 127.0.0.1 only, answers the redirect path alone, and hands over the code of a redirect
 * whose `state` matches the request it is waiting for. Once a code has come back it stops
 * listening; a later authorization (a refresh the server refused) listens again on the same port,
 * the one registered as the redirect URI.
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
  private listening = true;
  private closed = false;

  private constructor(
    private readonly server: Server,
    /** The redirect URI to register and send. */
    readonly url: string,
    private readonly path: string,
    private readonly host: string,
    private readonly port: number,
  ) {
    server.on("request", (request, response) => {
      const target = new URL(request.url ?? "/", "http://127.0.0.1");
      if (request.method !== "GET" || target.pathname !== this.path) {
        response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found.\n");
        return;
      }
      const outcome = this.settle(target.searchParams);
      response.writeHead(outcome.ok ? 200 : 400, {
        "content-type": "text/plain; charset=utf-8",
        connection: "close",
      });
      response.end(`${outcome.text}\n`);
      // The code is in: nothing more to receive until another authorization starts.
      if (outcome.ok) response.on("finish", () => void this.stopListening());
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
    const address = host === "localhost" ? "127.0.0.1" : host;
    await listen(server, Number(wanted.port || 0), address);
    const { port } = server.address() as AddressInfo;
    const url = new URL(wanted);
    url.port = String(port);
    return new LoopbackRedirect(server, url.toString(), wanted.pathname, address, port);
  }

  /** Whether the listener accepts connections now. */
  get isListening(): boolean {
    return this.listening;
  }

  /**
   * Listens again (on the same port) for the next redirect, if a code came back before.
   * @throws Error when the port was taken meanwhile
   */
  async ready(): Promise<void> {
    if (this.listening || this.closed) return;
    try {
      await listen(this.server, this.port, this.host);
    } catch (error) {
      throw new Error(
        `The redirect URI's port ${this.port} is taken: the listener for the authorization redirect cannot open again (${(error as Error).message}).`,
      );
    }
    this.listening = true;
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

  /** Stops listening for good; a wait in progress rejects. */
  async close(): Promise<void> {
    this.closed = true;
    this.waiter?.reject(new Error("The MCP connection closed before authorization finished."));
    this.waiter = undefined;
    await this.stopListening();
  }

  private async stopListening(): Promise<void> {
    if (!this.listening) return;
    this.listening = false;
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

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      server.unref();
      resolve();
    });
  });
}
