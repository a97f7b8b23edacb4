/** Why dist/ (with `cliOnly`: dist/cli/) needs a build, or `undefined` when it is up to date. */
export function staleReason(cliOnly?: boolean): string | undefined;
/** Whether npm runs `prepare` for a developer's own `npm install` / `npm ci` in this clone. */
export function isDevelopmentInstall(env?: Record<string, string | undefined>): boolean;
