import { describe, expect, it } from "vitest";
import { CONVERSATIONS_IN_FLIGHT_KEPT, ConversationsInFlight } from "../../src/queue/conversations-in-flight";

describe("ConversationsInFlight", () => {
  it("holds a conversation while any of its jobs is in flight", () => {
    const inFlight = new ConversationsInFlight();
    expect(inFlight.has("c")).toBe(false);
    inFlight.add("c", "j1");
    inFlight.add("c", "j2");
    inFlight.add("c", "j2"); // counted once
    inFlight.end("j1");
    expect(inFlight.has("c")).toBe(true);
    inFlight.end("j2");
    expect(inFlight.has("c")).toBe(false);
    inFlight.end("unknown"); // another producer's job
    expect(inFlight.has("c")).toBe(false);
  });

  it("forgets the oldest jobs beyond its bound", () => {
    const inFlight = new ConversationsInFlight();
    inFlight.add("oldest", "j0");
    for (let n = 1; n <= CONVERSATIONS_IN_FLIGHT_KEPT; n++) inFlight.add(`c${n}`, `j${n}`);
    expect(inFlight.has("oldest")).toBe(false);
    expect(inFlight.has("c1")).toBe(true);
    expect(inFlight.has(`c${CONVERSATIONS_IN_FLIGHT_KEPT}`)).toBe(true);
  });
});
