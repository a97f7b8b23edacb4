/**
 * The workspace: turns paths the model writes into physical paths confined to the root, and
 * physical paths back into the root-relative form the model reads.
 * @module
 */
import path from "node:path";
import { AgentLatticeError } from "../errors";
import type { WorkspaceSettings } from "./options";
import { resolveRealPath, SymbolicLinkLoopError } from "./real-path";

/** A path the model asked for that is not allowed or cannot be resolved. Its message names the path. */
export class WorkspacePathError extends AgentLatticeError {
  /** The path as the model wrote it. */
  readonly requestedPath: string;
  constructor(requestedPath: string, message: string) {
    super(message);
    this.requestedPath = requestedPath;
  }
}

/** A path inside the workspace. */
export interface WorkspacePath {
  /** Physical absolute path, symbolic links resolved: what file system calls use. */
  absolute: string;
  /** Root-relative physical path with `/` separators (`.` for the root): what the model reads. */
  display: string;
}

/** Path confinement for one root. */
export interface Workspace {
  readonly settings: WorkspaceSettings;
  /**
   * Resolves a path the model wrote (relative to the root, or absolute inside it). Throws
   * {@link WorkspacePathError} for a path outside the root — through `..`, as an absolute path, or
   * through a symbolic link — and for a symbolic link loop. This check is by name: the path may
   * change before it is opened, so open it through `confined-open`, which verifies the descriptor.
   */
  resolve(requestedPath: string): Promise<WorkspacePath>;
  /** The root-relative form of a physical path inside the root. */
  display(absolute: string): string;
}

/** Creates the {@link Workspace} of resolved settings. */
export function createWorkspace(settings: WorkspaceSettings): Workspace {
  const { lexicalRoot, realRoot } = settings;
  const display = (absolute: string) => toDisplayPath(relativeInside(realRoot, absolute) ?? absolute);

  async function resolve(requestedPath: string): Promise<WorkspacePath> {
    if (requestedPath.includes("\0"))
      throw new WorkspacePathError(requestedPath, "A path cannot contain NUL bytes.");
    const candidate = path.resolve(lexicalRoot, requestedPath);
    const inside = relativeInside(lexicalRoot, candidate) ?? relativeInside(realRoot, candidate);
    if (inside === undefined) throw outsideRootError(requestedPath, realRoot);
    let physical: string;
    try {
      physical = await resolveRealPath(path.join(realRoot, inside));
    } catch (error) {
      if (error instanceof SymbolicLinkLoopError) {
        throw new WorkspacePathError(
          requestedPath,
          `Path "${requestedPath}" cannot be resolved: it runs into a symbolic link loop.`,
        );
      }
      throw error;
    }
    if (relativeInside(realRoot, physical) === undefined) {
      throw new WorkspacePathError(
        requestedPath,
        `Path "${requestedPath}" goes through a symbolic link to ${physical}, which is outside the workspace root ${realRoot}. ` +
          "Only files inside the workspace can be used.",
      );
    }
    return { absolute: physical, display: display(physical) };
  }

  return { settings, resolve, display };
}

function outsideRootError(requestedPath: string, realRoot: string): WorkspacePathError {
  const how = path.isAbsolute(requestedPath) ? "is an absolute path outside" : 'climbs out (through "..") of';
  return new WorkspacePathError(
    requestedPath,
    `Path "${requestedPath}" ${how} the workspace root ${realRoot}. Use a path relative to the root, inside it.`,
  );
}

/** The path of `candidate` relative to `base`, or `undefined` when it is not inside `base` (or `base` itself). */
export function relativeInside(base: string, candidate: string): string | undefined {
  const relative = path.relative(base, candidate);
  if (relative === "") return "";
  if (path.isAbsolute(relative)) return undefined;
  if (relative === ".." || relative.startsWith(`..${path.sep}`)) return undefined;
  return relative;
}

function toDisplayPath(relative: string): string {
  if (relative === "") return ".";
  return path.sep === "/" ? relative : relative.split(path.sep).join("/");
}
