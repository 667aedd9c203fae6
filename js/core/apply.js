/**
 * apply.js — applies a micro-compaction plan to the caller's own objects, in place.
 * Every target is checked first, so a frozen or odd object stops the whole plan before
 * anything changes.
 */
import { MidfoldError } from './errors.js';

// mf_edit_target values (src/midfold.h)
const BLOCK_CONTENT = 1, MESSAGE_CONTENT = 2, PART_OUTPUT = 3, PART_OUTPUT_ERROR = 4, PART_RESULT = 5, ITEM_OUTPUT = 6;
const UI_OUTPUT = 16, UI_ERROR_TEXT = 17; // AI SDK UIMessage tool parts: messages[m].parts[p]
// Anthropic server-tool results: the block's content object is replaced by a copy whose
// output field holds the marker (the caller's nested objects are never mutated).
const RESULT_STDOUT = 20, RESULT_VIEW = 21, RESULT_FETCHED = 22;
// A cleared call's input (clearToolInputs): the replacement is the new input as JSON text, set
// as a value where the format holds one, as the string itself where it holds a string of JSON.
const CALL_INPUT = 30, CALL_ARGS = 31, UI_INPUT = 32, CALL_ARGUMENTS = 33, MESSAGE_CALL_ARGS = 34, ITEM_ARGUMENTS = 35;
// The two lookups below are functions, not a top-level object or Set: a bundler keeps
// top-level computed keys and constructor calls, which put this module into every page,
// even one that only estimates.

/** True for an edit of a call's input (clearToolInputs), not of a result. */
export const isInputEdit = (edit) => edit.target >= CALL_INPUT;

/** The field of the holder an edit replaces (what must be writable). */
function fieldOf(target) {
  switch (target) {
    case BLOCK_CONTENT: case MESSAGE_CONTENT: case RESULT_STDOUT: case RESULT_VIEW: case RESULT_FETCHED: return 'content';
    case PART_OUTPUT: case PART_OUTPUT_ERROR: case ITEM_OUTPUT: case UI_OUTPUT: return 'output';
    case PART_RESULT: return 'result';
    case UI_ERROR_TEXT: return 'errorText';
    case CALL_INPUT: case UI_INPUT: return 'input';
    case CALL_ARGS: case MESSAGE_CALL_ARGS: return 'args';
    case CALL_ARGUMENTS: case ITEM_ARGUMENTS: return 'arguments';
    default: return undefined;
  }
}

/** Whether the target edits the message (an OpenAI Responses item) itself, not a block of its content. */
function onMessage(target) { return target === MESSAGE_CONTENT || target === ITEM_OUTPUT || target === ITEM_ARGUMENTS; }

/** Whether the target edits an entry of the message's tool_calls (OpenAI Chat, LangChain). */
function onToolCall(target) { return target === CALL_ARGUMENTS || target === MESSAGE_CALL_ARGS; }

/** The list an edit's part index points into: a UIMessage's `parts`, the message's `tool_calls`, else `content`. */
function listKey(edit) {
  if (onToolCall(edit.target)) return 'tool_calls';
  return edit.target === UI_OUTPUT || edit.target === UI_ERROR_TEXT || edit.target === UI_INPUT ? 'parts' : 'content';
}

/** The server-tool result content `c` with its output replaced by `text` (docs/anthropic-blocks.md). */
function serverResult(target, c, text) {
  if (target === RESULT_STDOUT) return { ...c, stdout: text, stderr: '' };
  if (target === RESULT_VIEW) return { ...c, content: text, file_type: 'text' };
  return { ...c, content: { ...c.content, source: { type: 'text', media_type: 'text/plain', data: text } } };
}

function holder(messages, edit) {
  const msg = messages[edit.message];
  if (onMessage(edit.target)) return msg;
  const list = msg && msg[listKey(edit)];
  const entry = Array.isArray(list) ? list[edit.part] : undefined;
  // (a Chat call's arguments live in its `function`)
  return edit.target === CALL_ARGUMENTS ? entry && entry.function : entry;
}

/**
 * What an edit of a plan made from `messages` replaces, before it is applied: the value of the
 * field it writes (a tool result's content or output, a server-tool result's whole content
 * object). Reads `messages`; the value returned is the caller's own, not a copy.
 * @param {unknown[]} messages
 * @param {{message: number, part: number, target: number}} edit
 */
export function editedValue(messages, edit) {
  const obj = holder(messages, edit);
  return obj && typeof obj === 'object' ? obj[fieldOf(edit.target)] : undefined;
}

function writable(obj, key) {
  if (!obj || typeof obj !== 'object') return false;
  const d = Object.getOwnPropertyDescriptor(obj, key);
  return d ? Boolean(d.writable || d.set) : Object.isExtensible(obj);
}

/**
 * @param {unknown[]} messages the array the plan was made from
 * @param {{message: number, part: number, target: number, replacement: string}[]} edits
 */
export function applyEdits(messages, edits) {
  for (const e of edits) {
    if (!writable(holder(messages, e), fieldOf(e.target)))
      throw new MidfoldError('read-only-input', `messages[${e.message}] cannot be edited (frozen or read-only); nothing was changed`,
        { position: e.message });
  }
  for (const e of edits) {
    const obj = holder(messages, e);
    switch (e.target) {
      case BLOCK_CONTENT: case MESSAGE_CONTENT: obj.content = e.replacement; break;
      case PART_OUTPUT: obj.output = { type: 'text', value: e.replacement }; break;
      case PART_OUTPUT_ERROR: obj.output = { type: 'error-text', value: e.replacement }; break;
      case PART_RESULT: obj.result = e.replacement; break;
      // The UI part keeps its state: output-available with the marker as its output (a string,
      // which convertToModelMessages sends as text), output-error with the marker as its errorText.
      case UI_OUTPUT: obj.output = e.replacement; break;
      case UI_ERROR_TEXT: obj.errorText = e.replacement; break;
      case ITEM_OUTPUT: obj.output = e.replacement; break;
      case RESULT_STDOUT: case RESULT_VIEW: case RESULT_FETCHED:
        obj.content = serverResult(e.target, obj.content, e.replacement); break;
      case CALL_INPUT: case UI_INPUT: obj.input = JSON.parse(e.replacement); break;
      case CALL_ARGS: case MESSAGE_CALL_ARGS: obj.args = JSON.parse(e.replacement); break;
      case CALL_ARGUMENTS: case ITEM_ARGUMENTS: obj.arguments = e.replacement; break;
      default: throw new MidfoldError('internal', `unknown edit target ${e.target}`);
    }
  }
}

/**
 * The plan applied to copies: a new array in which every edited message (and the
 * content list and block on the way to the edit) is a shallow copy carrying the edit;
 * the caller's objects are not touched.
 * @param {unknown[]} messages
 * @param {{message: number, part: number, target: number, replacement: string}[]} edits
 */
export function applyEditsToCopy(messages, edits) {
  const copy = messages.slice();
  copyAlong(copy, edits);
  applyEdits(copy, edits);
  return copy;
}

/**
 * Replaces in `messages` each message an edit targets by a shallow copy, with the content list
 * and block on the way to the edit copied too, so that applying `edits` writes only copies.
 */
function copyAlong(messages, edits) {
  const copied = new Set();
  for (const e of edits) {
    if (!copied.has(e.message)) {
      const msg = { ...messages[e.message] };
      if (Array.isArray(msg.content)) msg.content = msg.content.slice();
      if (Array.isArray(msg.parts)) msg.parts = msg.parts.slice();
      if (Array.isArray(msg.tool_calls)) msg.tool_calls = msg.tool_calls.slice();
      messages[e.message] = msg;
      copied.add(e.message);
    }
    if (!onMessage(e.target)) {
      const list = messages[e.message][listKey(e)];
      list[e.part] = { ...list[e.part] };
      if (e.target === CALL_ARGUMENTS) list[e.part].function = { ...list[e.part].function };
    }
  }
}

/**
 * The plan applied in place, where a message's edited field cannot be written (the caller
 * froze it: Immer's state is deep-frozen) to a copy that replaces it in the array, which must
 * be writable there; other targets are edited in place as applyEdits does. For a caller that
 * rebuilds the array anyway (the Compactor); anything else it cannot edit is 'read-only-input',
 * with nothing changed.
 * @param {unknown[]} messages
 * @param {{message: number, part: number, target: number, replacement: string}[]} edits
 */
export function applyEditsCopyingReadOnly(messages, edits) {
  const readOnly = edits.filter((e) => {
    const h = holder(messages, e);
    const slot = Object.getOwnPropertyDescriptor(messages, e.message);
    return h !== null && typeof h === 'object' && !writable(h, fieldOf(e.target)) && slot !== undefined && slot.writable === true;
  });
  if (readOnly.length) {
    const indexes = new Set(readOnly.map((e) => e.message));
    copyAlong(messages, edits.filter((e) => indexes.has(e.message)));
  }
  applyEdits(messages, edits);
}
