#!/usr/bin/env node
/**
 * boundary.mjs — where the time of midfold's JS↔wasm crossing goes (a diagnostic, not
 * part of `make bench`).
 *
 *   node tests/bench/boundary.mjs [--quick]
 *
 * Uses the wrapper's internals (js/core/encode.js, js/core/wasm.js) on an instance of its own to
 * time each step of estimateTokens separately:
 * - text: TextEncoder.encodeInto into wasm memory, and the wasm class-counting kernel
 *   (mfw_estimate_text) on bytes already there;
 * - conversations: encodeValue (the JS walker writing the binary tree), mfw_doc_parse
 *   (tree decode into nodes), mfw_doc_estimate (view + estimate), mfw_doc_free; next to
 *   the plain JS walker, a JS walk that only touches the strings (the floor of any JS
 *   walk), and two prototypes of the boundary the issue suggests: walk in JS and hand
 *   wasm all the text in one batch (`batch`), and the same with short strings counted in
 *   JS (`hybrid`), and with long strings sampled at 8 places, any non-ASCII one sending the
 *   string to the JS loop instead (`adaptive`: wasm's kernel is slow on CJK). All three
 *   prototypes return exactly midfold's count (checked);
 * - copying a conversation's strings into wasm memory as UTF-8 (what the tree encoding
 *   does) or as UTF-16 (Node's native copy, or a charCodeAt loop), next to the walker.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IMPORTS, Wasm } from '../../js/core/wasm.js';
import { Scratch, encodeValue, encodeTextChunk } from '../../js/core/encode.js';
import {
  asciiText, chineseConversation, chineseText, conversation, conversationOfSize, consume, fmt, jsEstimateMessages, jsTextMilli, machine,
  measure, rng, table,
} from './lib.mjs';

const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 3 : 7;
const SAMPLE_MS = QUICK ? 15 : 40;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const log = (...a) => console.log(...a);

const bytes = fs.readFileSync(path.join(ROOT, 'wasm/midfold.wasm'));
const { instance } = await WebAssembly.instantiate(bytes, IMPORTS);
const w = new Wasm(instance);
const scratch = new Scratch(w);
const x = w.x;
/** Every step starts from a fresh memory view (see the stale-view note in bench.mjs). */
const fresh = () => { scratch.u8 = w.bytes(); };

// ------------------------------------------------------------------ steps of estimateTokens
function encodeOnly(value) { fresh(); return encodeValue(scratch, value); }
function parse(len) {
  const st = x.mfw_doc_parse(scratch.ptr, len, w.slots, w.err);
  if (st) w.check(st);
  return w.u32(w.slots);
}
function estimateDoc(doc) {
  w.check(x.mfw_doc_estimate(doc, 0, 0, w.slots + 8, w.err));
  return Math.ceil(w.f64(w.slots + 8) / 1000);
}
function fullEstimate(value) {
  const len = encodeOnly(value);
  const doc = parse(len);
  try { return estimateDoc(doc); } finally { x.mfw_doc_free(doc); }
}

// ------------------------------------------------------------------ prototypes
const enc = new TextEncoder();
const SHORT = 64;
let bpos = 0;
/** Appends a string's UTF-8 to the scratch at bpos (no length prefix: only counts matter). */
function put(s) {
  const n = s.length;
  if (scratch.pos + bpos + n * 3 > scratch.cap) { scratch.pos = bpos; scratch.ensure(n * 3); scratch.pos = 0; }
  const u8 = scratch.u8, at = scratch.ptr + bpos;
  let i = 0;
  if (n < SHORT) {
    for (; i < n; i++) { const c = s.charCodeAt(i); if (c >= 0x80) break; u8[at + i] = c; }
    if (i === n) { bpos += n; return; }
    i = 0;
  }
  bpos += enc.encodeInto(s, u8.subarray(at, at + n * 3)).written;
}
let hybridShort = 0; // < this many UTF-16 units: counted in JS instead of copied
let adaptive = false; // sample 8 units of a long string: any non-ASCII one sends it to the JS loop
function text(s) {
  const n = s.length;
  if (n < hybridShort) return jsTextMilli(s);
  if (adaptive) { const step = (n >>> 3) || 1; for (let i = 0; i < n; i += step) if (s.charCodeAt(i) >= 0x80) return jsTextMilli(s); }
  put(s);
  return 0;
}
function value(v) {
  switch (typeof v) {
    case 'string': return text(v);
    case 'number': return Number.isFinite(v) ? text(String(v)) : 1000;
    case 'boolean': return v ? 1000 : 1250;
    case 'object': break;
    default: return 0;
  }
  if (v === null) return 1000;
  let m = 0;
  if (Array.isArray(v)) { for (let i = 0; i < v.length; i++) m += v[i] === undefined ? 1000 : value(v[i]); return m; }
  for (const k in v) { const y = v[k]; if (y === undefined || typeof y === 'function') continue; m += text(k) + value(y); }
  return m;
}
function result(c) {
  if (c === undefined || c === null) return 0;
  if (typeof c === 'string') return text(c);
  if (!Array.isArray(c)) return value(c);
  let m = 0;
  for (const b of c) {
    const t = b && b.type;
    if (t === 'text') m += typeof b.text === 'string' ? text(b.text) : 0;
    else if (t === 'image') m += 1600000;
    else if (t === 'document') m += 3000000;
    else m += value(b);
  }
  return m;
}
/** Walk in JS with the estimator's rules; all text goes to wasm in one batch, one call. */
function batchEstimate(messages, shortLimit, adapt = false) {
  fresh();
  hybridShort = shortLimit;
  adaptive = adapt;
  bpos = 0;
  scratch.pos = 0;
  let m = 0;
  for (let i = 0; i < messages.length; i++) {
    const msg = messages[i];
    m += 4000;
    const c = msg.content;
    if (typeof c === 'string') { m += text(c); continue; }
    if (!Array.isArray(c)) continue;
    for (let j = 0; j < c.length; j++) {
      const b = c[j];
      switch (b.type) {
        case 'text': if (typeof b.text === 'string') m += text(b.text); break;
        case 'thinking': if (typeof b.thinking === 'string') m += text(b.thinking); break;
        case 'redacted_thinking': if (typeof b.data === 'string') m += text(b.data); break;
        case 'tool_use': m += (typeof b.name === 'string' ? text(b.name) : 0) + (b.input === undefined ? 0 : value(b.input)); break;
        case 'tool_result': m += result(b.content); break;
        case 'image': m += 1600000; break;
        case 'document': m += b.source && b.source.type === 'text' && typeof b.source.data === 'string' ? text(b.source.data) : 3000000; break;
        default: m += value(b);
      }
    }
  }
  m += x.mfw_estimate_text(scratch.ptr, bpos, 0);
  return Math.ceil(m / 1000);
}

/** Touches every string the estimator reads (adds lengths): the floor of any JS walk. */
function touch(v) {
  if (typeof v === 'string') return v.length;
  if (v === null || typeof v !== 'object') return 1;
  let m = 0;
  if (Array.isArray(v)) { for (let i = 0; i < v.length; i++) m += touch(v[i]); return m; }
  for (const k in v) m += k.length + touch(v[k]);
  return m;
}

/** Strings in a value by size, and the bytes of its tree encoding. */
function census(v, acc = { strings: 0, short: 0, shortBytes: 0, longBytes: 0, objects: 0 }) {
  if (typeof v === 'string') {
    acc.strings++;
    const b = Buffer.byteLength(v);
    if (v.length < SHORT) { acc.short++; acc.shortBytes += b; } else acc.longBytes += b;
  } else if (v && typeof v === 'object') {
    acc.objects++;
    if (Array.isArray(v)) for (const y of v) census(y, acc);
    else for (const k in v) { census(k, acc); census(v[k], acc); }
  }
  return acc;
}

// ------------------------------------------------------------------ warm-up
{
  const small = conversation(20, 5);
  for (let k = 0; k < 100; k++) {
    consume(fullEstimate(small)); consume(jsEstimateMessages(small)); consume(batchEstimate(small, 0));
    consume(batchEstimate(small, 32)); consume(batchEstimate(small, 32, true)); consume(touch(small));
  }
}

const m = machine();
log(`# midfold boundary profile${QUICK ? ' (--quick)' : ''}\n`);
log(`- date: ${m.date}; machine: ${m.cpu}, ${m.cores} cores; node ${m.node} (V8 ${m.v8})`);
log(`- medians of ${ROUNDS} interleaved samples of ≥${SAMPLE_MS} ms; MB = 10^6 bytes\n`);

// ------------------------------------------------------------------ text
log('## Text: encodeInto into wasm memory vs the wasm kernel (MB/s of UTF-8)\n');
{
  const rows = [];
  for (const [lang, gen] of [['ASCII', asciiText], ['Chinese', chineseText]]) {
    for (const size of [100_000, 10_000_000]) {
      const s = gen(rng(size + 3), size);
      const n = Buffer.byteLength(s);
      fresh();
      const [len] = encodeTextChunk(scratch, s, 0, s.length);
      const buf = w.alloc(len);
      w.bytes().set(w.bytes().subarray(scratch.ptr, scratch.ptr + len), buf);
      const res = measure([
        { name: 'total', run: () => { fresh(); let milli = 0; for (let f = 0; f < s.length;) { const [b, next] = encodeTextChunk(scratch, s, f, 1 << 20); milli += x.mfw_estimate_text(scratch.ptr, b, 0); f = next; } return milli; } },
        { name: 'encodeInto', run: () => { fresh(); return encodeTextChunk(scratch, s, 0, s.length)[0]; } },
        { name: 'kernel', run: () => x.mfw_estimate_text(buf, len, 0) },
        { name: 'count code points (wasm)', run: () => x.mfw_count_code_points(buf, len) },
        { name: 'JS loop', run: () => jsTextMilli(s) },
      ], { rounds: ROUNDS, sampleMs: SAMPLE_MS });
      w.free(buf);
      const mb = (k) => fmt(n / 1e6 / (res[k].ms / 1e3));
      rows.push([`${lang} ${fmt(n / 1e6)} MB`, mb('total'), mb('encodeInto'), mb('kernel'), mb('count code points (wasm)'), mb('JS loop'),
        `${fmt((100 * res.encodeInto.ms) / res.total.ms, 2)} %`]);
    }
  }
  log(table(['input', 'estimateTokens path (encode + kernel)', 'encodeInto alone', 'wasm kernel alone', 'wasm code-point count alone', 'plain JS loop', 'share of encodeInto'], rows));
  log('');
}

// ------------------------------------------------------------------ conversations
log('## Conversations: the steps of estimateTokens(messages), and prototypes (ms per call)\n');
{
  const convs = [['100 msgs', conversation(100, 11)], ['1,000 msgs', conversation(1000, 12)], ['5.3 MB', conversationOfSize(5_300_000, 14)]];
  if (!QUICK) convs.push(['10,000 msgs', conversation(10000, 13)]);
  convs.push(['1,000 msgs, Chinese outputs', chineseConversation(1000, 15)]);
  const rows = [];
  const info = [];
  for (const [label, msgs] of convs) {
    const json = JSON.stringify(msgs).length;
    const expect = fullEstimate(msgs);
    for (const [name, got] of [['walker', jsEstimateMessages(msgs)], ['batch', batchEstimate(msgs, 0)], ['hybrid', batchEstimate(msgs, 32)], ['adaptive', batchEstimate(msgs, 32, true)]])
      if (got !== expect) throw new Error(`${label}: ${name} gives ${got}, midfold ${expect}`);
    const encLen = encodeOnly(msgs);
    const c = census(msgs);
    info.push([label, json.toLocaleString('en-US'), encLen.toLocaleString('en-US'), c.strings.toLocaleString('en-US'),
      `${fmt((100 * c.short) / c.strings, 2)} %`, `${fmt((100 * c.shortBytes) / (c.shortBytes + c.longBytes), 2)} %`, c.objects.toLocaleString('en-US')]);
    let doc = 0;
    const res = measure([
      { name: 'estimateTokens', run: () => fullEstimate(msgs) },
      { name: 'encodeValue', run: () => encodeOnly(msgs) },
      {
        name: 'parse', prepare: () => { fresh(); encodeValue(scratch, msgs); },
        run: () => { const d = parse(encLen); x.mfw_doc_free(d); return d; },
      },
      {
        name: 'estimate', prepare: () => { if (doc) x.mfw_doc_free(doc); fresh(); encodeValue(scratch, msgs); doc = parse(encLen); },
        run: () => estimateDoc(doc),
      },
      { name: 'walker', run: () => jsEstimateMessages(msgs) },
      { name: 'touch', run: () => touch(msgs) },
      { name: 'batch', run: () => batchEstimate(msgs, 0) },
      { name: 'hybrid', run: () => batchEstimate(msgs, 32) },
      { name: 'adaptive', run: () => batchEstimate(msgs, 32, true) },
    ], { rounds: ROUNDS, sampleMs: SAMPLE_MS * 2 });
    if (doc) x.mfw_doc_free(doc);
    const ms = (k) => fmt(res[k].ms);
    const rest = res.estimateTokens.ms - res.encodeValue.ms - res.parse.ms - res.estimate.ms;
    rows.push([label, ms('estimateTokens'), ms('encodeValue'), ms('parse'), ms('estimate'), fmt(rest),
      `${fmt((100 * res.encodeValue.ms) / res.estimateTokens.ms, 2)} %`, ms('walker'), ms('touch'), ms('batch'), ms('hybrid'), ms('adaptive'),
      fmt(res.estimateTokens.ms / res.walker.ms, 2), fmt(res.batch.ms / res.walker.ms, 2), fmt(res.hybrid.ms / res.walker.ms, 2),
      fmt(res.adaptive.ms / res.walker.ms, 2)]);
  }
  log(table(['conversation', 'JSON bytes', 'tree encoding bytes', 'strings', `strings < ${SHORT} units`, 'their share of string bytes', 'objects + arrays'], info));
  log('');
  log(table(['conversation', 'estimateTokens', 'encodeValue (JS)', 'parse (wasm, incl. free)', 'estimate (wasm)', 'rest (total − steps; noisy)', 'encodeValue share',
    'plain JS walker', 'JS touch-only walk (floor)', 'batch prototype', 'hybrid prototype (<32 in JS)', 'adaptive prototype', 'estimateTokens ÷ walker', 'batch ÷ walker', 'hybrid ÷ walker', 'adaptive ÷ walker'], rows));
  log('');
}

// ------------------------------------------------------------------ UTF-8 or UTF-16 into wasm memory
// What a second, UTF-16 text path in the core would save: the conversation's strings (keys and
// values) written into wasm memory as UTF-8 (what the tree encoding does) or as UTF-16, Node's
// native copy or a charCodeAt loop (browsers and Workers have no native one).
log('## Copying every string of a conversation into wasm memory (ms per call)\n');
{
  const strings = (v, out) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const y of v) strings(y, out);
    else if (v && typeof v === 'object') for (const k in v) { out.push(k); strings(v[k], out); }
    return out;
  };
  const rows = [];
  for (const [label, msgs] of [['1,000 msgs', conversation(1000, 12)], ['1,000 msgs, Chinese outputs', chineseConversation(1000, 15)]]) {
    const all = strings(msgs, []);
    let units = 0;
    for (const s of all) units += s.length;
    fresh();
    scratch.pos = 0;
    scratch.ensure(units * 3 + 16); // put() writes into the scratch
    const buf = w.alloc(units * 2 + 16);
    const res = measure([
      // put(): the batch prototype's copy (short ASCII strings by a JS loop, the rest by encodeInto)
      { name: 'utf8', run: () => { fresh(); bpos = 0; scratch.pos = 0; for (const s of all) put(s); return bpos; } },
      { name: 'utf16 native', run: () => { const b = Buffer.from(w.bytes().buffer); let at = buf; for (const s of all) at += b.write(s, at, 'utf16le'); return at; } },
      {
        name: 'utf16 loop',
        run: () => { const u16 = new Uint16Array(w.bytes().buffer, buf, units); let at = 0; for (const s of all) { for (let i = 0; i < s.length; i++) u16[at + i] = s.charCodeAt(i); at += s.length; } return at; },
      },
      { name: 'walker', run: () => jsEstimateMessages(msgs) },
    ], { rounds: ROUNDS, sampleMs: SAMPLE_MS * 2 });
    w.free(buf);
    const ms = (k) => fmt(res[k].ms);
    rows.push([label, all.length.toLocaleString('en-US'), units.toLocaleString('en-US'), ms('utf8'), ms('utf16 native'), ms('utf16 loop'), ms('walker')]);
  }
  log(table(['conversation', 'strings', 'UTF-16 units', 'UTF-8 (short ASCII by a JS loop, the rest by encodeInto)', "UTF-16 (Node Buffer#write 'utf16le')", 'UTF-16 (charCodeAt loop)', 'plain JS walker (whole estimate)'], rows));
  log('');
}
