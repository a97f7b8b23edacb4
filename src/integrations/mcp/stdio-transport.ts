/**
 * The client transport of a stdio MCP server, started in a process group of its own. The SDK's
 * `StdioClientTransport` signals only the process it spawned: a server started through a wrapper
 * script (`sh run-server.sh` that does not `exec`) survived `close()`, which took about 10 s. Here
 * `close()` ends stdin, then sends SIGTERM and SIGKILL to the whole group, and returns once no
 * process of the group is left; the group is also killed if this process exits first. When the
 * server itself dies first (a crash in the middle of a call), the children it started are left in
 * its group, reparented to PID 1: the group gets SIGTERM then SIGKILL at once, and the transport
 * reports itself closed only once none of them is left.
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { processGroupExists, signalProcessGroup, trackProcessGroup } from "../../shared/process-group";
import type { McpClientSdk } from "./load-client-sdk";

/** After stdin is closed: how long the server may take to exit by itself before SIGTERM. */
export const STDIN_CLOSE_GRACE_MS = 2_000;
/** After SIGTERM: how long the group may take to exit before SIGKILL. */
export const SIGTERM_GRACE_MS = 2_000;
/** How often the group is checked while waiting for it to end. */
const POLL_MS = 25;

/** How to start the server. */
export interface ProcessGroupStdioOptions {
  command: string;
  args?: string[];
  /** Merged over the SDK's safe default environment (HOME, LOGNAME, PATH, SHELL, TERM, USER). */
  env?: Record<string, string>;
  cwd?: string;
}

/** A stdio transport whose server runs as the leader of its own process group (POSIX). */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  /** The server's stderr, readable before `start()` so nothing early is lost. */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  private groupId: number | undefined;
  private forgetGroup: () => void = () => {};
  private closing: Promise<void> | undefined;
  /** Stopping what is left of the group once its leader (the server) has exited. */
  private reaping: Promise<void> | undefined;
  private readonly readBuffer: InstanceType<McpClientSdk["ReadBuffer"]>;

  constructor(
    private readonly options: ProcessGroupStdioOptions,
    private readonly sdk: McpClientSdk,
  ) {
    this.readBuffer = new sdk.ReadBuffer();
  }

  /** The server's process id (its group id too), once started. */
  get pid(): number | null {
    return this.groupId ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error("The stdio transport is already started.");
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args ?? [], {
        env: { ...this.sdk.getDefaultEnvironment(), ...this.options.env },
        cwd: this.options.cwd,
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
        shell: false,
      });
      this.child = child;
      child.on("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on("spawn", () => {
        this.groupId = child.pid;
        if (child.pid !== undefined) this.forgetGroup = trackProcessGroup(child.pid);
        resolve();
      });
      child.on("exit", () => {
        if (this.groupId !== undefined) this.reaping ??= reapGroup(this.groupId);
      });
      child.on("close", () => {
        void (this.reaping ?? Promise.resolve()).then(() => {
          this.forgetGroup();
          this.stderr.end();
          this.onclose?.();
        });
      });
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => this.receive(chunk));
      child.stderr?.pipe(this.stderr, { end: false });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.writableEnded || this.closing) {
        reject(new Error("Not connected"));
        return;
      }
      if (stdin.write(this.sdk.serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /**
   * Ends stdin; if the server's group is still there after {@link STDIN_CLOSE_GRACE_MS}, sends it
   * SIGTERM, and SIGKILL after {@link SIGTERM_GRACE_MS}. Resolves once no process of the group is
   * left (a process outside it, started with setsid, may keep the pipes: they are then closed).
   */
  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  private async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    const groupId = this.groupId;
    if (groupId !== undefined) {
      if (!(await exited(child, STDIN_CLOSE_GRACE_MS))) {
        signalProcessGroup(groupId, "SIGTERM");
        if (!(await exited(child, SIGTERM_GRACE_MS))) signalProcessGroup(groupId, "SIGKILL");
        await exited(child, SIGTERM_GRACE_MS);
      }
      // The leader is gone: its exit started stopping the rest of its group.
      if (exitedNow(child)) await (this.reaping ??= reapGroup(groupId));
    }
    this.forgetGroup();
    if (exitedNow(child)) {
      child.stdout?.destroy();
      child.stderr?.destroy();
    }
    this.readBuffer.clear();
  }

  private receive(chunk: Buffer): void {
    this.readBuffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.readBuffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }
}

function exitedNow(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Waits up to `timeoutMs` for the server (the group's leader) to exit; says whether it did. */
async function exited(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  return until(() => exitedNow(child), timeoutMs);
}

/**
 * Stops what is left of a group whose leader has exited: SIGTERM, then SIGKILL after
 * {@link SIGTERM_GRACE_MS}; resolves once no process of it runs (or, after another grace period,
 * when one cannot be stopped). Never rejects.
 */
async function reapGroup(groupId: number): Promise<void> {
  if (!processGroupExists(groupId)) return;
  signalProcessGroup(groupId, "SIGTERM");
  if (await until(() => !processGroupExists(groupId), SIGTERM_GRACE_MS)) return;
  signalProcessGroup(groupId, "SIGKILL");
  await until(() => !processGroupExists(groupId), SIGTERM_GRACE_MS);
}

/** Polls `condition` every {@link POLL_MS} for up to `timeoutMs`; says whether it became true. */
async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    if (condition()) return true;
    if (Date.now() >= giveUpAt) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
