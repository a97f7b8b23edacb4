/** Builds the studio page into `outDir` (default dist/studio-page); resolves to the folder. */
export function buildStudioPage(outDir?: string): Promise<string>;
