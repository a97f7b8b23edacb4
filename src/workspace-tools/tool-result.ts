/**
 * Error results the model can act on, and the wrapper that turns failures into them.
 * @module
 */
import type { ToolOutput } from "../tools/tool";
import { type Workspace, WorkspacePathError } from "./workspace";

/** An error tool result carrying `message`. */
export function toolError(message: string): ToolOutput {
  return { content: message, isError: true };
}

/**
 * The refusal for a path that exists but is not a regular file (a device, socket or named pipe):
 * `"dev/null" is not a regular file (a device, socket or pipe); write_file writes regular files only.`
 */
export function notRegularFileMessage(display: string, toolDoes: string): string {
  return `"${display}" is not a regular file (a device, socket or pipe); ${toolDoes} regular files only.`;
}

/**
 * Runs a tool body and returns its output; a refused path or a file system failure becomes an
 * error result naming the root-relative path, instead of a bare exception.
 */
export async function runWorkspaceOperation(
  workspace: Workspace,
  operation: () => Promise<ToolOutput>,
): Promise<ToolOutput> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof WorkspacePathError) return toolError(error.message);
    const described = describeFileSystemError(workspace, error);
    if (described) return toolError(described);
    throw error;
  }
}

const FILE_SYSTEM_ERRORS: Record<string, string> = {
  ENOENT: "does not exist",
  EACCES: "cannot be accessed: permission denied",
  EPERM: "cannot be changed: operation not permitted",
  EISDIR: "is a directory, not a file",
  ENOTDIR: "has a parent that is a file, not a directory",
  EEXIST: "already exists",
  ENOSPC: "cannot be written: no space left on the device",
  EROFS: "cannot be written: the file system is read-only",
  ENAMETOOLONG: "has a name that is too long",
  ELOOP: "cannot be resolved: it runs into a symbolic link loop",
  EINVAL:
    "cannot be used: it changed while it was being read (replaced by another kind of file, say); try again",
  EBUSY: "cannot be used: it is busy",
  ETXTBSY: "cannot be written: a running program uses it",
  EMFILE: "cannot be opened: too many files are open",
  ENFILE: "cannot be opened: too many files are open",
  EIO: "cannot be read or written: the device reported an input/output error",
  EXDEV: "cannot be moved across file systems",
  EFBIG: "cannot be written: the file would be too large",
  ENOTEMPTY: "is a folder that is not empty",
};

/** A sentence describing a Node.js file system error with the path as the model knows it. */
export function describeFileSystemError(workspace: Workspace, error: unknown): string | undefined {
  const { code, path: failedPath } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof code !== "string") return undefined;
  const what = FILE_SYSTEM_ERRORS[code];
  const subject = failedPath ? `"${workspace.display(failedPath)}"` : "The path";
  // Never the raw message: it names the physical path and the system call.
  return what ? `${subject} ${what}.` : `${subject} cannot be used: the file system refused (${code}).`;
}
