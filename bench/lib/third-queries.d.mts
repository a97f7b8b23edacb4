/** Types of third-queries.mjs, for the test that guards the floor on them. */
export declare const THIRD_QUERIES: Array<{ query: string; tool: string; synonym?: true }>;
