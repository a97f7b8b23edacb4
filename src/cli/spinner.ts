/**
 * A one-line spinner on a terminal, shown while the command waits on the model or on tools.
 * @module
 */
import type { OutputStream } from "./terminal";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const FRAME_INTERVAL_MS = 80;

/** Shows a label with an animated frame; {@link Spinner.stop} erases it. */
export interface Spinner {
  /** Starts the spinner, or changes its label when it already runs. */
  start(label: string): void;
  /** Erases the spinner line. Safe when it does not run. */
  stop(): void;
}

/** A spinner that never draws anything: for pipes, files and `NO_COLOR`. */
export const SILENT_SPINNER: Spinner = { start() {}, stop() {} };

/**
 * A spinner drawing on `stream`, which must be a terminal. Its timer is unreferenced, so it never
 * keeps the process alive.
 */
export function createTerminalSpinner(stream: OutputStream): Spinner {
  let timer: NodeJS.Timeout | undefined;
  let label = "";
  let frame = 0;
  const draw = () => {
    stream.write(
      `\r\u001b[2K\u001b[36m${FRAMES[frame % FRAMES.length]}\u001b[39m \u001b[2m${label}\u001b[22m`,
    );
    frame += 1;
  };
  return {
    start(next) {
      label = next;
      if (timer) return;
      draw();
      timer = setInterval(draw, FRAME_INTERVAL_MS);
      timer.unref();
    },
    stop() {
      if (!timer) return;
      clearInterval(timer);
      timer = undefined;
      stream.write("\r\u001b[2K");
    },
  };
}
