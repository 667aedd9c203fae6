#!/usr/bin/env node
/**
 * kernel.mjs — builds the prototype kernel (proto/kernel.c) with emcc into a temporary
 * folder, checks it counts exactly as midfold's mfw_estimate_text on many inputs
 * (including invalid UTF-8), and compares their speed with and without the crossing
 * (encodeInto). A diagnostic for the boundary analysis; not part of `make bench`.
 *
 *   node tests/bench/proto/kernel.mjs [--quick]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { IMPORTS, Wasm } from '../../../js/wasm.js';
import { asciiText, chineseText, conversation, consume, fmt, jsTextMilli, machine, measure, rng, table } from '../lib.mjs';

const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 3 : 7, SAMPLE_MS = QUICK ? 15 : 40;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../../..');
const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'midfold-proto-')), 'kernel.wasm');
const cc = spawnSync('emcc', ['-O3', '-msimd128', '-sSTANDALONE_WASM', '--no-entry', '-sINITIAL_MEMORY=134217728',
  '-sEXPORTED_FUNCTIONS=_proto_estimate_text,_proto_buffer', path.join(HERE, 'kernel.c'), '-o', out],
{ stdio: 'inherit', env: { ...process.env, NODE_PATH: '/usr/share/nodejs' } });
if (cc.status !== 0) { console.error('emcc failed (is Emscripten installed? make deps)'); process.exit(1); }

const proto = (await WebAssembly.instantiate(fs.readFileSync(out), { env: {}, wasi_snapshot_preview1: { proc_exit() {} } })).instance.exports;
if (proto._initialize) proto._initialize();
const pbuf = proto.proto_buffer();
const pmem = () => new Uint8Array(proto.memory.buffer);

const mid = new Wasm((await WebAssembly.instantiate(fs.readFileSync(path.join(ROOT, 'wasm/midfold.wasm')), IMPORTS)).instance);
let mbuf = 0, mcap = 0;
function midPut(bytes) {
  if (bytes.length > mcap) { mid.free(mbuf); mcap = bytes.length; mbuf = mid.alloc(mcap); }
  mid.bytes().set(bytes, mbuf);
  return mbuf;
}
const enc = new TextEncoder();

// exactness on many inputs, including invalid UTF-8
const r = rng(5);
const cases = [asciiText(r, 5000), chineseText(r, 5000), JSON.stringify(conversation(30, 3)), 'a\u{20000}b\u{1F600} \u3000\u00a0x'];
for (let i = 0; i < 300; i++) { const b = new Uint8Array(1 + Math.floor(r() * 300)); for (let j = 0; j < b.length; j++) b[j] = r() < 0.5 ? Math.floor(r() * 256) : [0x20, 0x61, 0xe4, 0xb8, 0xad, 0xf0, 0x9f, 0xc3][Math.floor(r() * 8)]; cases.push(b); }
for (const c of cases) {
  const b = typeof c === 'string' ? enc.encode(c) : c;
  pmem().set(b, pbuf);
  const a = proto.proto_estimate_text(pbuf, b.length), m = mid.x.mfw_estimate_text(midPut(b), b.length, 0);
  if (a !== m) { console.error('prototype disagrees with midfold on', b.slice(0, 40), a, m); process.exit(1); }
}

// warm the JS loop on short strings first (a first call on a huge string can leave it deoptimized)
for (let k = 0; k < 50; k++) for (const c of cases) if (typeof c === 'string') consume(jsTextMilli(c.slice(0, 200)));

const mm = machine();
console.log(`# prototype kernel vs midfold's (${mm.cpu}, node ${mm.node}, ${mm.date})\n`);
console.log(`Exact on ${cases.length} inputs (incl. random invalid UTF-8). MB/s of UTF-8, medians of ${ROUNDS} interleaved samples.\n`);
const mixed = (() => { const rr = rng(9), parts = []; let n = 0; while (n < 10_000_000) { const p = rr() < 0.1 ? chineseText(rr, 200) : asciiText(rr, 1800); parts.push(p); n += Buffer.byteLength(p); } return JSON.parse(JSON.stringify(parts.join(''))); })();
const convJson = JSON.stringify(conversation(1000, 12));
const rows = [];
const inputs = [['ASCII 10 MB', asciiText(rng(1), 10_000_000)], ['Chinese 10 MB', chineseText(rng(2), 10_000_000)],
  ['mixed 10 MB (10 % Chinese paragraphs)', mixed], ['conversation JSON, 1,000 msgs (as one string)', convJson]];
for (const [label, s] of inputs) {
  const b = enc.encode(s);
  pmem().set(b, pbuf);
  const mp = midPut(b);
  const res = measure([
    { name: 'midfold kernel', run: () => mid.x.mfw_estimate_text(mp, b.length, 0) },
    { name: 'prototype kernel', run: () => proto.proto_estimate_text(pbuf, b.length) },
    { name: 'prototype + encodeInto', run: () => { const n = enc.encodeInto(s, pmem().subarray(pbuf, pbuf + s.length * 3)).written; return proto.proto_estimate_text(pbuf, n); } },
    { name: 'midfold + encodeInto', run: () => { const n = enc.encodeInto(s, mid.bytes().subarray(mp, mp + b.length)).written; return mid.x.mfw_estimate_text(mp, n, 0); } },
    { name: 'JS loop', run: () => jsTextMilli(s) },
  ], { rounds: ROUNDS, sampleMs: SAMPLE_MS });
  const f = (k) => fmt(b.length / 1e6 / (res[k].ms / 1e3));
  rows.push([label, f('midfold kernel'), f('prototype kernel'), f('midfold + encodeInto'), f('prototype + encodeInto'), f('JS loop')]);
}
console.log(table(['input', 'midfold kernel', 'prototype kernel', 'midfold + encodeInto', 'prototype + encodeInto', 'plain JS loop'], rows));

// The crossing itself: UTF-8 via encodeInto (every host) against Node's Buffer writes,
// which copy V8's own representation (one-byte: Latin-1; two-byte: UTF-16) nearly as is.
const crossRows = [];
const nodeBuf = Buffer.from(proto.memory.buffer, pbuf, 64 << 20);
for (const [label, s] of inputs.slice(0, 3)) {
  const oneByte = !/[^\u0000-\u00ff]/.test(s);
  const res = measure([
    { name: 'encodeInto', run: () => enc.encodeInto(s, pmem().subarray(pbuf, pbuf + s.length * 3)).written },
    { name: 'node', run: () => nodeBuf.write(s, 0, oneByte ? 'latin1' : 'utf16le') },
  ], { rounds: ROUNDS, sampleMs: SAMPLE_MS });
  const b = Buffer.byteLength(s);
  crossRows.push([label, fmt(b / 1e6 / (res.encodeInto.ms / 1e3)), `${oneByte ? 'latin1' : 'utf16le'}: ${fmt(b / 1e6 / (res.node.ms / 1e3))}`]);
}
console.log('');
console.log('The crossing (MB/s of the UTF-8 size, so columns compare time for the same text)\n');
console.log(table(['input', 'TextEncoder.encodeInto (UTF-8)', "Node Buffer.write of V8's representation"], crossRows));
