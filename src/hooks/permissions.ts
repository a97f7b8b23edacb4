/**
 * Permission rules that run before hooks and `canUseTool`: the allow/deny lists and the mode.
 * @module
 */
import { InvalidOptionError } from "../errors";
import type { PermissionDenial } from "../messages/sdk-messages";
import type { PermissionMode } from "./types";

const PERMISSION_MODES: readonly PermissionMode[] = [
  "default",
  "plan",
  "bypassPermissions",
  "askBeforeWrites",
];

/**
 * Checks the permission options once, at creation: a misspelt mode must not silently fall back to
 * another one, and every list entry must be a name, a `*` pattern or a RegExp.
 * @throws InvalidOptionError
 */
export function validatePermissionOptions(options: {
  permissionMode?: unknown;
  allowedTools?: unknown;
  disallowedTools?: unknown;
  canUseTool?: unknown;
}): void {
  if (
    options.permissionMode !== undefined &&
    !PERMISSION_MODES.includes(options.permissionMode as PermissionMode)
  )
    throw new InvalidOptionError(
      `permissionMode must be one of ${PERMISSION_MODES.map((mode) => `"${mode}"`).join(", ")}, got ${JSON.stringify(options.permissionMode)}.`,
    );
  if (options.canUseTool !== undefined && typeof options.canUseTool !== "function")
    throw new InvalidOptionError("canUseTool must be a function (toolName, input, { signal, toolUseId }).");
  for (const list of ["allowedTools", "disallowedTools"] as const) {
    const patterns = options[list];
    if (patterns === undefined) continue;
    if (
      !Array.isArray(patterns) ||
      !patterns.every((pattern) => typeof pattern === "string" || pattern instanceof RegExp)
    )
      throw new InvalidOptionError(`${list} must be an array of tool names, "*" patterns or RegExps.`);
    for (const pattern of patterns) {
      // "bash|write_file" or "mcp.github.*" would silently match nothing: a deny list denying nothing.
      if (typeof pattern === "string" && !canMatchToolName(pattern))
        throw new InvalidOptionError(
          `${list} entry ${JSON.stringify(pattern)} can never match a tool name: names hold only letters, digits, _ and -, ` +
            'and a string entry is a name or a "*" pattern. Use a RegExp for anything else, e.g. /^(bash|write_file)$/.',
        );
    }
  }
}

/** Characters of tool names (the Messages API's rule, enforced by `defineTool`). */
const TOOL_NAME_CHARACTERS = /^[a-zA-Z0-9_-]*$/;

/**
 * Whether a string name or `*` pattern can match some tool name: it is not empty, and besides `*`
 * holds only the characters tool names are made of.
 */
export function canMatchToolName(pattern: string): boolean {
  return pattern !== "" && TOOL_NAME_CHARACTERS.test(pattern.replaceAll("*", ""));
}

/** A tool-name pattern: exact name, `*` wildcards, or a RegExp. */
export type ToolPattern = string | RegExp;

/** Whether `toolName` matches any of `patterns`. */
export function matchesAnyPattern(patterns: readonly ToolPattern[] | undefined, toolName: string): boolean {
  if (!patterns) return false;
  for (const pattern of patterns) {
    if (typeof pattern === "string") {
      if (pattern === toolName) return true;
      if (pattern.includes("*") && wildcardToRegExp(pattern).test(toolName)) return true;
    } else {
      pattern.lastIndex = 0;
      if (pattern.test(toolName)) return true;
    }
  }
  return false;
}

function wildcardToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${escaped}$`);
}

/** Outcome of the static rules for one call. */
export type StaticPermission =
  | { kind: "deny"; source: PermissionDenial["source"]; message: string }
  | { kind: "allow" }
  | { kind: "ask" }
  /** `askBeforeWrites`: a person must approve the call. */
  | { kind: "approval" };

/**
 * Lists, then mode. Deny wins: `disallowedTools` refuses; `plan` mode refuses tools that are not
 * read-only; read-only tools, `allowedTools` matches and `bypassPermissions` run without asking;
 * everything else asks `canUseTool` (when set).
 */
export function staticPermission(
  toolName: string,
  readOnly: boolean,
  rules: {
    allowedTools?: readonly ToolPattern[];
    disallowedTools?: readonly ToolPattern[];
    permissionMode: PermissionMode;
  },
): StaticPermission {
  if (matchesAnyPattern(rules.disallowedTools, toolName)) {
    return {
      kind: "deny",
      source: "disallowedTools",
      message: `The tool "${toolName}" is not allowed in this session (disallowedTools).`,
    };
  }
  if (rules.permissionMode === "plan" && !readOnly) {
    return {
      kind: "deny",
      source: "permissionMode",
      message: `The agent is in plan mode: only read-only tools may run, so "${toolName}" was not run. Describe the change you would make instead.`,
    };
  }
  if (
    readOnly ||
    rules.permissionMode === "bypassPermissions" ||
    matchesAnyPattern(rules.allowedTools, toolName)
  ) {
    return ALLOW;
  }
  return rules.permissionMode === "askBeforeWrites" ? APPROVAL : ASK;
}

const ALLOW: StaticPermission = Object.freeze({ kind: "allow" });
const ASK: StaticPermission = Object.freeze({ kind: "ask" });
const APPROVAL: StaticPermission = Object.freeze({ kind: "approval" });
