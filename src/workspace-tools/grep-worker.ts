/**
 * The regular-expression search of `grep`, in a worker thread. A pattern such as `(a+)+$` can
 * backtrack for minutes on one short line; run on the main thread it would block the event loop,
 * so neither the call's AbortSignal nor `toolTimeoutMs` could stop it. In a worker the process
 * stays responsive, and the worker is terminated when the call is aborted or ends.
 * @module
 */
import { Worker } from "node:worker_threads";
import { BINARY_SNIFF_BYTES } from "./text-file";

/** One matching line: its number, its text (at most `maxLineChars` of it) and its full length. */
export interface GrepLine {
  number: number;
  text: string;
  length: number;
}

/** What the search of one file found. */
export type FileSearchResult =
  | { binary: true }
  | { binary: false; matches: GrepLine[] /** more than `limit` lines matched */; more: boolean };

/** What the worker is asked, one file at a time: a descriptor the caller opened (and verified). */
interface SearchRequest {
  fd: number;
  limit: number;
}

/**
 * The worker's code, plain CommonJS evaluated by `new Worker(…, { eval: true })`, so it needs no
 * file of its own next to the bundle. Lines as `readTextLines` gives them: `\n` or `\r\n` ends a
 * line, an empty line after the last line ending does not count.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { readFileSync } = require("node:fs");
const expression = new RegExp(workerData.source, workerData.flags);
parentPort.on("message", ({ fd, limit }) => {
  let bytes;
  try {
    bytes = readFileSync(fd);
  } catch (error) {
    parentPort.postMessage({ error: { message: error.message, code: error.code, path: error.path } });
    return;
  }
  if (bytes.subarray(0, workerData.sniffBytes).includes(0)) {
    parentPort.postMessage({ binary: true });
    return;
  }
  const text = bytes.toString("utf8");
  const matches = [];
  let more = false;
  let number = 0;
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf("\\n", start);
    const end = newline === -1 ? text.length : newline;
    let line = text.slice(start, end);
    if (line.endsWith("\\r")) line = line.slice(0, -1);
    number++;
    start = end + 1;
    if (!expression.test(line)) continue;
    if (matches.length === limit) {
      more = true;
      break;
    }
    matches.push({ number, text: line.slice(0, workerData.maxLineChars), length: line.length });
  }
  parentPort.postMessage({ binary: false, matches, more });
});
`;

/** A worker searching files for one regular expression, one file at a time. */
export class GrepWorker {
  private readonly worker: Worker;
  private pending: { resolve(result: FileSearchResult): void; reject(error: unknown): void } | undefined;
  private failure: unknown;

  constructor(expression: RegExp, maxLineChars: number) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        source: expression.source,
        flags: expression.flags,
        maxLineChars,
        sniffBytes: BINARY_SNIFF_BYTES,
      },
    });
    this.worker.on("message", (message: FileSearchResult | { error: WorkerError }) => {
      const pending = this.take();
      if ("error" in message) pending?.reject(fileSystemError(message.error));
      else pending?.resolve(message);
    });
    this.worker.on("error", (error) => this.fail(error));
    this.worker.on("exit", (code) => this.fail(new Error(`the grep worker exited (code ${code})`)));
  }

  /**
   * Searches one open file, read from its start through `fd` (the caller keeps it open until this
   * settles); at most `limit` matching lines are returned. Rejects with the signal's reason when it
   * aborts, and the worker is then terminated (it may be deep in backtracking).
   */
  search(fd: number, limit: number, signal: AbortSignal): Promise<FileSearchResult> {
    signal.throwIfAborted();
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise<FileSearchResult>((resolve, reject) => {
      const onAbort = () => {
        this.fail(signal.reason);
        void this.worker.terminate();
      };
      signal.addEventListener("abort", onAbort, { once: true });
      const settle = () => signal.removeEventListener("abort", onAbort);
      this.pending = {
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      this.worker.postMessage({ fd, limit } satisfies SearchRequest);
    });
  }

  /** Stops the worker, whatever it is doing. */
  async close(): Promise<void> {
    this.failure ??= new Error("the grep worker was closed");
    await this.worker.terminate();
  }

  private take() {
    const pending = this.pending;
    this.pending = undefined;
    return pending;
  }

  private fail(error: unknown): void {
    this.failure ??= error;
    this.take()?.reject(error);
  }
}

interface WorkerError {
  message: string;
  code?: string;
  path?: string;
}

/** The worker's file system error as an error with `code` and `path`, as `fs` rejects with. */
function fileSystemError(error: WorkerError): NodeJS.ErrnoException {
  return Object.assign(new Error(error.message), { code: error.code, path: error.path });
}
