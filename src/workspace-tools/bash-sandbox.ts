/**
 * The bubblewrap sandbox of `bash` (`bashSandbox`): each command runs under `bwrap` with the
 * workspace root bound read-write at its own path, the system's programs and libraries read-only,
 * a fresh `/tmp`, `/dev` and `/proc` (of a PID namespace of its own), no other part of the host's
 * file system (no home, no `/etc/shadow`), no network unless asked, no capabilities, no new user
 * namespaces, a clean environment, and a new session; the sandbox dies with this process. When
 * this process is root, `bwrap` itself runs as an unprivileged host user (`user`), so nothing in
 * the sandbox is host root (kuid 0); `/proc/sys` and `/proc/sysrq-trigger` are read-only; resource
 * limits (`limits`) apply to every command.
 * @module
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { InvalidOptionError } from "../errors";
import { type BashSandboxLimits, limitsPrologue, resolveSandboxLimits } from "./sandbox-limits";

/** What `bashSandbox: { … }` may say. */
export interface BashSandboxOptions {
  /** Share the host's network (DNS, the internet, and services on the host's loopback). @default false */
  network?: boolean;
  /** Absolute paths of host folders or files bound read-only at the same path (a toolchain under /opt, say). */
  readOnlyPaths?: string[];
  /**
   * The host user and group `bwrap` and every command run as when this process is root (ignored
   * otherwise: the sandbox then runs as this process's own user). Never 0: a sandbox of host root
   * could write kernel settings and leave setuid-root files behind. The user must be able to reach
   * and write the workspace root (give it the root: `chown -R uid:gid root`); files the file tools
   * create are owned by this process's user.
   * @default the owner of the workspace root when that is not root, else 65534:65534 (nobody)
   */
  user?: { uid: number; gid: number };
  /** Resource limits of each command. @default `DEFAULT_SANDBOX_LIMITS` */
  limits?: BashSandboxLimits;
}

/** A resolved sandbox: the `bwrap` program and the mounts every command gets. */
export interface BashSandbox {
  /** Absolute path of `bwrap`, found on the PATH once, at creation. */
  bwrap: string;
  /** Whether this `bwrap` knows `--disable-userns` (0.8 and later): no user namespace nests inside. */
  disablesUserNamespaces: boolean;
  network: boolean;
  /** Physical paths of the extra read-only binds. */
  readOnlyPaths: readonly string[];
  /** The unprivileged host user `bwrap` runs as, when this process is root; else `undefined`. */
  hostUser: { uid: number; gid: number } | undefined;
  limits: Required<BashSandboxLimits>;
  /** Whether the sandbox's user can write the workspace root (checked at creation). */
  writableRoot: boolean;
}

/** The command `bwrap` runs, with the data it reads from extra descriptors (3, 4, …). */
export interface SandboxedCommand {
  file: string;
  args: string[];
  /** Written to descriptors 3, 4, … of `bwrap`, in order, then closed. */
  inputs: string[];
  /** The host user and group to start `bwrap` as (this process is root). */
  uid?: number;
  gid?: number;
}

/** The PATH inside the sandbox. */
const SANDBOX_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
/** HOME inside the sandbox: its own `/tmp`, gone when the command ends. */
const SANDBOX_HOME = "/tmp";
/** The top-level system folders bound read-only (or recreated as the links they are on the host). */
const SYSTEM_FOLDERS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/** Files of /etc that programs need to start: the dynamic linker's cache, alternatives, locale. */
const SYSTEM_ETC = [
  "/etc/alternatives",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/localtime",
  "/etc/nsswitch.conf",
];
/** Files of /etc that only name resolution and TLS need: bound with `network: true` only. */
const NETWORK_ETC = [
  "/etc/resolv.conf",
  "/etc/hosts",
  "/etc/host.conf",
  "/etc/gai.conf",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/pki",
];
/** Variables of the host copied into the sandbox's environment when set: locale and terminal only. */
const COPIED_VARIABLES = ["LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ", "TERM"];
/** The host user a root process's sandbox runs as when the workspace root is root's: nobody. */
const NOBODY = { uid: 65534, gid: 65534 };
/** How long the probe run at creation may take. */
const PROBE_TIMEOUT_MS = 10_000;

/** The Debian/Ubuntu package and command named when bubblewrap is missing. */
const MISSING_BWRAP =
  "createWorkspaceTools: bashSandbox needs bubblewrap (the `bwrap` command), which is not on the PATH. " +
  "Install it (Debian/Ubuntu: `apt-get install bubblewrap`; Fedora: `dnf install bubblewrap`), or leave bashSandbox out " +
  "to run bash unconfined, with the host's privileges.";

/**
 * Validates `bashSandbox`, finds `bwrap` and checks, by running `true` in exactly the sandbox the
 * commands will get, that it works here. `undefined` when the option is off. Throws
 * {@link InvalidOptionError} for a bad option, a missing `bwrap` (naming the package), or a
 * sandbox the machine refuses (a container without user namespaces, say).
 */
export function resolveBashSandbox(
  option: boolean | BashSandboxOptions | undefined,
  realRoot: string,
): BashSandbox | undefined {
  if (option === undefined || option === false) return undefined;
  if (option !== true && (typeof option !== "object" || option === null || Array.isArray(option))) {
    throw new InvalidOptionError(
      `createWorkspaceTools: bashSandbox must be true, false or { network?, readOnlyPaths?, user?, limits? }, got ${typeof option}.`,
    );
  }
  const settings = option === true ? {} : option;
  if (settings.network !== undefined && typeof settings.network !== "boolean") {
    throw new InvalidOptionError("createWorkspaceTools: bashSandbox.network must be a boolean.");
  }
  const bwrap = findBwrap();
  if (!bwrap) throw new InvalidOptionError(MISSING_BWRAP);
  const sandbox: BashSandbox = {
    bwrap,
    disablesUserNamespaces: knowsDisableUserns(bwrap),
    network: settings.network ?? false,
    readOnlyPaths: resolveReadOnlyPaths(settings.readOnlyPaths),
    hostUser: resolveHostUser(settings.user, realRoot),
    limits: resolveSandboxLimits(settings.limits),
    writableRoot: true,
  };
  const outcome = probe(sandbox, realRoot);
  if (outcome.problem !== undefined) {
    const user = sandbox.hostUser;
    throw new InvalidOptionError(
      `createWorkspaceTools: bashSandbox: bubblewrap (${bwrap}) cannot create a sandbox on this machine${
        user ? ` as the unprivileged user ${user.uid}:${user.gid}` : ""
      }: ${outcome.problem}. ` +
        (user
          ? "That user must be able to reach the workspace root (every folder above it searchable), or set bashSandbox.user. "
          : "") +
        "Unprivileged user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone, or a container's " +
        "seccomp profile).",
    );
  }
  sandbox.writableRoot = outcome.writableRoot;
  return sandbox;
}

let availability: boolean | undefined;

/**
 * Whether `bashSandbox: true` works on this machine: `bwrap` is on the PATH and can create a
 * sandbox (as the unprivileged user it runs as when this process is root). Checked once per
 * process; a given workspace root is checked by `createWorkspaceTools`.
 */
export function isBashSandboxAvailable(): boolean {
  if (availability === undefined) {
    const bwrap = findBwrap();
    try {
      // A folder every user can reach: whether bwrap works here, not whether this folder suits it.
      const root = realpathSync(tmpdir());
      availability =
        bwrap !== undefined &&
        probe(
          {
            bwrap,
            disablesUserNamespaces: knowsDisableUserns(bwrap),
            network: false,
            readOnlyPaths: [],
            hostUser: resolveHostUser(undefined, root),
            limits: resolveSandboxLimits(undefined),
            writableRoot: true,
          },
          root,
        ).problem === undefined;
    } catch {
      availability = false; // the working folder is gone, say
    }
  }
  return availability;
}

/**
 * The `bwrap` command line running `bash -c command` in the sandbox, in the root, after a first
 * shell has set the resource limits. The sandbox's `/etc/passwd` and `/etc/group` hold one line
 * each, for its user, read from descriptors 3 and 4 (left out with `userFiles: false`).
 */
export function sandboxedCommand(
  sandbox: BashSandbox,
  realRoot: string,
  command: string,
  env: Record<string, string | undefined>,
  userFiles = true,
): SandboxedCommand {
  const { uid, gid, name } = sandboxUser(sandbox);
  const args = [
    ...mountArguments(sandbox, realRoot),
    ...(userFiles ? ["--ro-bind-data", "3", "/etc/passwd", "--ro-bind-data", "4", "/etc/group"] : []),
    "--chdir",
    realRoot,
    "--clearenv",
    ...Object.entries(env).flatMap(([key, value]) => (value === undefined ? [] : ["--setenv", key, value])),
    "--",
    "bash",
    "-c",
    `${limitsPrologue(sandbox.limits)} || exit 126; exec bash -c "$1"`,
    "bash",
    command,
  ];
  return {
    file: sandbox.bwrap,
    args,
    inputs: userFiles
      ? [`${name}:x:${uid}:${gid}:${name}:${SANDBOX_HOME}:/bin/bash\n`, `${name}:x:${gid}:\n`]
      : [],
    ...(sandbox.hostUser ?? {}),
  };
}

/** The environment of sandboxed commands unless `bashEnv` sets one: PATH, HOME, locale, terminal. */
export function sandboxEnvironment(sandbox: BashSandbox): Record<string, string> {
  const { name } = sandboxUser(sandbox);
  const env: Record<string, string> = {
    PATH: SANDBOX_PATH,
    HOME: SANDBOX_HOME,
    TMPDIR: "/tmp",
    SHELL: "/bin/bash",
    USER: name,
    LOGNAME: name,
  };
  for (const variable of COPIED_VARIABLES) {
    const value = process.env[variable];
    if (value) env[variable] = value;
  }
  return env;
}

/** Namespaces, the session, and the file system the sandbox sees, in mount order. */
function mountArguments(sandbox: BashSandbox, realRoot: string): string[] {
  const args = ["--unshare-all", "--unshare-user"];
  if (sandbox.disablesUserNamespaces) args.push("--disable-userns");
  if (sandbox.network) args.push("--share-net");
  args.push("--die-with-parent", "--new-session", "--cap-drop", "ALL", "--hostname", "sandbox");
  for (const folder of SYSTEM_FOLDERS) args.push(...systemFolderArguments(folder));
  for (const file of [...SYSTEM_ETC, ...(sandbox.network ? NETWORK_ETC : [])])
    args.push("--ro-bind-try", file, file);
  args.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp");
  // The kernel's knobs read-only over the fresh /proc (bwrap covers /proc/irq and /proc/bus only).
  args.push(
    "--ro-bind",
    "/proc/sys",
    "/proc/sys",
    "--ro-bind-try",
    "/proc/sysrq-trigger",
    "/proc/sysrq-trigger",
  );
  // After /tmp: a root below /tmp is bound over the sandbox's own /tmp.
  args.push("--bind", realRoot, realRoot);
  for (const readOnly of sandbox.readOnlyPaths) args.push("--ro-bind", readOnly, readOnly);
  return args;
}

/** A system folder as it is on the host: bound read-only, or the same symbolic link (`/bin -> usr/bin`). */
function systemFolderArguments(folder: string): string[] {
  try {
    const entry = lstatSync(folder);
    if (entry.isSymbolicLink()) return ["--symlink", readlinkSync(folder), folder];
    if (entry.isDirectory()) return ["--ro-bind", folder, folder];
  } catch {
    // absent on this system
  }
  return [];
}

function resolveReadOnlyPaths(paths: unknown): string[] {
  if (paths === undefined) return [];
  if (!Array.isArray(paths)) {
    throw new InvalidOptionError(
      "createWorkspaceTools: bashSandbox.readOnlyPaths must be an array of absolute paths.",
    );
  }
  return paths.map((entry) => {
    if (typeof entry !== "string" || !path.isAbsolute(entry)) {
      throw new InvalidOptionError(
        `createWorkspaceTools: bashSandbox.readOnlyPaths holds ${JSON.stringify(entry)}, which is not an absolute path.`,
      );
    }
    try {
      const physical = realpathSync(entry);
      statSync(physical);
      return physical;
    } catch (error) {
      throw new InvalidOptionError(
        `createWorkspaceTools: bashSandbox.readOnlyPaths holds ${entry}, which does not exist.`,
        { cause: error },
      );
    }
  });
}

/** `bwrap` on the PATH, as an absolute path, or `undefined`. */
function findBwrap(): string | undefined {
  for (const folder of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!path.isAbsolute(folder)) continue;
    const candidate = path.join(folder, "bwrap");
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Runs a command in the sandbox that says whether the root is writable; returns what went wrong
 * (`problem`), or whether the sandbox's user can write the root.
 */
function probe(sandbox: BashSandbox, realRoot: string): { problem?: string; writableRoot: boolean } {
  const { file, args, uid, gid } = sandboxedCommand(
    sandbox,
    realRoot,
    "if test -w .; then echo writable; fi",
    sandboxEnvironment(sandbox),
    false,
  );
  const result = spawnSync(file, args, {
    env: { PATH: SANDBOX_PATH },
    stdio: ["ignore", "pipe", "pipe"],
    timeout: PROBE_TIMEOUT_MS,
    ...(uid === undefined ? {} : { uid, gid }),
  });
  if (result.error) return { problem: result.error.message, writableRoot: false };
  if (result.status === 0) return { writableRoot: result.stdout?.toString().trim() === "writable" };
  const stderr = result.stderr?.toString().trim();
  return { problem: stderr || `bwrap exited with ${result.status ?? result.signal}`, writableRoot: false };
}

/**
 * The host user a root process runs the sandbox as: `user` when given, else the owner of the
 * workspace root unless that is root, else nobody. `undefined` when this process is not root.
 */
function resolveHostUser(user: unknown, realRoot: string): { uid: number; gid: number } | undefined {
  if (user !== undefined) {
    const { uid, gid } = (user ?? {}) as { uid?: unknown; gid?: unknown };
    const valid = (id: unknown) =>
      typeof id === "number" && Number.isSafeInteger(id) && id > 0 && id < 2 ** 32 - 1;
    if (typeof user !== "object" || user === null || !valid(uid) || !valid(gid)) {
      throw new InvalidOptionError(
        "createWorkspaceTools: bashSandbox.user must be { uid, gid }, whole numbers other than 0 (root).",
      );
    }
  }
  if (process.getuid?.() !== 0) return undefined;
  if (user !== undefined) return { ...(user as { uid: number; gid: number }) };
  const owner = statSync(realRoot);
  if (owner.uid === 0) return { ...NOBODY };
  return { uid: owner.uid, gid: owner.gid !== 0 ? owner.gid : NOBODY.gid };
}

const knownDisableUserns = new Map<string, boolean>();

/** Whether `bwrap --help` lists `--disable-userns`. */
function knowsDisableUserns(bwrap: string): boolean {
  let known = knownDisableUserns.get(bwrap);
  if (known === undefined) {
    const help = spawnSync(bwrap, ["--help"], { encoding: "utf8", timeout: PROBE_TIMEOUT_MS });
    known = `${help.stdout ?? ""}${help.stderr ?? ""}`.includes("--disable-userns");
    knownDisableUserns.set(bwrap, known);
  }
  return known;
}

function sandboxUser(sandbox: BashSandbox): { uid: number; gid: number; name: string } {
  if (sandbox.hostUser) return { ...sandbox.hostUser, name: "sandbox" };
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  let name = "sandbox";
  try {
    name = userInfo().username || name;
  } catch {
    // no passwd entry for this uid
  }
  return { uid, gid, name: /^[A-Za-z0-9._-]+$/.test(name) ? name : "sandbox" };
}
