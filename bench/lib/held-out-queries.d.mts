/** Types of held-out-queries.mjs, for the test that guards the floor on them. */
export declare const HELD_OUT_QUERIES: Array<{ query: string; tool: string; synonym?: true }>;
