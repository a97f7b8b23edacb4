/**
 * `UsageError`: a mistake on the command line (exit code 2).
 * @module
 */

/** A mistake on the command line. The message is shown as is, followed by a pointer to `--help`. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
