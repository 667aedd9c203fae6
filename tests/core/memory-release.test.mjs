// Wasm memory that comes back: the encoder's scratch grows in place (never holding a
// conversation twice), and after a call that leaves the module's memory above init's
// `releaseMemoryAbove` the next call runs on a fresh instance at the module's initial size.
// Every figure asserted is a wasm memory size (memory.buffer.byteLength), which is
// deterministic: no process RSS, no timing.

import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { longSession } from '../helpers/long-session.mjs';
import { ROOT } from '../helpers/workerd.mjs';
import { IMPORTS, Wasm } from '../../js/core/wasm.js';
import { Scratch, encodeValue } from '../../js/core/encode.js';
import { RELEASE_MEMORY_ABOVE } from '../../js/core/tier-loader.js';
import * as entry from '../../js/hosts/node.js';

const MODULE = new WebAssembly.Module(readFileSync(path.join(ROOT, 'wasm', 'midfold.wasm')));
const MiB = 1024 * 1024;
const fromSource = [async (source) => source, async (source) => source, async (source) => source];

/** A module instance of its own (api.js imported under its own URL), loaded with `options`. */
async function loaded(tag, options) {
  const api = await import(`../../js/core/api.js?memory-release=${tag}`);
  await api.initTier(api.FULL, MODULE, fromSource, options);
  return api;
}

/** An agent session of `turns` turns (Anthropic blocks, parallel tool calls, Chinese logs), as one history. */
function history(turns, format = 'anthropic') {
  return longSession({ turns, format }).calls.flat();
}

const SESSION = history(1000); // about 3.9 MB of JSON
const JSON_BYTES = Buffer.byteLength(JSON.stringify(SESSION));

test('the scratch grows in place: a conversation encoded into a fresh instance takes its size once, not twice', () => {
  const w = new Wasm(new WebAssembly.Instance(MODULE, IMPORTS));
  const rest = w.memory.buffer.byteLength;
  const big = history(3000); // about 12 MB
  const scratch = new Scratch(w);
  const len = encodeValue(scratch, big);
  // A doubling buffer copied at each step held 16 + 32 MiB here (52 MiB of memory); in place
  // the memory holds the bytes written once, plus what it grew ahead (mfw_realloc claims half
  // the memory there is at a time, so that a large one grows a few times, not once a MiB).
  assert.ok(len > 10 * MiB, `encoded ${len} bytes`);
  assert.ok(w.memory.buffer.byteLength <= rest + len + 2 * MiB,
    `wasm memory ${w.memory.buffer.byteLength} bytes for ${len} encoded (rest ${rest})`);
  assert.ok(scratch.cap <= Math.max(len, 1 << 16), 'fit() gave the spare room back');
  scratch.dispose();
});

test('a long text is not given three bytes per UTF-16 unit: an ASCII tool output takes its length', () => {
  const w = new Wasm(new WebAssembly.Instance(MODULE, IMPORTS));
  const rest = w.memory.buffer.byteLength;
  const output = SESSION.filter((m) => Array.isArray(m.content)).flatMap((m) => m.content)
    .filter((b) => b.type === 'tool_result' && typeof b.content === 'string').map((b) => b.content).join('\n');
  const ascii = output.replace(/[^\x00-\x7f]/g, '?').repeat(Math.ceil(16 * MiB / output.length)).slice(0, 16 * MiB);
  const len = encodeValue(new Scratch(w), [{ role: 'tool', tool_call_id: 'call_1', content: ascii }]);
  assert.ok(w.memory.buffer.byteLength <= rest + len + 2 * MiB, `${w.memory.buffer.byteLength} bytes of wasm memory for a 16 MiB text (was 3 × 16 MiB reserved)`);
});

test('a text that outgrows its first room (ASCII, then Chinese, then emoji) is written whole and exact', () => {
  const w = new Wasm(new WebAssembly.Instance(MODULE, IMPORTS));
  const scratch = new Scratch(w);
  const text = `${'a'.repeat(70000)}时区偏移重复了。${'测试还是失败'.repeat(20000)}🙂${'b'.repeat(100)}😀`;
  const len = encodeValue(scratch, text);
  const bytes = Buffer.from(w.bytes().subarray(scratch.ptr, scratch.ptr + len));
  assert.equal(bytes[0], 4, 'a string');
  assert.equal(bytes.readUInt32LE(1), Buffer.byteLength(text));
  assert.equal(bytes.subarray(5).toString('utf8'), text);
});

test('after a call that grows the module past releaseMemoryAbove, the memory is back at its resting size and the figures are the same', async () => {
  const api = await loaded('release', { releaseMemoryAbove: 6 * MiB });
  const kept = await loaded('kept', { releaseMemoryAbove: Infinity });
  const rest = api.memoryUsage().wasmBytes;
  assert.equal(rest, 4 * MiB, "the module's initial memory");
  const expected = kept.estimateTokens(SESSION);
  for (let round = 1; round <= 3; round++) {
    assert.equal(api.estimateTokens(SESSION), expected);
    const usage = api.memoryUsage();
    assert.equal(usage.wasmBytes, rest, `round ${round}: back at rest`);
    assert.equal(usage.releases, round);
    assert.ok(usage.peakWasmBytes > 6 * MiB && usage.peakWasmBytes <= rest + 2 * JSON_BYTES,
      `peak ${usage.peakWasmBytes} bytes for ${JSON_BYTES} bytes of JSON`);
  }
  // Without the bound the instance keeps what the call grew it to.
  assert.ok(kept.memoryUsage().wasmBytes > 6 * MiB);
  assert.equal(kept.memoryUsage().releases, 0);
  // Every kind of call runs on the fresh instance as on the kept one.
  assert.equal(api.serialize(SESSION), kept.serialize(SESSION));
  assert.deepEqual(api.planMicroCompact(SESSION), kept.planMicroCompact(SESSION));
  assert.deepEqual(api.planCompaction(SESSION), kept.planCompaction(SESSION));
  assert.deepEqual(api.validate(SESSION), kept.validate(SESSION));
  assert.equal(api.digest(SESSION), kept.digest(SESSION));
  assert.deepEqual(api.estimateEach(SESSION), kept.estimateEach(SESSION));
  assert.equal(api.memoryUsage().wasmBytes, rest);
  // A small call under the bound keeps the instance.
  const releases = api.memoryUsage().releases;
  assert.equal(api.estimateTokens(SESSION.slice(0, 20)), kept.estimateTokens(SESSION.slice(0, 20)));
  assert.equal(api.memoryUsage().releases, releases);
});

test('an EstimateCache filled before a release keeps pricing after it, through fresh instances', async () => {
  const kept = await loaded('cache-kept', { releaseMemoryAbove: Infinity });
  // (an EstimateCache prices through the default api.js instance, the entry's)
  await entry.init(undefined, { releaseMemoryAbove: 6 * MiB });
  const cache = new entry.EstimateCache();
  assert.equal(entry.estimateTokens(SESSION, { cache }), kept.estimateTokens(SESSION));
  const released = entry.memoryUsage().releases;
  assert.ok(released >= 1, 'the first fill released the instance');
  const later = [...SESSION, { role: 'user', content: '测试还是失败，能不能先把时区处理改成统一用 UTC？' },
    { role: 'assistant', content: [{ type: 'text', text: 'The offset is applied twice in parseDate; I will remove the second one.' }] }];
  assert.equal(entry.estimateTokens(later, { cache }), kept.estimateTokens(later));
  assert.equal(entry.memoryUsage().releases, released, 'two new messages: no large call, no release');
  assert.equal(entry.memoryUsage().wasmBytes, 4 * MiB);
});

test('a call that fails after growing the memory releases it too', async () => {
  const api = await loaded('failure', { releaseMemoryAbove: 4 * MiB }); // anything above the initial memory
  const looped = { role: 'user', content: [{ type: 'text', text: 'see below' }] };
  looped.content.push({ type: 'text', text: 'again', self: looped });
  const bad = [...SESSION, looped];
  assert.throws(() => api.estimateTokens(bad), (e) => e.code === 'cycle');
  assert.equal(api.memoryUsage().wasmBytes, 4 * MiB);
  assert.equal(api.memoryUsage().releases, 1);
});

test("init's releaseMemoryAbove: 64 MiB unless given, checked, set by a later init too", async () => {
  assert.equal(RELEASE_MEMORY_ABOVE, 64 * MiB);
  const api = await import('../../js/core/api.js?memory-release=options');
  assert.deepEqual(api.memoryUsage(), { wasmBytes: 0, peakWasmBytes: 0, releases: 0, releaseMemoryAbove: 64 * MiB });
  for (const bad of [-1, NaN, '16MB', null])
    await assert.rejects(api.initTier(api.COMPACT, MODULE, fromSource, { releaseMemoryAbove: bad }), (e) => e.code === 'invalid-option' && /releaseMemoryAbove/.test(e.message));
  await assert.rejects(api.initTier(api.COMPACT, MODULE, fromSource, { releaseMemoryAbov: 1 }), (e) => e.code === 'invalid-option' && /unknown option "releaseMemoryAbov"/.test(e.message));
  assert.equal(api.isReady(), false, 'a bad option loads nothing');
  await api.initTier(api.COMPACT, MODULE, fromSource);
  assert.equal(api.memoryUsage().releaseMemoryAbove, 64 * MiB);
  await api.initTier(api.COMPACT, MODULE, fromSource, { releaseMemoryAbove: 0 });
  assert.equal(api.memoryUsage().releaseMemoryAbove, 0);
  // 0: every call is followed by a fresh instance.
  api.estimateTokens('帮我看一下 src/dates.js');
  api.estimateTokens(SESSION.slice(0, 10));
  assert.equal(api.memoryUsage().releases, 2);
});
