/** Types of tool-catalog.mjs, for the tests that read it. */
export declare function toolCatalog(): Array<{ name: string; description: string; inputSchema: Record<string, unknown> }>;
export declare const QUERIES: Array<[query: string, tool: string]>;
export declare function thousandTools(catalog?: ReturnType<typeof toolCatalog>): ReturnType<typeof toolCatalog>;
