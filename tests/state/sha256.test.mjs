// The resumable SHA-256 the session state hashes growing histories with (js/state/sha256.js) against
// WebCrypto's: the same digest for every length around the block and padding boundaries, fed whole or in
// seeded random pieces, and a copy resumed after a prefix giving the digest of the whole.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Sha256 } from '../../js/state/sha256.js';
import { hex } from '../../js/state/hash.js';
import { prng } from '../helpers/prng.mjs';

const subtle = async (bytes) => hex(await crypto.subtle.digest('SHA-256', bytes));
const bytesOf = (random, n) => Uint8Array.from({ length: n }, () => Math.floor(random() * 256));

test('SHA-256 gives WebCrypto\'s digest at every length up to 300 bytes and past a few blocks, whole or in pieces', async () => {
  const random = prng(20261207);
  const lengths = [...Array.from({ length: 300 }, (_, i) => i), 1000, 4096, 65537, 200003];
  for (const n of lengths) {
    const bytes = bytesOf(random, n);
    const expected = await subtle(bytes);
    assert.equal(new Sha256().update(bytes).hex(), expected, `${n} bytes whole`);
    const pieces = new Sha256();
    for (let at = 0; at < n;) {
      const take = Math.min(n - at, 1 + Math.floor(random() * 130));
      pieces.update(bytes.subarray(at, at + take));
      at += take;
    }
    assert.equal(pieces.hex(), expected, `${n} bytes in pieces`);
  }
});

test('a copy resumed after a prefix hashes the whole; the hasher it came from stays at the prefix', async () => {
  const random = prng(7);
  const text = new TextEncoder().encode('{"role":"user","content":"把退款的四舍五入修好，然后跑测试"}\n'.repeat(40));
  for (let k = 0; k < 40; k++) {
    const cut = Math.floor(random() * text.length);
    const prefix = new Sha256().update(text.subarray(0, cut));
    const before = prefix.hex();
    const whole = prefix.copy().update(text.subarray(cut));
    assert.equal(whole.hex(), await subtle(text));
    assert.equal(prefix.hex(), before);
    assert.equal(before, await subtle(text.subarray(0, cut)));
  }
});
