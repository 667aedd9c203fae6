/**
 * options.js — checking the options callers pass, with MidfoldError('invalid-option').
 */
import { MidfoldError } from './errors.js';
import { MAX_MESSAGES } from './limits.js';

// Indices match enum mf_profile (src/midfold.h).
export const PROFILES = ['bareagent', 'o200k', 'cl100k', 'deepseek', 'qwen', 'claude', 'safe'];
export const FORMATS = { auto: 0, anthropic: 1, openai: 2, 'ai-sdk': 3, 'openai-responses': 5, 'ai-sdk-ui': 6, langchain: 7 };
export const FORMAT_NAMES = ['auto', 'anthropic', 'openai', 'ai-sdk', 'unknown', 'openai-responses', 'ai-sdk-ui', 'langchain'];

function bad(message) { throw new MidfoldError('invalid-option', message); }

/**
 * The options object itself: undefined or a plain object. With `known`, a key it does not
 * list is an error naming it: a misspelt option (keepRecnt, exclude_tools) would otherwise
 * be ignored without a word, and the default it leaves in place may clear what the caller
 * meant to keep.
 * @param {unknown} options
 * @param {string} fn the function's name, for the message
 * @param {readonly string[]} [known] the option names the function reads
 */
export function optionsObject(options, fn, known) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) bad(`${fn}: options must be an object`);
  if (known) {
    for (const name of Object.keys(options)) {
      if (!known.includes(name)) bad(`${fn}: unknown option ${JSON.stringify(name)}; known: ${known.join(', ')}`);
    }
  }
  return /** @type {Record<string, any>} */ (options);
}

/** A profile name to its index in the C table. */
export function profileIndex(profile) {
  if (profile === undefined) return 0;
  const i = PROFILES.indexOf(profile);
  if (i < 0) bad(`unknown profile ${JSON.stringify(profile)}; known: ${PROFILES.join(', ')}`);
  return i;
}

/** A format name to its mf_format value. */
export function formatIndex(format) {
  if (format === undefined) return 0;
  if (typeof format !== 'string' || !Object.prototype.hasOwnProperty.call(FORMATS, format))
    bad(`unknown format ${JSON.stringify(format)}; known: ${Object.keys(FORMATS).join(', ')}`);
  return FORMATS[format];
}

/** A whole number >= 0 (or the default when undefined). */
export function count(value, name, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffffffff)
    bad(`${name} must be a whole number >= 0, got ${String(value)}`);
  return value;
}

/** A list of strings (tool names). */
export function stringList(value, name) {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((s) => typeof s !== 'string' || s.includes('\0')))
    bad(`${name} must be an array of strings`);
  return value;
}

/**
 * Array.isArray that never throws: a revoked Proxy makes it throw a TypeError, which
 * becomes MidfoldError('invalid-input') like any other unreadable input.
 */
export function isArray(value) {
  try {
    return Array.isArray(value);
  } catch (e) {
    throw new MidfoldError('invalid-input', `the input cannot be read (${e && e.message})`, { cause: e });
  }
}

/** The messages argument: an array of at most MAX_MESSAGES (checkMessageCount). */
export function messagesArray(messages, fn) {
  if (!isArray(messages))
    throw new MidfoldError('invalid-input', `${fn}: messages must be an array, got ${messages === null ? 'null' : typeof messages}`);
  return checkMessageCount(messages, fn);
}

/**
 * Throws MidfoldError('too-large') when `list` claims more items than a conversation may hold
 * (MF_MAX_MESSAGES), as the core would, but from its length alone: a sparse array of length
 * 10^9 is refused at once instead of after seconds of holes read as nulls and an out-of-memory
 * error. Returns `list`.
 * @template {unknown[]} T
 * @param {T} list
 * @param {string} fn the function's name, for the message
 * @returns {T}
 */
export function checkMessageCount(list, fn) {
  if (list.length > MAX_MESSAGES)
    throw new MidfoldError('too-large', `${fn}: more than ${MAX_MESSAGES} messages (the list's length is ${list.length})`);
  return list;
}

/**
 * checkMessageCount for any input: the list the core reads as the messages of `value`
 * (src/doc.c: the value itself when it is a list, else its `messages` list, else its `input`
 * list, a Responses body). Reading `value` may throw (a revoked proxy, a getter): then the
 * encoder reports it, naming the path.
 * @param {unknown} value
 * @param {string} fn
 */
export function checkConversationSize(value, fn) {
  let list;
  try {
    if (Array.isArray(value)) list = value;
    else if (value !== null && typeof value === 'object') {
      list = Array.isArray(value.messages) ? value.messages : Array.isArray(value.input) ? value.input : undefined;
    }
  } catch {
    return;
  }
  if (list !== undefined) checkMessageCount(list, fn);
}
