/**
 * `toNodeHandler`: a Web-standard handler served by `node:http` (or Express, Fastify's raw mode …).
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/**
 * Adapts `handler` to a `node:http` request listener. The request's body streams to the handler,
 * `request.signal` aborts when the client goes away, and the response body streams back (its
 * reading is cancelled when the client goes away). Each cookie of `Set-Cookie` goes out as its own
 * header. A handler that throws, or a response Node cannot write (a header value with a control
 * character), answers 500; the response's body is then cancelled.
 *
 * @example
 * createServer(toNodeHandler(createChatHandler({ agent }))).listen(3000, "127.0.0.1");
 */
export function toNodeHandler(
  handler: (request: Request) => Promise<Response>,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void serve(handler, req, res);
  };
}

async function serve(
  handler: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const gone = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  let request: Request;
  try {
    request = toRequest(req, gone.signal);
  } catch {
    // A request target or Host that makes no URL (`//[`, `Host: [`): the client's mistake.
    res.writeHead(400, { "content-type": "application/json" });
    res.end(
      JSON.stringify({ error: { code: "bad_request", message: "The request's URL or Host is not valid" } }),
    );
    return;
  }
  let response: Response;
  try {
    response = await handler(request);
  } catch {
    answerFailure(res);
    return;
  }
  try {
    res.writeHead(response.status, nodeHeaders(response.headers));
  } catch {
    // A header Node refuses (a control character in a value the Fetch Headers let through).
    void response.body?.cancel().catch(() => {});
    answerFailure(res);
    return;
  }
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  gone.signal.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res, gone.signal);
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    gone.signal.removeEventListener("abort", cancel);
  }
}

/** Answers 500 with the handler's failure kept to itself (its message may name what it holds). */
function answerFailure(res: ServerResponse): void {
  if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      error: { code: "internal_error", message: "The server failed to handle the request" },
    }),
  );
}

/** The response's headers for `writeHead`; each cookie its own `set-cookie` line. */
function nodeHeaders(headers: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  headers.forEach((value, key) => {
    if (key !== "set-cookie") out[key] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  return out;
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const host = req.headers.host ?? "localhost";
  const url = new URL(req.url ?? "/", `http://${host}`);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(key, one);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method ?? "GET",
    headers,
    signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  } as RequestInit);
}

function drained(res: ServerResponse, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      res.off("drain", done);
      signal.removeEventListener("abort", done);
      resolve();
    };
    res.on("drain", done);
    signal.addEventListener("abort", done, { once: true });
  });
}
