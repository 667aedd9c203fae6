/**
 * errors.js — the one error type the synchronous API throws.
 */

/**
 * An error from midfold. `code` is stable and machine-readable; `position` is set for
 * parse errors (a byte offset) and for messages of the wrong shape (a message index);
 * `path` (like `messages[3].content[0].input`) says where in a JS value the trouble is.
 */
export class MidfoldError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {{position?: number, path?: string, cause?: unknown}} [details]
   */
  constructor(code, message, details = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'MidfoldError';
    this.code = code;
    if (details.position !== undefined) this.position = details.position;
    if (details.path !== undefined) this.path = details.path;
  }
}

/** C status codes (mf_status) to the codes JS callers see. */
export const STATUS_CODES = [
  'ok', 'out-of-memory', 'parse-error', 'invalid-argument', 'invalid-shape', 'too-deep',
  'too-large', 'unknown-format',
];
