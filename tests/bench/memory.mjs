// What estimating one large conversation costs in memory, beside tokenx (a JS peer) in one run:
// the wasm memory at the call's end and after it, and the process's resident size (RSS) grown
// over its resting size after each of a few calls (measured after a full GC and a pause, so a
// dropped instance's memory has been returned). Each row runs in a child process of its own, so
// no row's memory is another's; the conversation is the seeded coding-agent session of
// lib.mjs (50,000 messages, 142 MB of JSON), built before the resting size is read.
// Prints one markdown table. Nothing here asserts.
//
//   node tests/bench/memory.mjs [--messages N] [--calls N] [--root DIR]
//
// --root takes midfold from another checkout (its js/ and wasm/, built), e.g. one from before
// the scratch grew in place, for a before/after in one table; a checkout without memoryUsage()
// has its wasm memory read from its one instance.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { conversation, fmt, machine, median, table } from './lib.mjs';

const HERE = fileURLToPath(import.meta.url);
const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const MESSAGES = Number(arg('--messages', 50000));
const CALLS = Number(arg('--calls', 3));
const MB = 1e6;

const settle = async () => {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** Every string of a value (what a peer that counts text reads), depth first. */
function* strings(v) {
  if (typeof v === 'string') yield v;
  else if (Array.isArray(v)) for (const x of v) yield* strings(x);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) yield* strings(x);
}

/** One row, in this (child) process: `{ms, wasmPeak, wasmAfter, rss: [growth after each call]}`. */
async function child(impl, root) {
  const messages = conversation(MESSAGES, 13);
  let estimate, usage = () => null;
  if (impl === 'tokenx') {
    const { estimateTokenCount } = await import('tokenx');
    estimate = (list) => { let n = 0; for (const s of strings(list)) n += estimateTokenCount(s); return n; };
  } else {
    let instance = null; // for a checkout without memoryUsage(): its one instance, from init
    const original = WebAssembly.instantiate;
    WebAssembly.instantiate = async (...args) => { const r = await original(...args); instance ??= r.instance ?? r; return r; };
    const mf = await import(pathToFileURL(path.join(root, 'js/hosts/node.js')).href);
    await mf.init(undefined, impl === 'midfold-kept' ? { releaseMemoryAbove: Infinity } : undefined);
    WebAssembly.instantiate = original;
    if (mf.memoryUsage) instance = null; // (held, it would keep a released instance's memory alive)
    estimate = (list) => mf.estimateTokens(list);
    usage = mf.memoryUsage ? () => mf.memoryUsage()
      : () => ({ wasmBytes: instance.exports.memory.buffer.byteLength, peakWasmBytes: instance.exports.memory.buffer.byteLength });
  }
  await settle();
  const rest = process.memoryUsage().rss;
  const out = { ms: [], rss: [], tokens: 0, wasmPeak: null, wasmAfter: null, input: Buffer.byteLength(JSON.stringify(messages)) };
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    out.tokens = estimate(messages);
    out.ms.push(performance.now() - t);
    const u = usage();
    if (u) { out.wasmPeak = u.peakWasmBytes; out.wasmAfter = u.wasmBytes; }
    await settle();
    out.rss.push(process.memoryUsage().rss - rest);
  }
  process.stdout.write(JSON.stringify(out));
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4]);
} else {
  const here = path.resolve(path.dirname(HERE), '../..');
  const other = arg('--root');
  const rows = [
    ...(other ? [[`midfold, ${path.basename(path.resolve(other))} (--root)`, 'midfold', path.resolve(other)]] : []),
    ['midfold (releaseMemoryAbove: 64 MiB, the default)', 'midfold', here],
    ['midfold (releaseMemoryAbove: Infinity, as in workerd)', 'midfold-kept', here],
    ['tokenx (estimateTokenCount on every string)', 'tokenx', here],
  ];
  const m = machine();
  console.log(`\nMemory of one estimate of ${MESSAGES.toLocaleString('en-US')} messages, ${CALLS} calls per row (${m.node}, ${m.cpu}, load ${m.load.toFixed(1)})\n`);
  const cells = [];
  for (const [name, impl, root] of rows) {
    const r = JSON.parse(execFileSync(process.execPath, ['--expose-gc', HERE, '--child', impl, root, ...process.argv.slice(2)],
      { encoding: 'utf8', maxBuffer: 1 << 20 }));
    const mb = (x) => (x === null ? '—' : fmt(x / MB));
    cells.push([name, fmt(r.input / MB), fmt(median(r.ms)), mb(r.wasmPeak), mb(r.wasmAfter), r.rss.map((x) => fmt(x / MB)).join(' / '), String(r.tokens)]);
  }
  console.log(table(['', 'input (MB of JSON)', 'ms per call (median)', 'wasm memory at the peak (MB)', 'wasm memory after (MB)',
    `RSS grown after call 1${CALLS > 1 ? ` … ${CALLS}` : ''} (MB)`, 'tokens'], cells));
}
