/**
 * limits.js — the core's input limits (src/midfold.h), for the JavaScript that reads a
 * caller's values before or beside the core: it refuses what the core would refuse, with the
 * same error code, before it walks what it cannot finish.
 */

/** Nesting of arrays and objects, MF_MAX_DEPTH: deeper is 'too-deep'. */
export const MAX_DEPTH = 512;
/** One input's bytes, MF_MAX_INPUT_BYTES: larger is 'too-large'. */
export const MAX_INPUT_BYTES = 2 ** 30;
/** Messages in one conversation, MF_MAX_MESSAGES: more is 'too-large'. */
export const MAX_MESSAGES = 1_000_000;
