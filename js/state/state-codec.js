/**
 * state-codec.js — a SessionState's JSON (session-state.js): version, the shared `messages`
 * list, and per snapshot its settings, count, prefix hash and items, items naming a
 * message by `ref`. Reading checks every field and names what is wrong
 * (MidfoldError('invalid-state')); writing stores each distinct message once.
 */
import { MidfoldError } from '../core/errors.js';
import { checkDepth } from '../core/depth.js';

export const STATE_VERSION = 1;
const HEX64 = /^[0-9a-f]{64}$/;

function stateError(message) { return new MidfoldError('invalid-state', message); }

/** Whether `v` is an object that is not an array (nor null). */
export const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
/** Whether `v` is a whole number >= 0. */
export const isCount = (v) => Number.isInteger(v) && v >= 0;
const encoder = /* @__PURE__ */ new TextEncoder();
const utf8Length = (text) => encoder.encode(text).length;

/** Checks one snapshot read from JSON and resolves its refs into `messages`; throws a
 * MidfoldError naming what is wrong. */
function readSnapshot(s, where, messages) {
  if (!isObject(s)) throw stateError(`${where} is not an object`);
  if (typeof s.settings !== 'string') throw stateError(`${where}.settings must be a string`);
  if (!isCount(s.count)) throw stateError(`${where}.count must be a whole number`);
  if (typeof s.prefix !== 'string' || !HEX64.test(s.prefix)) throw stateError(`${where}.prefix must be 64 hex digits`);
  if (!Array.isArray(s.items)) throw stateError(`${where}.items must be an array`);
  if (s.tokens !== undefined && !isCount(s.tokens)) throw stateError(`${where}.tokens must be a whole number`);
  if (s.branch !== undefined && !isCount(s.branch)) throw stateError(`${where}.branch must be a whole number`);
  if (s.bytes !== undefined && !isCount(s.bytes)) throw stateError(`${where}.bytes must be a whole number`);
  if (s.anchor !== undefined && !(isObject(s.anchor) && isCount(s.anchor.inputTokens) && isCount(s.anchor.count)
    && (s.anchor.context === undefined || typeof s.anchor.context === 'string')))
    throw stateError(`${where}.anchor must be {inputTokens, count, context?} with whole numbers and a string`);
  const items = s.items.map((item, k) => {
    const at = `${where}.items[${k}]`;
    if (Array.isArray(item)) {
      const [from, to] = item;
      if (item.length !== 2 || !isCount(from) || !isCount(to) || from >= to || to > s.count)
        throw stateError(`${at} must be [from, to] with 0 <= from < to <= count`);
      return [from, to];
    }
    if (!isObject(item)) throw stateError(`${at} must be [from, to] or {ref}`);
    if (!isCount(item.ref) || item.ref >= messages.length) throw stateError(`${at}.ref must index the messages list`);
    if (item.at !== undefined && (!isCount(item.at) || item.at >= s.count)) throw stateError(`${at}.at must be an index below count`);
    return item.at === undefined ? { message: messages[item.ref] } : { at: item.at, message: messages[item.ref] };
  });
  // (a state written before branches existed is one branch, as it was one list)
  const out = { settings: s.settings, count: s.count, prefix: s.prefix, items, branch: s.branch ?? 0 };
  if (s.tokens !== undefined) out.tokens = s.tokens;
  if (s.bytes !== undefined) out.bytes = s.bytes;
  // (an anchor written before contexts has none: it prices only calls that name none)
  if (s.anchor !== undefined) {
    out.anchor = { inputTokens: s.anchor.inputTokens, count: s.anchor.count };
    if (s.anchor.context !== undefined) out.anchor.context = s.anchor.context;
  }
  return out;
}

/** The snapshots of a state from its JSON (text or parsed); throws MidfoldError('invalid-state'). */
export function parseState(json) {
  let data = json;
  if (typeof json === 'string') {
    try { data = JSON.parse(json); } catch (e) { throw stateError(`the session state is not valid JSON: ${e.message}`); }
  }
  if (!isObject(data)) throw stateError('the session state must be an object');
  if (data.version !== STATE_VERSION) throw stateError(`unknown session state version ${JSON.stringify(data.version)} (this midfold reads ${STATE_VERSION})`);
  if (!Array.isArray(data.snapshots)) throw stateError('the session state has no snapshots list');
  let messages = data.messages === undefined ? [] : data.messages;
  if (!Array.isArray(messages) || !messages.every(isObject)) throw stateError('the session state\'s messages must be a list of objects');
  // (what midfold wrote passed the estimator: a message nested past its limit is not one of them)
  try {
    messages.forEach((m, i) => checkDepth(m, ['messages', i], 1));
  } catch (e) {
    throw stateError(`the session state's messages cannot be read: ${e.message}`);
  }
  // The state's messages are its own, never changed (textOf): data given as an object is the caller's, and copied.
  if (typeof json !== 'string') messages = JSON.parse(JSON.stringify(messages));
  return data.snapshots.map((s, i) => readSnapshot(s, `snapshots[${i}]`, messages));
}

/**
 * Each message's JSON text and its UTF-8 length, by object, written once: a snapshot's messages
 * never change (compactHistory writes new ones for what it remembers, and a state read from
 * JSON holds copies of its own), so a state that grew by a snapshot is written from what is new
 * in it (an integration measures its states after every call that records one).
 * @type {WeakMap<object, {text: string, bytes: number}>}
 */
const texts = /* @__PURE__ */ new WeakMap();
function textOf(message) {
  let t = texts.get(message);
  if (t === undefined) {
    const text = JSON.stringify(message);
    t = { text, bytes: utf8Length(text) };
    texts.set(message, t);
  }
  return t;
}

/** A state's JSON data with its messages list left empty, and that list's texts (each distinct message once, by ref). */
function layout(snapshots) {
  const index = new Map();
  const list = [];
  const ref = (message) => {
    const t = textOf(message);
    let k = index.get(t.text);
    if (k === undefined) { k = list.length; index.set(t.text, k); list.push(t); }
    return k;
  };
  const data = {
    version: STATE_VERSION,
    messages: [],
    snapshots: snapshots.map((s) => ({
      ...s,
      ...(s.anchor ? { anchor: { ...s.anchor } } : {}),
      items: s.items.map((item) => (Array.isArray(item) ? [...item]
        : item.at === undefined ? { ref: ref(item.message) } : { at: item.at, ref: ref(item.message) })),
    })),
  };
  return { data, list };
}

/** The JSON data of `snapshots`, each distinct message once (copies: nothing of `snapshots` is shared). */
export function writeState(snapshots) {
  const { data, list } = layout(snapshots);
  data.messages = list.map((t) => JSON.parse(t.text));
  return data;
}

/** JSON.stringify(writeState(snapshots)), without parsing each message's text back to write it again. */
export function stateText(snapshots) {
  const { data, list } = layout(snapshots);
  const rest = JSON.stringify({ snapshots: data.snapshots });
  return `{"version":${STATE_VERSION},"messages":[${list.map((t) => t.text).join(',')}],${rest.slice(1)}`;
}

/** The UTF-8 bytes of the JSON text a store is given for `snapshots` (what maxBytes caps): stateText's length. */
export function stateBytes(snapshots) {
  const { data, list } = layout(snapshots);
  let bytes = utf8Length(JSON.stringify(data)); // (with "messages":[] )
  for (const t of list) bytes += t.bytes;
  return bytes + Math.max(0, list.length - 1); // (and a comma between two)
}
