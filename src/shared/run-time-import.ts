/**
 * Imports a module at run time, out of a bundler's sight. A literal `import("x")` is followed by
 * bundlers: bundled as one ES module file (esbuild's default for `--platform=neutral`), the lazily
 * loaded module's own static imports (`fs`, `child_process`, an optional peer) are hoisted to the
 * top of the bundle, and the bundle no longer loads where those do not exist (a worker, an edge
 * runtime). A specifier passed as a value is left alone: the module is resolved only when, and
 * only if, the code that needs it runs.
 *
 * A module registered under its specifier (`registerRunTimeModule`) is used instead of an import:
 * the way for a one-file bundle without `node_modules` to carry an optional part with it.
 * @module
 */

const REGISTRY = Symbol.for("agent-lattice.run-time-modules");

type Registry = Map<string, unknown>;

/** The registry, shared through `globalThis` by every copy of the package in the process (ESM, CJS, bundled). */
function registry(): Registry {
  const holder = globalThis as { [REGISTRY]?: Registry };
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

/** Registers `module` as what `importAtRunTime(specifier)` returns, in place of an import. */
export function registerRunTimeModule(specifier: string, module: unknown): void {
  registry().set(specifier, module);
}

/**
 * The module `specifier` names: the registered one, else a dynamic `import()` of it that bundlers
 * do not follow. Rejects as `import()` does when the module cannot be found.
 */
export function importAtRunTime<T>(specifier: string): Promise<T> {
  const registered = registry().get(specifier);
  if (registered !== undefined) return Promise.resolve(registered as T);
  return import(/* webpackIgnore: true */ /* @vite-ignore */ specifier) as Promise<T>;
}
