/**
 * `startStudio`: a `node:http` server on loopback that serves the studio page (static files built
 * into the package, no CDN) and its JSON API over one or more history stores.
 * @module
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HistoryStore } from "../index";
import { redactUrl, withInspectForm } from "../shared/inspect-form";
import { StudioActions, type StudioAgentFactory } from "./actions";
import { answerApi } from "./api";
import { Catalog, type RunningCheck } from "./catalog";
import { locationSource } from "./location-source";
import { hostNamesFor, newToken, RequestGuard } from "./request-guard";
import { type StudioSource, storeSource } from "./source";

/** The address the studio binds unless told otherwise: loopback only. */
export const DEFAULT_STUDIO_HOST = "127.0.0.1";

/** Options of {@link startStudio}. Give `store` or `stores`. */
export interface StudioOptions {
  /** One store object, or a location: a JSONL file or folder, `sqlite:<file>`, `postgres://…`, `redis://…`. */
  store?: HistoryStore | string;
  /** Several, shown together. */
  stores?: Array<HistoryStore | string>;
  /** The port; 0 picks a free one. @default 0 */
  port?: number;
  /**
   * The address to bind. Anything but loopback exposes the studio to the network: the token still
   * guards it, but it travels in plain HTTP, so anyone on the path can read it. Such a studio warns
   * once at start (`onWarning`). @default "127.0.0.1"
   */
  host?: string;
  /**
   * Where the studio's one warning goes (a host other than loopback). @default writes it to
   * `process.stderr`
   */
  onWarning?: (message: string) => void;
  /**
   * Builds the agent of a conversation. With it the studio can act: approve or deny pending calls
   * and answer MCP servers' pending questions (resuming through `agent.prompt({ approvals, inputs })`)
   * and fork a conversation. Without it, it only reads.
   */
  createAgent?: StudioAgentFactory;
  /**
   * Tells whether a run holds a conversation now — what the stores cannot say beyond run claims
   * (they keep history, and the claims of runs that take one, as `createChatHandler`'s do): for
   * example the lease of a fleet worker, or a map of the host process's running agents. With it,
   * the status `running` is this answer (beside the studio's own resumes and live run claims)
   * rather than "written in the last minute". A check that throws counts as "cannot tell".
   */
  isRunning?: (conversation: { conversationId: string; source: string }) => boolean | Promise<boolean>;
}

/** A running studio. */
export interface Studio {
  /** The page's address, with its token: `http://127.0.0.1:<port>/?token=…`. Anyone with it can read every conversation. */
  url: string;
  /** Stops the server and closes the connections the studio opened. */
  close(): Promise<void>;
}

/**
 * Starts the studio: a page listing the conversations of `store(s)`, each as a timeline of turns
 * with latency, tokens, cost, tool calls and charts, updated live.
 *
 * @example
 * import { startStudio } from "agent-lattice/studio";
 * const studio = await startStudio({ store: ".agent-sessions" });
 * console.log(`Open ${studio.url}`);
 */
export async function startStudio(options: StudioOptions): Promise<Studio> {
  const given = options.stores ?? (options.store !== undefined ? [options.store] : []);
  if (given.length === 0) throw new TypeError("startStudio needs `store` or `stores`.");
  const host = options.host ?? DEFAULT_STUDIO_HOST;
  const warning = exposureWarning(host);
  const sources: StudioSource[] = [];
  try {
    for (const [index, store] of given.entries())
      sources.push(typeof store === "string" ? await locationSource(store) : storeSource(store, index));
  } catch (error) {
    await Promise.all(sources.map((source) => source.close()));
    throw error;
  }
  const page = await loadPage();
  const token = newToken();
  const actions = options.createAgent ? new StudioActions(options.createAgent) : undefined;
  const running = runningCheck(sources, actions, options.isRunning);
  const context = { sources, catalog: new Catalog(sources, running), running, actions };
  let guard: RequestGuard | undefined;
  const server = createServer((request, response) => {
    void handle(request, response, guard!, context, page, token);
  });
  await listen(server, options.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  guard = new RequestGuard(token, hostNamesFor(host, port));
  const shownHost =
    host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}/?token=${token}`;
  if (warning) (options.onWarning ?? ((message) => process.stderr.write(`${message}\n`)))(warning);
  const studio: Studio = {
    url,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await Promise.all(sources.map((source) => source.close()));
    },
  };
  // A logged studio shows its address, not its token (which reads every conversation).
  return withInspectForm(studio, () => `Studio { url: ${JSON.stringify(redactUrl(url))} }`);
}

/** The loopback names: a studio bound to another address is reachable from other machines. */
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** What a studio bound to `host` says once at start, when the address is not loopback. */
export function exposureWarning(host: string): string | undefined {
  if (LOOPBACK.has(host.toLowerCase())) return undefined;
  return `Warning: the studio listens on ${host}, reachable from other machines, in plain HTTP: its token travels unencrypted and anyone with the URL can read every conversation. Bind 127.0.0.1 (the default) and reach it through an SSH tunnel or a TLS proxy instead.`;
}

/** The page's files, read once at start. */
interface PageFiles {
  html: string;
  script: string;
  style: string;
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  guard: RequestGuard,
  context: Parameters<typeof answerApi>[0],
  page: PageFiles,
  token: string,
): Promise<void> {
  // A request target that is no URL path (`//[`) is the client's mistake: 400, never a crash.
  const url = URL.canParse(request.url ?? "/", "http://studio.invalid")
    ? new URL(request.url ?? "/", "http://studio.invalid")
    : undefined;
  if (url === undefined)
    return send(response, 400, "application/json", JSON.stringify({ error: "Bad request target." }));
  const refusal = guard.check(request, url);
  if (refusal)
    return send(response, refusal.status, "application/json", JSON.stringify({ error: refusal.reason }));
  if (url.pathname.startsWith("/api/")) {
    const answer = await answerApi(context, request, url);
    return send(response, answer.status, "application/json", JSON.stringify(answer.body));
  }
  if (request.method !== "GET") return send(response, 405, "text/plain", "Method not allowed.");
  if (url.pathname === "/") return send(response, 200, "text/html", page.html.replaceAll("__TOKEN__", token));
  if (url.pathname === "/app.js") return send(response, 200, "text/javascript", page.script);
  if (url.pathname === "/app.css") return send(response, 200, "text/css", page.style);
  return send(response, 404, "text/plain", "Not found.");
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, {
    "content-type": `${type}; charset=utf-8`,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "content-security-policy":
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  });
  response.end(body);
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** The built page: beside this module in the package (dist/studio-page), or in dist/ when run from src/. */
async function loadPage(): Promise<PageFiles> {
  const here = typeof __dirname === "string" ? __dirname : dirname(fileURLToPath(import.meta.url));
  // dist/ (the library), dist/cli/ (the command's bundle), src/studio/ (tests, after a build).
  for (const folder of [
    join(here, "studio-page"),
    join(here, "../studio-page"),
    join(here, "../../dist/studio-page"),
  ]) {
    try {
      const [html, script, style] = await Promise.all(
        ["index.html", "app.js", "app.css"].map((name) => readFile(join(folder, name), "utf8")),
      );
      return { html: html!, script: script!, style: style! };
    } catch {}
  }
  throw new Error(
    "The studio page is missing from the package (dist/studio-page): rebuild it with `npm run build`.",
  );
}

/**
 * Whether a run holds a conversation: this studio's own action on it, else a live run claim in the
 * store (`isRunClaimed()`, a read of one claim record: a file, a row, a key), else `isRunning`'s
 * answer. A claim that cannot be read counts as "cannot tell".
 */
function runningCheck(
  sources: readonly StudioSource[],
  actions: StudioActions | undefined,
  isRunning: StudioOptions["isRunning"],
): RunningCheck {
  return async (source, conversationId) => {
    if (actions?.busy(conversationId)) return "studio";
    if (await isClaimed(sources[source]!, conversationId)) return "run claim";
    if (!isRunning) return undefined;
    try {
      return (await isRunning({ conversationId, source: sources[source]!.label })) ? "isRunning" : undefined;
    } catch {
      return undefined;
    }
  };
}

/** Whether the conversation's store has a live run claim; false when it has no claims or cannot tell. */
async function isClaimed(source: StudioSource, conversationId: string): Promise<boolean> {
  try {
    const store = source.open(conversationId);
    return (await store.isRunClaimed?.()) === true;
  } catch {
    return false;
  }
}
