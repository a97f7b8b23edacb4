/** Types of fourth-queries.mjs, for the test that guards the floor on them. */
export declare const FOURTH_QUERIES: Array<{ query: string; tool: string; synonym?: true }>;
