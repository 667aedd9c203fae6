/**
 * hash.js — content hashes of messages, so a host that rebuilds or re-parses its history
 * (a proxy that gets JSON, a framework that copies its arrays) still names the same
 * message the same way. SHA-256 through WebCrypto (`crypto.subtle`: Node >= 20,
 * browsers, workerd), over a canonical JSON of the message.
 */
import { viewOf } from '../core/langchain.js';
import { MidfoldError } from '../core/errors.js';
import { pathOf } from '../core/encode.js';
import { MAX_DEPTH } from '../core/limits.js';
import { checkMessageCount } from '../core/options.js';

// Marked pure so that a bundle which uses nothing of this module drops it.
const encoder = /* @__PURE__ */ new TextEncoder();

function subtle() {
  const c = globalThis.crypto;
  if (!c || !c.subtle || typeof c.subtle.digest !== 'function')
    throw new MidfoldError('unsupported', 'session state needs WebCrypto (crypto.subtle.digest): Node >= 20, a browser or workerd');
  return c.subtle;
}

/** The bytes of binary data (a typed array, a Buffer, a DataView, an ArrayBuffer), else null. */
export function bytesOf(v) {
  if (v === null || typeof v !== 'object') return null;
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  // By tag rather than instanceof, so buffers from another realm count too.
  const tag = Object.prototype.toString.call(v);
  return tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]' ? new Uint8Array(v) : null;
}

/** Standard base64 of bytes, in any host (the ES2025 toBase64, Node's Buffer, else btoa). */
export function base64(bytes) {
  if (typeof bytes.toBase64 === 'function') return bytes.toBase64();
  if (typeof Buffer === 'function') return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * The canonical JSON text of a value: what JSON.stringify would write (toJSON honoured,
 * undefined and functions dropped from objects and written as null in arrays), with the
 * keys of every object sorted, so key order and re-parsing do not change it. Binary data
 * is `{"$bytes":"<base64>"}`, not JSON.stringify's object of one key per byte: an image's
 * bytes in an AI SDK prompt (1 MiB) would be 11 MB of text and 1.5 s per call. Cycles are
 * a MidfoldError, as JSON.stringify would throw; so is nesting deeper than the core reads
 * (512 levels: 'too-deep', naming the path, as the estimator does), before the walk could
 * run out of stack.
 * @param {unknown} value
 * @returns {string}
 */
export function canonicalJSON(value) {
  return canonical(value, [], 0);
}

/**
 * canonicalJSON of `value`, which sits `depth` arrays and objects down in the caller's input
 * at the path `keys` (each message of a history is one level down its list, as the core
 * counts it). Reads `keys` and leaves it as it was.
 */
function canonical(value, keys, depth) {
  const seen = new Set();
  const walk = (v, inArray) => {
    // Binary data before toJSON (a Buffer's toJSON would spell out every byte).
    const bytes = v !== null && typeof v === 'object' ? bytesOf(v) : null;
    if (bytes) return `{"$bytes":"${base64(bytes)}"}`;
    if (v !== null && typeof v === 'object' && typeof v.toJSON === 'function') v = v.toJSON();
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return inArray ? 'null' : undefined;
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'bigint') throw new MidfoldError('invalid-input', 'a message holds a BigInt, which JSON cannot carry');
      return JSON.stringify(v);
    }
    if (seen.has(v)) throw new MidfoldError('invalid-input', 'a message refers to itself (a cycle), which JSON cannot carry');
    if (depth + seen.size >= MAX_DEPTH) {
      const path = pathOf(keys);
      throw new MidfoldError('too-deep', `nesting deeper than ${MAX_DEPTH} levels at ${path}`, { path });
    }
    seen.add(v);
    let out;
    if (Array.isArray(v)) {
      const items = [];
      for (let i = 0; i < v.length; i++) {
        keys.push(i);
        items.push(walk(v[i], true));
        keys.pop();
      }
      out = `[${items.join(',')}]`;
    } else {
      const parts = [];
      for (const key of Object.keys(v).sort()) {
        keys.push(key);
        const text = walk(v[key], false);
        keys.pop();
        if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
      }
      out = `{${parts.join(',')}}`;
    }
    seen.delete(v);
    return out;
  };
  const text = walk(value, false);
  return text === undefined ? 'null' : text;
}

/** Lowercase hex of bytes. */
export function hex(bytes) {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let out = '';
  for (const b of view) out += b.toString(16).padStart(2, '0');
  return out;
}

/**
 * SHA-256 of a string (its UTF-8 bytes) or of bytes; resolves to the 32 raw bytes.
 * @param {string | Uint8Array} data
 * @returns {Promise<Uint8Array>}
 */
export async function sha256(data) {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  return new Uint8Array(await subtle().digest('SHA-256', bytes));
}

/** One message's piece of a history's canonical bytes: its canonical JSON and a newline. */
const piece = (message) => encoder.encode(`${canonical(message, [], 1)}\n`);
/** piece() of the message at `index` of its history, whose errors name that index. */
const pieceAt = (message, index) => encoder.encode(`${canonical(message, [index], 1)}\n`);

/**
 * The canonical bytes of a history, ready for hashing any of its prefixes: each
 * message's canonical JSON followed by a newline (canonical JSON holds no raw newline,
 * so no two histories give the same bytes), and where each message ends. One pass over
 * the messages; reads `messages`, never keeps it. With `cache` (an EstimateCache), each
 * message's piece is kept with its entry and written again only once the message changed
 * (the same piece object comes back for a message that still holds what it held), so a
 * history that grew costs its new messages. The pieces are joined into `bytes` only when
 * that is read.
 * @param {unknown[]} messages
 * @param {{derivedEach: Function}} [cache]
 * @returns {HistoryBytes}
 */
export function historyBytes(messages, cache) {
  let pieces;
  try {
    pieces = cache ? cache.derivedEach(messages, piece) : messages.map(pieceAt);
  } catch (e) {
    // The cached pass cannot tell which message failed: read them again until one names its index.
    if (cache) messages.forEach(pieceAt);
    throw e;
  }
  return new HistoryBytes(pieces);
}

/**
 * A history's canonical bytes as one piece a message. Ownership: keeps the pieces (shared
 * with the cache that gave them: never written to), and `bytes` once read.
 */
export class HistoryBytes {
  /** @param {Uint8Array[]} pieces */
  constructor(pieces) {
    this.pieces = pieces;
    /** Where each message's piece ends in `bytes`. */
    this.ends = new Array(pieces.length);
    let total = 0;
    for (let i = 0; i < pieces.length; i++) { total += pieces[i].length; this.ends[i] = total; }
    /** @type {Uint8Array | null} */
    this.joined = null;
  }

  /** The pieces joined (made at the first read). */
  get bytes() {
    if (this.joined === null) {
      const { pieces, ends } = this;
      this.joined = new Uint8Array(pieces.length ? ends[pieces.length - 1] : 0);
      for (let i = 0; i < pieces.length; i++) this.joined.set(pieces[i], i ? ends[i - 1] : 0);
    }
    return this.joined;
  }

  /** Whether the first `count` messages of `other` are these' to the byte (same pieces, or equal ones). */
  samePrefix(other, count) {
    if (count > this.pieces.length || count > other.pieces.length) return false;
    if (count > 0 && this.ends[count - 1] !== other.ends[count - 1]) return false;
    for (let i = 0; i < count; i++) {
      const a = this.pieces[i], b = other.pieces[i];
      if (a !== b && (a.length !== b.length || !sameBytes(a, b))) return false;
    }
    return true;
  }
}

/** Whether the first `length` bytes of `a` and `b` are equal (four at a time where both are aligned). */
function sameBytes(a, b, length = a.length) {
  let i = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = length >>> 2;
    const wa = new Int32Array(a.buffer, a.byteOffset, words);
    const wb = new Int32Array(b.buffer, b.byteOffset, words);
    for (; i < words; i++) if (wa[i] !== wb[i]) return false;
    i = words << 2;
  }
  for (; i < length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The content hash of the first `count` messages of a history (from historyBytes):
 * SHA-256 of their canonical bytes, as 64 hex digits. A host that re-parses or rebuilds
 * its array, or writes its keys in another order, gets the same hash; any change to any
 * of those messages, their order or their number gives another.
 * @param {{bytes: Uint8Array, ends: number[]}} history (a HistoryBytes)
 * @param {number} count
 * @returns {Promise<string>}
 */
export async function prefixHash(history, count) {
  return hex(await sha256(history.bytes.subarray(0, count ? history.ends[count - 1] : 0)));
}

/**
 * A key for the conversation `messages` belongs to, from its content: the hash of its
 * messages up to and including the first user message (the conversation's
 * opening, which every later turn repeats). Two conversations with the same opening
 * share a key; their states then sit side by side in one value (see SessionState).
 * @param {unknown[]} messages
 * @returns {Promise<string>}
 */
export async function conversationKey(messages) {
  if (!Array.isArray(messages)) throw new MidfoldError('invalid-input', 'conversationKey: messages must be an array');
  checkMessageCount(messages, 'conversationKey');
  // (a LangChain message is read through its view: a HumanMessage is the user's)
  let end = messages.findIndex((m) => m !== null && typeof m === 'object' && (m.role === 'user' || viewOf(m).role === 'user'));
  end = end < 0 ? messages.length : end + 1;
  return prefixHash(historyBytes(messages.slice(0, end)), end);
}
