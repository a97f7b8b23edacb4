import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type Agent, createAgent } from "../../src/index";
import {
  type ChatErrorContext,
  type ChatRunLock,
  createMemoryRunLock,
  logChatError,
} from "../../src/ui/index";
import { mockServerPerTest } from "../support/mock-server";
import { post, send, serveChat, textOf, userMessage } from "./chat-test-kit";

const server = mockServerPerTest();
const CREDENTIAL = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";
const SECRET = "hunter2-the-lock-password";

function agent(): Agent<unknown> {
  return createAgent({ model: "claude-test", apiKey: "test-key", baseURL: server.url });
}

/** A memory lock whose leases free the conversation and then throw, like a store that went away mid-release. */
function lockThatFailsToRelease(): ChatRunLock {
  const inner = createMemoryRunLock();
  return {
    async acquire(conversationId) {
      const lease = await inner.acquire(conversationId);
      if (lease === undefined) return undefined;
      return {
        async release() {
          await lease.release();
          throw new Error(`lock store unreachable (auth ${SECRET}, key ${CREDENTIAL})`);
        },
      };
    },
  };
}

/** Unhandled rejections during a test: each would end a Node server. */
let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => void process.off("unhandledRejection", onUnhandled));

async function settle(): Promise<void> {
  for (let round = 0; round < 5; round++) await new Promise((resolve) => setImmediate(resolve));
}

describe("chat endpoint errors no client can be told about", () => {
  it("a lease whose release throws: the reply ends whole, onRunEnd runs, onError gets it redacted, nothing is left unhandled", async () => {
    const errors: Array<{ message: string; stack: string | undefined; context: ChatErrorContext }> = [];
    const ends: string[] = [];
    const endpoint = await serveChat({
      agent,
      lock: lockThatFailsToRelease(),
      secrets: [SECRET],
      onRunEnd: ({ conversationId }) => void ends.push(conversationId),
      onError: (error, context) => void errors.push({ message: error.message, stack: error.stack, context }),
    });
    server.enqueue({ content: "First answer." }, { content: "Second answer." });
    const first = await send(endpoint, "lease-fails", [userMessage("hello")]);
    expect(textOf(first.message)).toBe("First answer.");
    expect(first.chunks.at(-1)?.type).toBe("finish");
    // The next message is taken (the lock freed the conversation before it threw).
    const second = await send(endpoint, "lease-fails", [userMessage("again")]);
    expect(textOf(second.message)).toBe("Second answer.");
    await settle();
    expect(ends).toEqual(["lease-fails", "lease-fails"]);
    expect(errors.map((entry) => entry.context)).toEqual([
      { stage: "lease_release", conversationId: "lease-fails" },
      { stage: "lease_release", conversationId: "lease-fails" },
    ]);
    expect(errors[0]!.message).toContain("lock store unreachable");
    for (const { message, stack } of errors) {
      expect(`${message}\n${stack}`).not.toContain(SECRET);
      expect(`${message}\n${stack}`).not.toContain(CREDENTIAL);
    }
    expect(unhandled).toEqual([]);
  });

  it("an onRunEnd that throws is reported, not left to end the process; the conversation goes on", async () => {
    const errors: ChatErrorContext[] = [];
    const endpoint = await serveChat({
      agent,
      onRunEnd: () => {
        throw new Error("closing the agent failed");
      },
      onError: (_error, context) => void errors.push(context),
    });
    server.enqueue({ content: "One." }, { content: "Two." });
    expect(textOf((await send(endpoint, "end-throws", [userMessage("a")])).message)).toBe("One.");
    expect(textOf((await send(endpoint, "end-throws", [userMessage("b")])).message)).toBe("Two.");
    // The history route waits for the ended run: it answers, it does not fail.
    const history = await fetch(`${endpoint.api}/end-throws/messages`);
    expect(history.status).toBe(200);
    await settle();
    expect(errors).toEqual([
      { stage: "run_end", conversationId: "end-throws" },
      { stage: "run_end", conversationId: "end-throws" },
    ]);
    expect(unhandled).toEqual([]);
  });

  it("a run that cannot start keeps its 4xx and calls onRunEnd when the store's claim will not release", async () => {
    const ends: string[] = [];
    const endpoint = await serveChat({
      agent: () => {
        const made = agent();
        const claimRun = made.claimRun.bind(made);
        made.claimRun = async (options) => {
          const claim = await claimRun(options);
          if (claim === undefined) return undefined;
          return Object.assign(Object.create(claim) as typeof claim, {
            release: async () => {
              await claim.release();
              throw new Error("history database unreachable");
            },
          });
        };
        return made;
      },
      onRunEnd: ({ conversationId }) => void ends.push(conversationId),
      onError: () => {},
    });
    // Nothing to regenerate in a new conversation: the plan is refused after the claim was taken.
    const response = await post(endpoint, { id: "claim-fails", messages: [], trigger: "regenerate-message" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("nothing_to_regenerate");
    expect(ends).toEqual(["claim-fails"]);
    await settle();
    expect(unhandled).toEqual([]);
  });

  it("the internal error behind a 500 reaches onError redacted; the client gets the generic text", async () => {
    const errors: Array<{ message: string; context: ChatErrorContext }> = [];
    const endpoint = await serveChat({
      agent: () => {
        throw new Error(`cannot reach postgres://app:${SECRET}@db/app with ${CREDENTIAL}`);
      },
      secrets: [SECRET],
      onError: (error, context) => void errors.push({ message: error.message, context }),
    });
    const response = await post(endpoint, {
      id: "broken",
      messages: [userMessage("hi")],
      trigger: "submit-message",
    });
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(body).not.toContain("postgres");
    expect(errors).toHaveLength(1);
    expect(errors[0]!.context).toEqual({ stage: "request" });
    expect(errors[0]!.message).toContain("cannot reach postgres://app:");
    expect(errors[0]!.message).not.toContain(SECRET);
    expect(errors[0]!.message).not.toContain(CREDENTIAL);
  });

  it("by default, one redacted line on stderr; a listener that throws changes nothing", async () => {
    const lines: string[] = [];
    const spy = vi
      .spyOn(console, "error")
      .mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      const endpoint = await serveChat({ agent, lock: lockThatFailsToRelease(), secrets: [SECRET] });
      server.enqueue({ content: "Fine." });
      expect(textOf((await send(endpoint, "logged", [userMessage("x")])).message)).toBe("Fine.");
      await settle();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^agent-lattice\/ui: a run's lease would not release .*\(conversation logged\): /,
      );
      expect(lines[0]).not.toContain(SECRET);
      expect(lines[0]).not.toContain(CREDENTIAL);
    } finally {
      spy.mockRestore();
    }
    const throwing = await serveChat({
      agent,
      lock: lockThatFailsToRelease(),
      onError: () => {
        throw new Error("the listener itself fails");
      },
    });
    server.enqueue({ content: "Still fine." });
    expect(textOf((await send(throwing, "listener-throws", [userMessage("y")])).message)).toBe("Still fine.");
    await settle();
    expect(unhandled).toEqual([]);
    expect(typeof logChatError).toBe("function");
  });
});
