/** Types of second-catalog.mjs, for the test that guards the floor on it. */
export declare function secondCatalog(): Array<{ name: string; description: string; inputSchema: Record<string, unknown> }>;
export declare const SECOND_QUERIES: Array<{ query: string; tool: string; synonym?: true }>;
