/**
 * toNodeHandler over real loopback HTTP: every response header the Web handler set reaches the
 * client (each cookie too), and a response Node cannot write — a header value it refuses — ends as
 * a 500, with the handler's body cancelled, instead of an unhandled rejection.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { toNodeHandler } from "../../src/ui/index";

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

async function serve(handler: (request: Request) => Promise<Response>): Promise<string> {
  const server = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** A GET with node:http, which keeps repeated headers (`set-cookie`) as Node received them. */
function get(url: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** Collects unhandled rejections while `run` goes on. */
async function unhandledDuring(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => {
    seen.push(reason);
  };
  process.on("unhandledRejection", listener);
  try {
    await run();
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    process.off("unhandledRejection", listener);
  }
  return seen;
}

describe("toNodeHandler", () => {
  it("passes every cookie the handler set, not only the last", async () => {
    const url = await serve(async () => {
      const headers = new Headers({ "content-type": "text/plain" });
      headers.append("set-cookie", "a=1; Path=/; HttpOnly");
      headers.append("set-cookie", "b=2; Path=/; HttpOnly");
      return new Response("ok", { status: 200, headers });
    });
    const reply = await get(url);
    expect(reply.status).toBe(200);
    expect(reply.headers["set-cookie"]).toEqual(["a=1; Path=/; HttpOnly", "b=2; Path=/; HttpOnly"]);
    expect(reply.body).toBe("ok");
  });

  it("answers 500 and cancels the body when Node refuses a header value", async () => {
    let cancelled = false;
    const url = await serve(async () => {
      const body = new ReadableStream<Uint8Array>({
        pull: () => new Promise<void>(() => {}),
        cancel: () => {
          cancelled = true;
        },
      });
      // The Fetch Headers accept a control character (DEL) in a value; Node's writeHead does not.
      return new Response(body, { status: 200, headers: { "x-title": "draft\x7f1" } });
    });
    let reply: Reply | undefined;
    const unhandled = await unhandledDuring(async () => {
      reply = await get(url);
    });
    expect(unhandled).toEqual([]);
    expect(reply?.status).toBe(500);
    expect(JSON.parse(reply?.body ?? "{}")).toEqual({
      error: { code: "internal_error", message: "The server failed to handle the request" },
    });
    expect(cancelled).toBe(true);
  });

  it("answers 400 to a Host that makes no URL", async () => {
    const url = await serve(async () => new Response("never"));
    const reply = await new Promise<Reply>((resolve, reject) => {
      const req = httpRequest(url, { headers: { host: "[" } }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => {
          body += chunk.toString("utf8");
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toContain("bad_request");
  });
});
