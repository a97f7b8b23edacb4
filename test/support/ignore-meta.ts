/**
 * A vitest equality tester for history messages: when exactly one of two compared messages has a
 * `meta` (what the SDK records beside a message and never sends: a prompt's checkpoint id, its
 * timestamp, a turn's timings), they are compared without it. Tests written before `meta` existed
 * keep comparing role and content; a test that states a `meta` on both sides still compares it.
 * Registered for every test file by vitest.config.ts (`setupFiles`).
 */
import { expect } from "vitest";

type Tester = Parameters<typeof expect.addEqualityTesters>[0][number];
type TesterContext = ThisParameterType<Tester>;

function isMessage(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const role = (value as { role?: unknown }).role;
  return (role === "user" || role === "assistant") && "content" in value;
}

function withoutMeta(message: Record<string, unknown>): Record<string, unknown> {
  const { meta: _meta, ...rest } = message;
  return rest;
}

expect.addEqualityTesters([
  function equalIgnoringOneSidedMeta(this: TesterContext, a: unknown, b: unknown, testers: Tester[]) {
    if (!isMessage(a) || !isMessage(b)) return undefined;
    const aHas = a.meta !== undefined;
    const bHas = b.meta !== undefined;
    if (aHas === bHas) return undefined;
    return this.equals(aHas ? withoutMeta(a) : a, bHas ? withoutMeta(b) : b, testers);
  },
]);
