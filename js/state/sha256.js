/**
 * sha256.js — SHA-256 (FIPS 180-4) that can be resumed: the state after some bytes is kept
 * and a copy of it extended by more, so the hash of a history that grew by a turn costs the
 * turn. WebCrypto's digest takes the whole input every time (2.8 MB per call for a
 * 1,000-message history), which is why the session state hashes with this instead; it gives
 * the same digests (tests/state/sha256.test.mjs checks it against crypto.subtle).
 */

const K = /* @__PURE__ */ Uint32Array.of(
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2);

/** The message schedule of one block (scratch, reused by every hasher: nothing here is re-entrant). */
let W = null;

/**
 * A SHA-256 in progress. Ownership: update() reads the bytes given and keeps none of them
 * (a partial block is copied); copy() shares nothing with the original.
 */
export class Sha256 {
  constructor() {
    this.h = Uint32Array.of(0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19);
    /** The bytes of a block not yet full. */
    this.block = new Uint8Array(64);
    this.filled = 0;
    /** Bytes hashed so far (a double: exact far beyond any history). */
    this.length = 0;
  }

  /** An independent hasher in the same state. */
  copy() {
    const c = new Sha256();
    c.h.set(this.h);
    c.block.set(this.block);
    c.filled = this.filled;
    c.length = this.length;
    return c;
  }

  /** Hashes `bytes` after what came before; returns this. */
  update(bytes) {
    let at = 0;
    const n = bytes.length;
    this.length += n;
    if (this.filled) {
      const take = Math.min(64 - this.filled, n);
      this.block.set(bytes.subarray(0, take), this.filled);
      this.filled += take;
      at = take;
      if (this.filled < 64) return this;
      compress(this.h, this.block, 0);
      this.filled = 0;
    }
    for (; at + 64 <= n; at += 64) compress(this.h, bytes, at);
    if (at < n) {
      this.block.set(bytes.subarray(at), 0);
      this.filled = n - at;
    }
    return this;
  }

  /** The digest of everything hashed so far, as 64 lowercase hex digits; this hasher is left as it was. */
  hex() {
    const c = this.copy();
    const bits = this.length * 8;
    const pad = new Uint8Array((this.filled < 56 ? 64 : 128) - this.filled);
    pad[0] = 0x80;
    const view = new DataView(pad.buffer);
    view.setUint32(pad.length - 8, Math.floor(bits / 0x100000000));
    view.setUint32(pad.length - 4, bits >>> 0);
    c.update(pad);
    let out = '';
    for (let i = 0; i < 8; i++) out += c.h[i].toString(16).padStart(8, '0');
    return out;
  }
}

/** One 64-byte block of `bytes` from `at` into the state `h`. */
function compress(h, bytes, at) {
  if (W === null) W = new Uint32Array(64);
  const w = W;
  for (let i = 0; i < 16; i++, at += 4) w[i] = (bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15], b = w[i - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let a = h[0] | 0, b = h[1] | 0, c = h[2] | 0, d = h[3] | 0, e = h[4] | 0, f = h[5] | 0, g = h[6] | 0, k = h[7] | 0;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (k + S1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    k = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
  }
  h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
}
