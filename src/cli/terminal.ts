/**
 * What the terminal can show: whether a stream gets colour and a spinner, and the few styles the
 * command uses.
 * @module
 */

/** A stream the command writes to: process.stdout, process.stderr, or a test double. */
export interface OutputStream {
  write(text: string): unknown;
  /** True when the stream is a terminal (`process.stdout.isTTY`). */
  readonly isTTY?: boolean;
}

/**
 * Whether `stream` may receive colour and cursor movement: only a terminal, and only while
 * `NO_COLOR` is unset or empty (https://no-color.org).
 */
export function isInteractiveTerminal(stream: OutputStream, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === "");
}

/** The styles the renderer uses; each is the identity when colour is off. */
export interface Style {
  dim(text: string): string;
  bold(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

/** Styles with ANSI colour codes when `enabled`, plain text otherwise. */
export function createStyle(enabled: boolean): Style {
  const paint = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    dim: paint(2, 22),
    bold: paint(1, 22),
    green: paint(32, 39),
    red: paint(31, 39),
    yellow: paint(33, 39),
    cyan: paint(36, 39),
  };
}

/**
 * `text` with every control character but newline and tab made visible: C0 characters and DEL as
 * their Unicode control pictures (ESC as `␛`, a carriage return not followed by a newline as `␍`),
 * C1 characters as `�`. Text from the model, a tool or a server must not drive the terminal —
 * retitle it, hide or overwrite lines, or write the clipboard (OSC 52).
 */
export function neutraliseControls(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  return text.replace(/\r(?!\n)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, (character) => {
    const code = character.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    return code === 0x7f ? "\u2421" : "\ufffd";
  });
}

/** Removes ANSI escape sequences (colour, cursor movement) from `text`. */
export function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
}
