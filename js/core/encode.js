/**
 * encode.js — writes a JS value into wasm memory in midfold's binary tree encoding
 * (layout in src/tree_decode.c), so a conversation crosses the boundary without
 * JSON.stringify and is read in C without a JSON parser.
 *
 * It follows JSON.stringify's rules for what a value is: toJSON() is honoured;
 * undefined, functions and symbols are dropped from objects and become null in arrays
 * (and in sparse array holes); non-finite numbers become null. It never writes to the
 * value. BigInt, cycles, nesting deeper than 512 and throwing getters are MidfoldErrors
 * naming the path.
 *
 * One departure from JSON.stringify: binary data (a Uint8Array or any other typed array,
 * a Buffer, a DataView, an ArrayBuffer) is written as an opaque blob carrying only its
 * byte length (tag 7), not as an object of indices: the AI SDK puts image and file bytes
 * there, and what the core needs is their size, never their bytes.
 */
import { MidfoldError } from './errors.js';
import { MAX_DEPTH, MAX_INPUT_BYTES } from './limits.js';

const SHORT = 64; // strings shorter than this are copied by hand when they are ASCII
const encoder = new TextEncoder();
const SPARE = 1 << 20; // the most a growing scratch asks for beyond what it needs

/**
 * A growable region of wasm memory that the encoder writes into. It owns one
 * allocation (released by `dispose`) and re-reads the memory view after any growth.
 *
 * It grows in place (mfw_realloc, wasm/bridge_alloc.c: into the memory after it, which
 * grows by half at a time), never holding the written bytes twice, and by at most an eighth
 * or SPARE more than asked: growing in place is cheap, so a large conversation's buffer ends
 * at most 1 MiB past its encoded size (about its JSON's) rather than up to twice it (a
 * doubling buffer copied at each step kept every earlier size below it: 537 MB of wasm
 * memory for a 142 MB conversation). `fit` gives the spare room back once the value is
 * written.
 */
export class Scratch {
  /** @param {import('./wasm.js').Wasm} wasm */
  constructor(wasm) {
    this.wasm = wasm;
    this.ptr = 0;
    this.cap = 0;
    this.pos = 0;
    this.u8 = wasm.bytes();
  }

  /** Makes room for `extra` more bytes after `pos`, keeping what is written. */
  ensure(extra) {
    const need = this.pos + extra;
    if (need <= this.cap) return;
    const cap = Math.max(need + Math.min(Math.floor(need / 8), SPARE), 1 << 16);
    this.ptr = this.wasm.realloc(this.ptr, cap); // may grow memory: views are re-read below
    this.cap = cap;
    this.u8 = this.wasm.bytes();
  }

  /**
   * Gives back the room past what is written (at least 64 KiB stays): the document parsed
   * from the bytes allocates there. Shrinking is always in place.
   */
  fit() {
    const cap = Math.max(this.pos, 1 << 16);
    if (!this.ptr || cap >= this.cap) return;
    this.ptr = this.wasm.realloc(this.ptr, cap);
    this.cap = cap;
  }

  /** Releases the region. */
  dispose() {
    if (this.ptr) this.wasm.free(this.ptr);
    this.ptr = this.cap = this.pos = 0;
  }
}

/**
 * Writes a UTF-8 string with a u32 length prefix at s.pos. Room is made for one byte per
 * UTF-16 unit first (what ASCII takes) and, when the text does not fit, for three per unit
 * left (the most one takes): a long text is never given three times its size.
 */
function putText(s, text) {
  const n = text.length;
  s.ensure(4 + n);
  let u8 = s.u8;
  let at = s.ptr + s.pos + 4;
  let written = 0;
  if (n < SHORT) {
    // A hand loop beats encodeInto's call overhead for keys and short values.
    for (; written < n; written++) {
      const c = text.charCodeAt(written);
      if (c >= 0x80) break;
      u8[at + written] = c;
    }
  }
  if (written < n) {
    written = 0;
    for (let read = 0; ;) {
      const room = s.cap - s.pos - 4 - written;
      const r = encoder.encodeInto(read === 0 ? text : text.slice(read), u8.subarray(at + written, at + written + room));
      read += r.read;
      written += r.written;
      if (read >= n) break;
      s.ensure(4 + written + 3 * (n - read)); // may move the region: re-read where it is
      u8 = s.u8;
      at = s.ptr + s.pos + 4;
    }
  }
  const p = s.ptr + s.pos;
  u8[p] = written & 255;
  u8[p + 1] = (written >>> 8) & 255;
  u8[p + 2] = (written >>> 16) & 255;
  u8[p + 3] = written >>> 24;
  s.pos += 4 + written;
}

function putTag(s, tag) {
  s.ensure(1);
  s.u8[s.ptr + s.pos++] = tag;
}

function putCount(s, at, count) {
  const u8 = s.u8, p = s.ptr + at;
  u8[p] = count & 255;
  u8[p + 1] = (count >>> 8) & 255;
  u8[p + 2] = (count >>> 16) & 255;
  u8[p + 3] = count >>> 24;
}

/**
 * The byte length of binary data (typed arrays, DataView, ArrayBuffer, SharedArrayBuffer, of
 * any realm), else -1 (for any other value, primitives included). The snapshot (snapshot.js)
 * and init's source check (wasm.js) tell binary data apart by the same test.
 * @param {unknown} v
 * @returns {number}
 */
export function binaryLength(v) {
  let n = -1;
  if (ArrayBuffer.isView(v)) n = v.byteLength;
  else {
    // By tag rather than instanceof, so buffers from another realm (a worker, a vm) count too.
    const tag = Object.prototype.toString.call(v);
    if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') n = v.byteLength;
  }
  return n > 0xffffffff ? 0xffffffff : n; // the length field is a u32; sizes past 4 GiB are past every limit
}

/** The brand checks of the boxed primitives: each valueOf throws on any other object. */
const UNBOX = {
  String: String.prototype.valueOf, Number: Number.prototype.valueOf,
  Boolean: Boolean.prototype.valueOf, BigInt: BigInt.prototype.valueOf,
};

/**
 * 'String', 'Number', 'Boolean' or 'BigInt' for a boxed primitive of any realm (JSON.stringify
 * reads its internal slot, so `instanceof` would miss one made in a vm context or a frame),
 * else undefined. The tag only picks which brand check to run: a spoofed Symbol.toStringTag
 * fails it.
 */
function boxedKind(v) {
  const tag = Object.prototype.toString.call(v).slice(8, -1);
  const valueOf = Object.hasOwn(UNBOX, tag) ? UNBOX[tag] : undefined;
  if (valueOf === undefined) return undefined;
  try {
    valueOf.call(v);
    return tag;
  } catch {
    return undefined;
  }
}

/** The path of `keys` from the caller's input, as errors name it: input[3].content[0].input. */
export function pathOf(keys) {
  let path = 'input';
  for (const k of keys) path += typeof k === 'number' ? `[${k}]` : /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`;
  return path;
}

/**
 * Where encodeValue records each message's snapshot as it encodes a list: `record(item,
 * store, 0)` (js/core/snapshot.js's, passed in so that a bundle without the estimate cache, the
 * memory tool's, holds none of it) appends it to `store`, message i's at `ranges[2i]` to
 * `ranges[2i + 1]` (-1, -1 for an item that is not an object). The caller owns both arrays;
 * the encoder only appends.
 * @typedef {{store: unknown[], ranges: number[], record: (value: unknown, store: unknown[], depth: number) => void}} SnapshotRecorder
 */

/**
 * Encodes `value` into `scratch` from offset 0; returns the number of bytes written, and
 * leaves the scratch no larger than they need (Scratch.fit).
 * With `recorder` and a list, each item's snapshot (snapshot.js) is recorded right after
 * the item is encoded.
 * @param {Scratch} scratch
 * @param {unknown} value
 * @param {SnapshotRecorder} [recorder]
 */
export function encodeValue(scratch, value, recorder) {
  scratch.pos = 0;
  scratch.u8 = scratch.wasm.bytes(); // memory may have grown since the last call (results, documents)
  const keys = [];
  const ancestors = [];

  function fail(code, message, cause) {
    throw new MidfoldError(code, `${message} at ${pathOf(keys)}`, { path: pathOf(keys), cause });
  }

  function write(v, fromToJSON = false) {
    switch (typeof v) {
      case 'string': putTag(scratch, 4); putText(scratch, v); return;
      case 'number':
        if (Number.isFinite(v)) { putTag(scratch, 3); putText(scratch, String(v)); } else putTag(scratch, 0);
        return;
      case 'boolean': putTag(scratch, v ? 2 : 1); return;
      case 'bigint': return fail('unsupported-value', 'a BigInt cannot be encoded as JSON');
      case 'object': break;
      default: putTag(scratch, 0); return; // undefined, function, symbol inside an array
    }
    if (v === null) { putTag(scratch, 0); return; }
    // A plain object or array (nearly every value of a conversation) is neither binary data
    // nor a boxed primitive: only toJSON is looked for.
    const proto = Object.getPrototypeOf(v);
    const plain = proto === Object.prototype || proto === Array.prototype;
    // Binary data before toJSON (a Buffer's toJSON would spell out every byte).
    const bytes = plain ? -1 : binaryLength(v);
    if (bytes >= 0) {
      scratch.ensure(5);
      scratch.u8[scratch.ptr + scratch.pos] = 7;
      putCount(scratch, scratch.pos + 1, bytes);
      scratch.pos += 5;
      return;
    }
    // As JSON.stringify: toJSON() once (not again on what it returns, which may be `this`),
    // then boxed primitives by their value (new String('a') is "a", not {"0": "a"}).
    if (!fromToJSON && typeof v.toJSON === 'function') { write(v.toJSON(), true); return; }
    const boxed = plain ? undefined : boxedKind(v);
    if (boxed === 'String') { write(String(v)); return; }
    if (boxed === 'Number') { write(Number(v)); return; }
    if (boxed === 'Boolean') { write(Boolean.prototype.valueOf.call(v)); return; }
    if (boxed === 'BigInt') return fail('unsupported-value', 'a BigInt cannot be encoded as JSON');
    if (ancestors.length >= MAX_DEPTH) {
      // Only now look for a cycle (cheap while nesting is sane): name where it closes.
      ancestors.push(v);
      for (let j = 1; j < ancestors.length; j++) {
        if (ancestors.indexOf(ancestors[j]) < j) {
          keys.length = j;
          fail('cycle', 'the value contains a cycle (a reference back to an enclosing object)');
        }
      }
      fail('too-deep', `nesting deeper than ${MAX_DEPTH} levels`);
    }
    ancestors.push(v);
    if (Array.isArray(v)) {
      const n = v.length;
      // Every item takes a byte at least: longer than the 1 GiB input limit (MF_MAX_INPUT_BYTES).
      if (n > MAX_INPUT_BYTES) fail('too-large', `an array of ${n} items is over the ${MAX_INPUT_BYTES} byte input limit`);
      scratch.ensure(5);
      scratch.u8[scratch.ptr + scratch.pos] = 5;
      putCount(scratch, scratch.pos + 1, n);
      scratch.pos += 5;
      if (recorder !== undefined && v === value) writeRecordedItems(v, n);
      else {
        for (let i = 0; i < n; i++) {
          keys.push(i);
          write(v[i]);
          keys.pop();
        }
      }
    } else {
      scratch.ensure(5);
      scratch.u8[scratch.ptr + scratch.pos] = 6;
      const countAt = scratch.pos + 1;
      scratch.pos += 5;
      let count = 0;
      for (const k in v) {
        if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
        const item = v[k];
        const t = typeof item;
        if (t === 'undefined' || t === 'function' || t === 'symbol') continue;
        keys.push(k);
        putText(scratch, k);
        write(item);
        keys.pop();
        count++;
      }
      putCount(scratch, countAt, count);
    }
    ancestors.pop();
  }

  /**
   * The items of the list being recorded, each followed by its snapshot while what it holds
   * is still in the CPU's caches (a second walk of the whole list afterwards reads it all
   * from memory again), and its range.
   */
  function writeRecordedItems(list, n) {
    const { store, ranges, record } = /** @type {SnapshotRecorder} */ (recorder);
    for (let i = 0; i < n; i++) {
      const item = list[i];
      keys.push(i);
      write(item);
      if (typeof item === 'object' && item !== null) {
        const from = store.length;
        record(item, store, 0);
        ranges.push(from, store.length);
      } else ranges.push(-1, -1);
      keys.pop();
    }
  }

  const t = typeof value;
  if (t === 'undefined' || t === 'function' || t === 'symbol')
    throw new MidfoldError('invalid-input', `expected a JSON value, got ${t}`);
  try {
    write(value);
  } catch (e) {
    if (e instanceof MidfoldError) throw e;
    fail('invalid-input', `reading the value threw (${e && e.message ? e.message : e})`, e);
  }
  scratch.fit();
  return scratch.pos;
}

/**
 * Copies a string's UTF-8 into `scratch` from offset 0, at most `maxChars` UTF-16 units
 * starting at `from` (never splitting a surrogate pair); returns [bytes, next from].
 */
export function encodeTextChunk(scratch, text, from, maxChars) {
  let end = Math.min(text.length, from + maxChars);
  if (end < text.length) {
    const c = text.charCodeAt(end - 1);
    if (c >= 0xd800 && c <= 0xdbff) end--; // keep the pair together
  }
  const n = end - from;
  scratch.pos = 0;
  scratch.u8 = scratch.wasm.bytes(); // memory may have grown since the last call
  scratch.ensure(n * 3);
  const chunk = from === 0 && end === text.length ? text : text.slice(from, end);
  const { written } = encoder.encodeInto(chunk, scratch.u8.subarray(scratch.ptr, scratch.ptr + n * 3));
  return [written, end];
}
