/**
 * progress.js — a progress line on stderr, as terminal tools show one: on a terminal, by
 * itself once the work has taken a second (a line rewritten in place, cleared at the end);
 * with --progress also when stderr is a pipe or a file, from the start, a line at most every
 * second and the last one always.
 */

/** How long work runs before a terminal shows its progress, and how often a line is written to a pipe. */
const AFTER_MS = 1000;
const PIPE_EVERY_MS = 1000;
const TERMINAL_EVERY_MS = 100;

/**
 * @param {{stream?: {isTTY?: boolean, write(text: string): unknown}, forced?: boolean, now?: () => number}} [options]
 */
export function progressLine({ stream = process.stderr, forced = false, now = Date.now } = {}) {
  const terminal = Boolean(stream.isTTY);
  const enabled = forced || terminal;
  const started = now();
  let last = -Infinity, shown = false, pending = null;
  const write = (text) => {
    shown = true;
    last = now();
    pending = null;
    stream.write(terminal ? `\r\x1b[Kmidfold: ${text}` : `midfold: ${text}\n`);
  };
  return {
    /** The work is at `text` now. */
    update(text) {
      if (!enabled) return;
      const t = now();
      pending = text;
      if (!forced && t - started < AFTER_MS) return;
      if (t - last < (terminal ? TERMINAL_EVERY_MS : PIPE_EVERY_MS)) return;
      write(text);
    },
    /** The work is over: a pipe gets the last state it has not seen; a terminal's line is cleared. */
    done() {
      if (!enabled) return;
      if (terminal) { if (shown) stream.write('\r\x1b[K'); return; }
      if (pending !== null) write(pending);
    },
  };
}
