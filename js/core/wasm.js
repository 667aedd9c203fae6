/**
 * wasm.js — an instantiated module and the conventions of its exports (wasm/bridge_common.h):
 * memory views that survive growth, the error record, result buffers.
 */
import { binaryLength } from './encode.js';
import { MidfoldError, STATUS_CODES } from './errors.js';
import { tierOf } from './tiers.js';

const ERROR_BYTES = 168; // struct mfw_error: u32 code, u32 position, char message[160]
const NO_POSITION = 0xffffffff;
const decoder = new TextDecoder();

/** The module's only import: memory growth needs no action, views are re-read anyway. */
export const IMPORTS = { env: { emscripten_notify_memory_growth() {} } };

/**
 * An instance of a midfold module (midfold.wasm, midfold-memory.wasm) from a
 * WebAssembly.Module, its bytes or a fetch Response (streamed when the server sends
 * application/wasm).
 * @param {unknown} source
 * @param {string} [fn] the caller's name, for the error
 * @returns {Promise<WebAssembly.Instance>}
 */
export async function instantiate(source, fn = 'init') {
  return (await instantiateModule(source, fn)).instance;
}

/**
 * instantiate's instance with its compiled module, from which more instances are made
 * synchronously (core/tier-loader.js replaces an instance whose memory grew so).
 * @param {unknown} source
 * @param {string} [fn] the caller's name, for the error
 * @returns {Promise<{module: WebAssembly.Module, instance: WebAssembly.Instance}>}
 */
export async function instantiateModule(source, fn = 'init') {
  if (source instanceof WebAssembly.Module) {
    return { module: source, instance: await WebAssembly.instantiate(source, IMPORTS) };
  }
  if (typeof Response !== 'undefined' && source instanceof Response) {
    const fallback = source.clone();
    try {
      return await WebAssembly.instantiateStreaming(source, IMPORTS);
    } catch (e) {
      // A server that sends the wrong MIME type breaks streaming; the bytes still work.
      if (!(e instanceof TypeError)) throw e;
      return WebAssembly.instantiate(await fallback.arrayBuffer(), IMPORTS);
    }
  }
  if (binaryLength(source) >= 0) return WebAssembly.instantiate(/** @type {BufferSource} */ (source), IMPORTS); // bytes of any realm
  throw new MidfoldError('invalid-option', `${fn}(source): expected a WebAssembly.Module, bytes, a Response or a URL`);
}

/**
 * One instance of a midfold module. Owns two small regions (the error record and result
 * slots) for its lifetime; everything else is allocated and freed per call.
 */
export class Wasm {
  /** @param {WebAssembly.Instance} instance */
  constructor(instance) {
    this.x = instance.exports;
    this.memory = /** @type {WebAssembly.Memory} */ (this.x.memory);
    if (typeof this.x._initialize === 'function') this.x._initialize();
    this.u8 = new Uint8Array(this.memory.buffer);
    this.err = this.alloc(ERROR_BYTES);
    this.slots = this.alloc(16); // out pointer, out length, out double
    /**
     * What the module can do, by its exports (core/tiers.js; loaded by core/tier-loader.js): 2 for
     * midfold.wasm (it validates and digests), 1 for midfold-lite.wasm (it compacts), 0 for
     * midfold-estimate.wasm (it estimates); -1 for the memory tool's module.
     */
    this.tier = tierOf(this.x);
  }

  /** The memory as bytes; a fresh view after any growth. */
  bytes() {
    if (this.u8.buffer !== this.memory.buffer) this.u8 = new Uint8Array(this.memory.buffer);
    return this.u8;
  }

  /** Allocates n bytes in wasm memory; throws MidfoldError('out-of-memory') on failure. */
  alloc(n) {
    // size_t is 32 bits in wasm: a larger n would wrap (2^32 becomes 0) and "succeed".
    const p = n <= 0xffffffff ? this.x.mfw_alloc(n) : 0;
    if (!p) throw new MidfoldError('out-of-memory', `cannot allocate ${n} bytes in wasm memory`);
    return p;
  }

  /**
   * Resizes the block at p (0: a new one) to n bytes, in place whenever it can (mfw_realloc);
   * returns where it now is. Throws MidfoldError('out-of-memory') on failure, the block then
   * unchanged and still the caller's.
   */
  realloc(p, n) {
    const q = n <= 0xffffffff ? this.x.mfw_realloc(p, n) : 0;
    if (!q) throw new MidfoldError('out-of-memory', `cannot allocate ${n} bytes in wasm memory`);
    return q;
  }

  free(p) { if (p) this.x.mfw_free(p); }

  u32(p) { return new DataView(this.memory.buffer).getUint32(p, true); }
  f64(p) { return new DataView(this.memory.buffer).getFloat64(p, true); }

  /** UTF-8 bytes [p, p + n) as a string; MidfoldError('too-large') past the engine's longest string. */
  text(p, n) {
    try {
      return decoder.decode(this.bytes().subarray(p, p + n));
    } catch (e) {
      if (!(e instanceof RangeError) && !(e && e.code === 'ERR_STRING_TOO_LONG')) throw e;
      throw new MidfoldError('too-large', `the result (${n} bytes of text) is longer than the longest string this JavaScript engine can hold`, { cause: e });
    }
  }

  /** Throws the MidfoldError for a non-zero status, from the error record. */
  check(status) {
    if (!status) return;
    const code = STATUS_CODES[status] || 'internal';
    const pos = this.u32(this.err + 4);
    const u8 = this.bytes();
    let end = this.err + 8;
    while (end < this.err + ERROR_BYTES && u8[end]) end++;
    const message = this.text(this.err + 8, end - this.err - 8);
    throw new MidfoldError(code, message, pos === NO_POSITION ? {} : { position: pos });
  }

  /**
   * Runs `fn(outPtrSlot, outLenSlot)` (a bridge call writing a result buffer), checks its
   * status, and returns the buffer's bytes decoded by `read(ptr, len)`; the buffer is
   * freed in every case.
   */
  result(fn, read) {
    const status = fn(this.slots, this.slots + 4);
    this.check(status);
    const ptr = this.u32(this.slots), len = this.u32(this.slots + 4);
    try {
      return read(ptr, len);
    } finally {
      this.free(ptr);
    }
  }
}
