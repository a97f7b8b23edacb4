/**
 * The exit codes of the `agent-lattice` command.
 * @module
 */

/** The query succeeded, or was interrupted with Ctrl-C (a deliberate stop is not a failure). */
export const EXIT_SUCCESS = 0;
/** The query ended with an error result (provider failure, max turns, budget, missing output …). */
export const EXIT_AGENT_ERROR = 1;
/** The command line was wrong: an unknown option, a bad value, a missing API key, an unusable schema file. */
export const EXIT_USAGE_ERROR = 2;
/**
 * The query is waiting for a person's approval (`requires_approval`) or answers to MCP servers'
 * questions (`requires_input`) and the run could not ask: a one-shot prompt or `--json`. The
 * pending calls are listed; a later run with the same `--session` and `--approve` / `--deny`
 * resumes it (questions: an interactive session over the same `--session` asks them).
 */
export const EXIT_APPROVAL_REQUIRED = 3;
/** A second Ctrl-C aborted a running query and quit (128 + SIGINT, as shells report it). */
export const EXIT_ABORTED = 130;
/**
 * The reader of the output went away (`agent-lattice … | head -1`): the query was aborted and the
 * command quit, as a command killed by SIGPIPE does (128 + 13, as shells report it).
 */
export const EXIT_OUTPUT_CLOSED = 141;
