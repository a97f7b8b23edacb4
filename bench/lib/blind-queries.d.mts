/** Types of blind-queries.mjs, for the test that guards the floor on them. */
export declare const BLIND_QUERIES: Array<{ query: string; tool: string; synonym?: true }>;
