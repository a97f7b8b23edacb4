import type { MockHandler } from "agent-lattice/testing";

/** The example's rule-based model: the handler to give `startMockAnthropicServer({ handler })`. */
export function ruleModel(): MockHandler;
