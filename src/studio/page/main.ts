/**
 * The studio page: routes `#/` (the list, with its filters in the hash) and `#/c/<source>/<id>`
 * (a conversation).
 * @module
 */
import { api } from "./api";
import { showConversation } from "./conversation-view";
import { el } from "./dom";
import { showEvalComparison, showEvalRun, showEvalRuns } from "./evals-view";
import { showList } from "./list-view";

let info: Promise<{ sources: string[]; canAct: boolean }>;
let leaving = new AbortController();

async function route(): Promise<void> {
  leaving.abort();
  leaving = new AbortController();
  const main = document.getElementById("main")!;
  document.getElementById("notice")!.textContent = "";
  const hash = location.hash.slice(1) || "/";
  const conversation = /^\/c\/(\d+)\/(.+)$/.exec(hash);
  try {
    if (hash.startsWith("/evals")) await showEvals(main, hash);
    else if (conversation)
      await showConversation(
        main,
        Number(conversation[1]),
        decodeURIComponent(conversation[2]!),
        info.then((known) => known.canAct),
        leaving.signal,
      );
    else
      await showList(main, Object.fromEntries(new URLSearchParams(hash.split("?")[1] ?? "")), leaving.signal);
  } catch (error) {
    main.replaceChildren(el("p", { class: "error", text: (error as Error).message }));
  }
}

/** `#/evals`, `#/evals/<source>/<run>`, `#/evals/<source>/<run>/vs/<source>/<run>` (evals-view.ts). */
async function showEvals(main: HTMLElement, hash: string): Promise<void> {
  const pair = /^\/evals\/(\d+)\/([^/]+)\/vs\/(\d+)\/([^/]+)$/.exec(hash);
  const one = /^\/evals\/(\d+)\/([^/]+)$/.exec(hash);
  if (pair)
    return showEvalComparison(
      main,
      [Number(pair[1]), decodeURIComponent(pair[2]!)],
      [Number(pair[3]), decodeURIComponent(pair[4]!)],
    );
  if (one) return showEvalRun(main, Number(one[1]), decodeURIComponent(one[2]!));
  return showEvalRuns(main);
}

async function start(): Promise<void> {
  // Asked for beside the first view's data, not before it: one round trip less to the first paint.
  info = api<{ sources: string[]; canAct: boolean }>("/api/info");
  void info.then((known) => {
    document.getElementById("sources")!.textContent = known.sources.join(" · ");
  });
  window.addEventListener("hashchange", () => void route());
  await route();
}

void start();
