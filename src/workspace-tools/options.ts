/**
 * Options of {@link createWorkspaceTools}, their defaults, and their one-time resolution.
 * @module
 */
import { realpathSync, statSync } from "node:fs";
import path from "node:path";
import { InvalidOptionError } from "../errors";
import { type OptionLabel, positiveInteger, timerMilliseconds } from "../shared/option-checks";
import { secretsWorthRedacting, urlSecretsOf } from "../shared/redact";
import {
  type BashSandbox,
  type BashSandboxOptions,
  resolveBashSandbox,
  sandboxEnvironment,
} from "./bash-sandbox";

/** The largest file whose prior content a file checkpoint keeps (10 MiB); a larger one is listed as not kept. */
export const DEFAULT_CHECKPOINT_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** The most prior content one checkpoint keeps, all files together (50 MiB); beyond it files are listed as not kept. */
export const DEFAULT_CHECKPOINT_MAX_BYTES = 50 * 1024 * 1024;

/** The size limits of file checkpoints. */
export interface FileCheckpointLimits {
  maxFileBytes: number;
  maxCheckpointBytes: number;
}

/** Characters a tool output may hold before it is cut with a notice. @default 30_000 */
export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;
/** Bytes of file text `read_file` returns in one call. @default 100_000 */
export const DEFAULT_MAX_READ_BYTES = 100_000;
/** Characters of one line that `read_file` and `grep` show before cutting it. @default 2_000 */
export const DEFAULT_MAX_LINE_CHARS = 2_000;
/** Entries `list_files` and `glob` return before stopping with a notice. @default 1_000 */
export const DEFAULT_MAX_ENTRIES = 1_000;
/** Matching lines `grep` returns before stopping with a notice. @default 200 */
export const DEFAULT_MAX_MATCHES = 200;
/** Files larger than this are skipped by `grep` (and reported). @default 5_000_000 */
export const DEFAULT_MAX_GREP_FILE_BYTES = 5_000_000;
/** How long a `bash` command may run before its process group is killed. @default 120_000 */
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
/** Between SIGTERM and SIGKILL when a `bash` process group is stopped. @default 2_000 */
export const DEFAULT_BASH_KILL_GRACE_MS = 2_000;
/** Directory names the walking tools skip unless asked. */
export const DEFAULT_IGNORED_DIRECTORIES: readonly string[] = ["node_modules", ".git", ".agent-lattice"];
/**
 * Environment variables removed from what `bash` commands see, so the model cannot print the
 * host's provider credentials into the conversation.
 */
export const DEFAULT_BASH_HIDDEN_ENV: readonly string[] = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_BASE_URL", // may carry credentials (`https://user:key@proxy/`)
];

/** Options of {@link createWorkspaceTools}. */
export interface WorkspaceToolsOptions {
  /** The folder every tool is confined to. It must exist. */
  root: string;
  /**
   * Include the `bash` tool. Unless `bashSandbox` is set, commands run with the host's privileges
   * and are NOT confined to `root`: they can read and write anything the host process can, and use
   * the network. Opt in knowingly. @default false
   */
  allowBash?: boolean;
  /**
   * Run each `bash` command inside a bubblewrap sandbox (Linux, the `bwrap` command of the
   * Debian/Ubuntu package `bubblewrap`): `root` is bound read-write at its own path, the system's
   * programs and libraries (`/usr`, `/bin`, `/lib*`, the few files of `/etc` they need) read-only,
   * with a fresh `/tmp`, `/dev` and `/proc` of its own PID namespace; nothing else of the host's file
   * system (no home, no `/etc/shadow`, no host `/proc`), no network unless `network: true`, no
   * capabilities, and an environment of PATH, HOME=/tmp, locale and terminal variables only (unless
   * `bashEnv` sets one). `readOnlyPaths` adds host paths bound read-only at the same path. When
   * this process is root, the sandbox runs as an unprivileged host user (`user`), never as root;
   * `/proc/sys` is read-only; `limits` caps processes, memory, file size and CPU time.
   * Throws `InvalidOptionError` at creation when `bwrap` is missing or cannot create a sandbox.
   * @default false
   */
  bashSandbox?: boolean | BashSandboxOptions;
  /** Include `write_file` and `edit_file`. @default true */
  allowWrite?: boolean;
  /** @default {@link DEFAULT_MAX_READ_BYTES} */
  maxReadBytes?: number;
  /** @default {@link DEFAULT_MAX_OUTPUT_CHARS} */
  maxOutputChars?: number;
  /** @default {@link DEFAULT_MAX_LINE_CHARS} */
  maxLineChars?: number;
  /** @default {@link DEFAULT_MAX_ENTRIES} */
  maxEntries?: number;
  /** @default {@link DEFAULT_MAX_MATCHES} */
  maxMatches?: number;
  /** @default {@link DEFAULT_MAX_GREP_FILE_BYTES} */
  maxGrepFileBytes?: number;
  /** Default and upper bound of a command's `timeout_ms`. @default {@link DEFAULT_BASH_TIMEOUT_MS} */
  bashTimeoutMs?: number;
  /** @default {@link DEFAULT_BASH_KILL_GRACE_MS} */
  bashKillGraceMs?: number;
  /**
   * The environment `bash` commands run with. @default `process.env` without
   * {@link DEFAULT_BASH_HIDDEN_ENV}; with `bashSandbox`, only PATH, HOME, TMPDIR, SHELL, USER,
   * LOGNAME and the host's locale and terminal variables
   */
  bashEnv?: Record<string, string | undefined>;
  /** Directory names skipped while walking, unless a call asks for them. @default {@link DEFAULT_IGNORED_DIRECTORIES} */
  ignoredDirectories?: readonly string[];
  /**
   * Checkpoints of the files `write_file` and `edit_file` change: before a change, the file's prior
   * content is kept under the running query's checkpoint in `<root>/.agent-lattice/checkpoints/`, so
   * `agent.rewind({ files: true })` can put it back. `false` keeps nothing; an object sets the size
   * limits (a file over them is listed as not kept: its change cannot be undone).
   * @default true (limits {@link DEFAULT_CHECKPOINT_MAX_FILE_BYTES}, {@link DEFAULT_CHECKPOINT_MAX_BYTES})
   */
  fileCheckpoints?: boolean | { maxFileBytes?: number; maxCheckpointBytes?: number };
}

/** Options after validation and defaults, with the root resolved once. */
export interface WorkspaceSettings {
  /** The root as given, made absolute (it may contain symbolic links). */
  lexicalRoot: string;
  /** The root with every symbolic link resolved: all confinement checks compare against it. */
  realRoot: string;
  allowBash: boolean;
  allowWrite: boolean;
  maxReadBytes: number;
  maxOutputChars: number;
  maxLineChars: number;
  maxEntries: number;
  maxMatches: number;
  maxGrepFileBytes: number;
  bashTimeoutMs: number;
  bashKillGraceMs: number;
  bashEnv: Record<string, string | undefined>;
  /** The sandbox every `bash` command runs in, when `bashSandbox` is set. */
  bashSandbox: BashSandbox | undefined;
  /**
   * Values of the hidden variables, redacted from `bash` output: a command can still read them
   * from the process's original environment (`/proc/$PPID/environ`).
   */
  bashSecrets: readonly string[];
  ignoredDirectories: ReadonlySet<string>;
  /** The size limits of file checkpoints, or `undefined` when they are off. */
  fileCheckpoints: FileCheckpointLimits | undefined;
}

/** Validates the options and resolves the root. Throws {@link InvalidOptionError} on misuse. */
export function resolveWorkspaceSettings(options: WorkspaceToolsOptions): WorkspaceSettings {
  if (typeof options?.root !== "string" || options.root.length === 0) {
    throw new InvalidOptionError("createWorkspaceTools needs a root folder: { root: string }.");
  }
  const lexicalRoot = path.resolve(options.root);
  const realRoot = resolveExistingDirectory(lexicalRoot);
  const bashSandbox = resolveBashSandbox(options.bashSandbox, realRoot);
  return {
    lexicalRoot,
    realRoot,
    allowBash: options.allowBash ?? false,
    allowWrite: options.allowWrite ?? true,
    maxReadBytes: count("maxReadBytes", options.maxReadBytes, DEFAULT_MAX_READ_BYTES),
    maxOutputChars: count("maxOutputChars", options.maxOutputChars, DEFAULT_MAX_OUTPUT_CHARS),
    maxLineChars: count("maxLineChars", options.maxLineChars, DEFAULT_MAX_LINE_CHARS),
    maxEntries: count("maxEntries", options.maxEntries, DEFAULT_MAX_ENTRIES),
    maxMatches: count("maxMatches", options.maxMatches, DEFAULT_MAX_MATCHES),
    maxGrepFileBytes: count("maxGrepFileBytes", options.maxGrepFileBytes, DEFAULT_MAX_GREP_FILE_BYTES),
    bashTimeoutMs: timerDelay("bashTimeoutMs", options.bashTimeoutMs, DEFAULT_BASH_TIMEOUT_MS),
    bashKillGraceMs: timerDelay("bashKillGraceMs", options.bashKillGraceMs, DEFAULT_BASH_KILL_GRACE_MS),
    bashEnv:
      options.bashEnv ??
      (bashSandbox ? sandboxEnvironment(bashSandbox) : environmentWithout(DEFAULT_BASH_HIDDEN_ENV)),
    bashSandbox,
    bashSecrets: hiddenSecrets(DEFAULT_BASH_HIDDEN_ENV),
    ignoredDirectories: new Set(options.ignoredDirectories ?? DEFAULT_IGNORED_DIRECTORIES),
    fileCheckpoints: fileCheckpointLimits(options.fileCheckpoints),
  };
}

function fileCheckpointLimits(
  option: WorkspaceToolsOptions["fileCheckpoints"],
): FileCheckpointLimits | undefined {
  if (option === false) return undefined;
  if (option !== undefined && option !== true && (typeof option !== "object" || option === null))
    throw new InvalidOptionError(
      "createWorkspaceTools: fileCheckpoints must be a boolean or { maxFileBytes?, maxCheckpointBytes? }.",
    );
  const limits = typeof option === "object" ? option : {};
  return {
    maxFileBytes: count(
      "fileCheckpoints.maxFileBytes",
      limits.maxFileBytes,
      DEFAULT_CHECKPOINT_MAX_FILE_BYTES,
    ),
    maxCheckpointBytes: count(
      "fileCheckpoints.maxCheckpointBytes",
      limits.maxCheckpointBytes,
      DEFAULT_CHECKPOINT_MAX_BYTES,
    ),
  };
}

function resolveExistingDirectory(directory: string): string {
  let realRoot: string;
  try {
    realRoot = realpathSync(directory);
  } catch (error) {
    throw new InvalidOptionError(
      `createWorkspaceTools: root ${directory} does not exist or cannot be resolved.`,
      {
        cause: error,
      },
    );
  }
  if (!statSync(realRoot).isDirectory()) {
    throw new InvalidOptionError(`createWorkspaceTools: root ${directory} is not a directory.`);
  }
  return realRoot;
}

/** How `createWorkspaceTools` names an option in its messages: after its name, unquoted, the value as text. */
function workspaceOption(option: string): OptionLabel {
  return { factory: "createWorkspaceTools", option, show: "text" };
}

/** A positive integer option, `fallback` when unset. */
function count(name: string, value: number | undefined, fallback: number): number {
  return positiveInteger(value === undefined ? fallback : value, workspaceOption(name));
}

/** A positive integer that a timer can wait: at most `MAX_TIMER_MS` (a longer one fires at once). */
function timerDelay(name: string, value: number | undefined, fallback: number): number {
  return timerMilliseconds(count(name, value, fallback), workspaceOption(name));
}

/** The values of the hidden variables worth redacting (long enough not to be common words), URL credentials too. */
function hiddenSecrets(hidden: readonly string[]): string[] {
  const secrets: string[] = [];
  for (const name of hidden) {
    const value = process.env[name];
    if (!value) continue;
    secrets.push(value, ...urlSecretsOf(value));
  }
  return secretsWorthRedacting(secrets);
}

function environmentWithout(hidden: readonly string[]): Record<string, string | undefined> {
  const environment: Record<string, string | undefined> = { ...process.env };
  for (const name of hidden) delete environment[name];
  return environment;
}
