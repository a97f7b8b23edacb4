/**
 * How `--tools bash` runs its commands, decided before the agent starts: in the bubblewrap sandbox
 * where it works (as root, as an unprivileged user: the folder's owner, `--sandbox-user`, or
 * nobody — never as root), unconfined with a plain notice where it does not (not as root: there the
 * command stops and says what to do, unless `--unconfined-bash` asks for it). A folder the sandbox
 * user cannot reach is said plainly at start, with what to do about it.
 * @module
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { InvalidOptionError } from "../errors";
import { isBashSandboxAvailable, type WorkspaceToolsOptions } from "../workspace-tools/index";
import { UsageError } from "./usage-error";

/** The host user a root process's sandbox runs as when the folder is root's (as the library does). */
const NOBODY = { uid: 65534, gid: 65534, name: "nobody" };

/** A host user by number, with its name when `/etc/passwd` has one. */
export interface HostUser {
  uid: number;
  gid: number;
  name?: string;
}

/** What `bash` gets: the `bashSandbox` option, the notice printed at start, and the user it runs as. */
export interface BashSetup {
  bashSandbox: WorkspaceToolsOptions["bashSandbox"];
  notice: string;
  user?: HostUser;
}

/**
 * The bash setup for a run over `root`.
 * @throws {UsageError} as root when commands could only run as root (no sandbox, no
 * `--unconfined-bash`), for a `--sandbox-user` that is root or unknown, or given when not root.
 */
export function bashSetupFor(
  options: { sandboxUser?: string; unconfinedBash: boolean },
  root: string,
  isRoot = process.getuid?.() === 0,
): BashSetup {
  if (options.unconfinedBash)
    return {
      bashSandbox: false,
      notice: `bash: NOT sandboxed (--unconfined-bash) · commands run with your privileges${isRoot ? " (root's)" : ""} and can reach any file and the network`,
    };
  if (options.sandboxUser !== undefined && !isRoot)
    throw new UsageError("--sandbox-user is for a command run as root; the sandbox already runs as you");
  if (!isBashSandboxAvailable()) {
    if (isRoot)
      throw new UsageError(
        "--tools bash: this command runs as root, and bubblewrap (bwrap) is missing or cannot create a sandbox here, " +
          "so bash would run every command as root with nothing confining it. Install bubblewrap " +
          "(apt-get install bubblewrap) to run them sandboxed as an unprivileged user, or add --unconfined-bash to run them as root anyway",
      );
    return {
      bashSandbox: false,
      notice:
        "bash: NOT sandboxed · commands run with your privileges and can reach any file and the network; " +
        (process.platform === "linux"
          ? "install bubblewrap (apt-get install bubblewrap) to confine them"
          : "the bubblewrap sandbox needs Linux"),
    };
  }
  const sandboxed = "bash: sandboxed (bubblewrap) · only this folder is visible and writable, no network";
  if (!isRoot) return { bashSandbox: true, notice: sandboxed };
  const user = options.sandboxUser === undefined ? ownerOrNobody(root) : hostUserOf(options.sandboxUser);
  const who = describeUser(user);
  const readOnly = canWrite(root, user)
    ? ""
    : ` · the folder is read-only to that user: make it theirs (chown -R ${user.name ?? user.uid} ${root}) to let commands write`;
  return {
    bashSandbox: { user: { uid: user.uid, gid: user.gid } },
    notice: `${sandboxed} · as ${who}, not root${readOnly}`,
    user,
  };
}

/**
 * What to say when the library refused the sandbox over `root` for `setup`'s user: the folder it
 * cannot reach and what to do; any other failure as it is.
 */
export function sandboxFailure(error: unknown, setup: BashSetup, root: string): unknown {
  if (!(error instanceof InvalidOptionError) || setup.user === undefined) return error;
  const who = describeUser(setup.user);
  const blocked = firstClosedFolder(root, setup.user);
  const where = blocked ? ` (${blocked} does not let it through)` : "";
  return new UsageError(
    `--tools bash: commands run in a sandbox as an unprivileged user, never as root, and that user, ${who}, ` +
      `cannot reach ${root}${where}. Make the folder theirs — \`chown -R <user> ${root}\` with every folder above ` +
      `it searchable (\`chmod o+x\`) — and pass --sandbox-user <user>; or work in a folder outside root's home (say /srv/project); ` +
      `or, knowingly, --unconfined-bash runs the commands as root`,
  );
}

/** The user named by `--sandbox-user`: a name of /etc/passwd, a uid, or uid:gid; never root. */
export function hostUserOf(value: string): HostUser {
  const numbers = /^(\d+)(?::(\d+))?$/.exec(value.trim());
  const entries = passwdEntries();
  const user = numbers
    ? {
        uid: Number(numbers[1]),
        gid: Number(
          numbers[2] ?? entries.find((entry) => entry.uid === Number(numbers[1]))?.gid ?? numbers[1],
        ),
      }
    : entries.find((entry) => entry.name === value.trim());
  if (!user)
    throw new UsageError(
      `--sandbox-user: no user "${value}" on this machine (give a name, a uid or uid:gid)`,
    );
  if (user.uid === 0 || user.gid === 0)
    throw new UsageError(
      "--sandbox-user cannot be root: the sandbox never runs commands as root (--unconfined-bash does, when asked)",
    );
  return { ...user, name: entries.find((entry) => entry.uid === user.uid)?.name };
}

/** The folder's owner unless that is root; else nobody (what the library picks by default). */
function ownerOrNobody(root: string): HostUser {
  const owner = statSync(root);
  if (owner.uid === 0) return NOBODY;
  const name = passwdEntries().find((entry) => entry.uid === owner.uid)?.name;
  return { uid: owner.uid, gid: owner.gid !== 0 ? owner.gid : NOBODY.gid, name };
}

function describeUser(user: HostUser): string {
  return user.name ? `${user.name} (uid ${user.uid})` : `uid ${user.uid}`;
}

/**
 * The first folder from `/` down to `root` that `user` cannot search (by its owner, group and other
 * bits; the user's other groups are not read), or `undefined`.
 */
export function firstClosedFolder(root: string, user: HostUser): string | undefined {
  const parts = path.resolve(root).split(path.sep).filter(Boolean);
  for (let index = 0; index <= parts.length; index++) {
    const folder = path.sep + parts.slice(0, index).join(path.sep);
    let mode: number;
    let owner: number;
    let group: number;
    try {
      ({ mode, uid: owner, gid: group } = statSync(folder));
    } catch {
      return folder;
    }
    const bit = owner === user.uid ? 0o100 : group === user.gid ? 0o010 : 0o001;
    if ((mode & bit) === 0) return folder;
  }
  return undefined;
}

/** Whether `user` may write `folder`, by its owner, group and other bits. */
function canWrite(folder: string, user: HostUser): boolean {
  try {
    const { mode, uid, gid } = statSync(folder);
    return (mode & (uid === user.uid ? 0o200 : gid === user.gid ? 0o020 : 0o002)) !== 0;
  } catch {
    return false;
  }
}

function passwdEntries(): Array<{ name: string; uid: number; gid: number }> {
  try {
    return readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .map((line) => line.split(":"))
      .filter((fields) => fields.length >= 4 && /^\d+$/.test(fields[2]!) && /^\d+$/.test(fields[3]!))
      .map((fields) => ({ name: fields[0]!, uid: Number(fields[2]), gid: Number(fields[3]) }));
  } catch {
    return [];
  }
}
