#!/usr/bin/env node
// Fits conservative estimator weights per tokenizer profile and reports held-out accuracy.
//
//   node fit.mjs [--target-under 0.005] [--drop 0.005] [--drop2 0.02] [--folds 5] [--cv-repeats 2] [--max-margin 0.05]
//                [--step 0.01] [--md .cache/report.md] [--out profiles.json]
//   node fit.mjs [--only o200k,cl100k] [--no-margins] [--in-sample] [other options] --out FILE
//                (measurements: --out is required; the report goes beside it, .json -> .md)
//
// --no-margins and --in-sample measure what the model can reach rather than fit what ships (README, "The
// frontier"). --no-margins skips the margin search (every margin 0), so --drop alone sets how many fit chunks may
// stay under. --in-sample fits on both halves, so the held-out figures become in-sample ones: what these terms can
// do on chunks the fit has seen, with no new document to miss. --only fits some profiles (which cannot ship either).
//
// Split: every chunk belongs to the document it starts in (`group`); a document goes to the FIT half or the
// HELD-OUT half by a hash of (class, document). Nothing of a held-out document is seen by the fit. The held-out
// half is used only for the report.
//
// Fit (per profile), with y_i = exact count x safety (1.10 for claude, its extra margin; 1 otherwise) and
// est_i = x_i . w (x_i: the terms of chunk i, model.mjs `terms`: its feature counts and sqrt(code points); w >= 0):
//   stage 1, all weights, on the seven main classes (prose, code, json, shell, zh, zhcode, zhtw):
//       minimize   sum over classes (1/n_class) * sum over fit chunks i of the class  est_i / y_i
//       subject to est_i >= y_i * (1 + m_class)  for every fit chunk, except up to `drop` (0.5 %) of each class:
//                  the costliest binding chunks (largest dual value) are dropped one per class per round.
//   stage 2, only the weights of scripts the main classes barely contain (LATIN, CYR, OTHER2, KANA, HANGUL, SYM3,
//       OTHER3, ASTRAL, XWORD), on the "other scripts" class, starting from and never below the stage-1 values,
//       with upper bounds (UPPER_BOUND); the same kind of LP, dropping up to `drop2` (2 %) of its chunks: a chunk
//       of one script with a stray code point of another must not set that other script's weight. Stage 2 only
//       raises estimates, so every stage-1 constraint still holds.
// Each profile prices the letter-pair boundary features of one table (PROFILES[].boundaries: o200k's for o200k,
// cl100k and claude, its own for deepseek and qwen); the other tables' features are masked out of its LP.
// The per-class margins m_class come from cross-validation inside the FIT half (folds by document, `folds` x
// `cv-repeats` fits): every class whose pooled out-of-fold under-estimation rate is above `target-under` gets
// its margin raised by `step`, until none is (or `max-margin` is reached: a margin is paid by every class that
// shares the weights, and an uncapped search took DeepSeek's code margin to 0.13 for a few fit-half documents,
// held-out code median 1.31; with the length term, o200k's code class went from 0.05 to 0.08 for a cross-validated
// rate of 0.7 % -> 0.6 % while every median rose ~0.03); a class whose rate has not dropped by a fifth over the
// last `plateau` raises gets those raises back and is not raised again. Weights are then rounded UP to whole
// milli-tokens (what the C core stores) and the report uses those rounded weights.
import fs from 'node:fs';
import path from 'node:path';
import { CACHE, CLASSES, CLASS_LABEL, HERE, fnv1a, isHeldOut, quantile, readJSONL } from './lib.mjs';
import { BOUNDARY_FEATURES, FEATURES, NT, TERMS, features, terms, bareagent, charsOver4 } from './model.mjs';

// Term vectors here are in fit units (model.mjs `terms`: features per unit, then sqrt(code points)), so an estimate
// is a plain dot product.
const dot = (x, w) => {
  let s = 0;
  for (let j = 0; j < NT; j++) s += x[j] * w[j];
  return s;
};
import { solveLP } from './lp.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : def; };
const TARGET_UNDER = Number(opt('--target-under', 0.005));
const DROP_FRAC = Number(opt('--drop', 0.005));
const DROP2_FRAC = Number(opt('--drop2', 0.02));
const MARGIN_STEP = Number(opt('--step', 0.01));
const FOLDS = Number(opt('--folds', 5));
const MAX_MARGIN = Number(opt('--max-margin', 0.05));
const REPEATS = Number(opt('--cv-repeats', 2));
const PLATEAU = Number(opt('--plateau', 5));
const OUT = opt('--out', path.join(HERE, 'profiles.json'));
const ALL_PROFILES = [
  { name: 'o200k', tok: 'o200k', safety: 1.0, boundaries: 'o200k' },
  { name: 'cl100k', tok: 'cl100k', safety: 1.0, boundaries: 'o200k' },
  { name: 'deepseek', tok: 'deepseek', safety: 1.0, boundaries: 'deepseek' },
  { name: 'qwen', tok: 'qwen', safety: 1.0, boundaries: 'qwen' },
  { name: 'claude', tok: 'claude', safety: 1.1, boundaries: 'o200k' },
];
const ONLY = opt('--only', '');
const unknown = ONLY ? ONLY.split(',').filter((n) => !ALL_PROFILES.some((p) => p.name === n)) : [];
if (unknown.length) throw new Error(`--only: no profile ${unknown.join(', ')} (${ALL_PROFILES.map((p) => p.name).join(', ')})`);
const PROFILES = ONLY ? ALL_PROFILES.filter((p) => ONLY.split(',').includes(p.name)) : ALL_PROFILES;
const NO_MARGINS = args.includes('--no-margins');
const IN_SAMPLE = args.includes('--in-sample');
// A measurement must not overwrite what ships (profiles.json, and the report that REPORT.md is copied from).
const MEASURING = NO_MARGINS || IN_SAMPLE || ONLY !== '';
if (MEASURING && !args.includes('--out')) throw new Error('--only, --no-margins and --in-sample need --out FILE: profiles.json is what ships');
const MD_OUT = opt('--md', MEASURING ? OUT.replace(/\.json$/, '') + '.md' : path.join(CACHE, 'report.md'));
// Lower bounds (tokens) for weights of classes the corpora barely exercise; a byte-level BPE never needs more
// tokens than UTF-8 bytes, so these stay below the byte counts.
const LOWER_BOUND = { c_CTRL: 1.0, c_ASTRAL: 2.0 };

const t0 = Date.now();
const corpus = readJSONL(path.join(CACHE, 'corpus.jsonl'));
const counts = new Map(readJSONL(path.join(CACHE, 'counts.jsonl')).map((r) => [r.id, r]));
// Every count the fit and the report read; a row without one of them (count.mjs stopped part-way) would turn into NaN
// ratios rather than an error.
const COUNTED = [...new Set(PROFILES.map((p) => p.tok)), 'tokenx'];
const chunks = corpus.map((c) => {
  const r = counts.get(c.id);
  if (!r || fnv1a(c.text).toString(16) !== r.h) throw new Error(`counts missing/stale for ${c.id}: run node count.mjs`);
  const missing = COUNTED.filter((t) => typeof r[t] !== 'number');
  if (missing.length) throw new Error(`counts for ${c.id} lack ${missing.join(', ')}: run node count.mjs`);
  return {
    id: c.id, cls: c.cls, group: c.group, bytes: r.bytes, exact: r, x: terms(features(c.text)),
    heldOut: isHeldOut(c),
    folds: Array.from({ length: REPEATS }, (_, r) => (fnv1a(`fold${r}|${c.group}`) >>> 7) % FOLDS),
    base: { tokenx: r.tokenx, 'chars/4': charsOver4(c.text), bareagent: bareagent(c.text) },
  };
});
const fitSet = chunks.filter((c) => IN_SAMPLE || !c.heldOut), heldSet = chunks.filter((c) => c.heldOut);
console.log(`chunks: ${chunks.length} (fit ${fitSet.length}, held-out ${heldSet.length}); terms ${NT}; features computed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

const lb = Float64Array.from(TERMS, (f) => LOWER_BOUND[f] ?? 0);

// Weights a stage may change. Stage 1 fits every weight on the seven main content classes; stage 2 fits only the
// weights of scripts those classes barely contain, on the "other scripts" class, never below their stage-1 values
// (so stage 2 can only raise estimates, and every stage-1 constraint stays satisfied).
const STAGE2 = ['c_LATIN', 'c_CYR', 'c_OTHER2', 'c_KANA', 'c_HANGUL', 'c_SYM3', 'c_OTHER3', 'c_ASTRAL', 'XWORD'].map((f) => TERMS.indexOf(f));
// Upper bounds (tokens) no stage may exceed: about the UTF-8 length of such a code point plus one token for the
// split it causes. Without them the LP parks the slack of a few outlier chunks on a rare feature (10 tokens per
// accented letter, say), which would wreck the estimate of ordinary text in that script. Text that would need more
// (e.g. a Latin-script language with few accented letters) stays under-estimated and shows in the report.
const UPPER_BOUND = { c_HANR: 3, c_LATIN: 3, c_CYR: 3, c_OTHER2: 3, c_HAN: 3, c_CJKP: 3, c_KANA: 4, c_HANGUL: 4, c_SYM3: 4,
  c_OTHER3: 4, c_ASTRAL: 5, XWORD: 3 };
const ub = Float64Array.from(TERMS, (f) => UPPER_BOUND[f] ?? Infinity);
const STAGE2_CLASSES = ['intl'];

// One LP with constraint dropping: rows {cls, id, a (coefficients of the free variables), rhs}; minimize cost.v
// subject to a.v >= rhs for every row except up to `dropFrac` of each class (the rows with the largest dual values,
// i.e. the chunks that cost the most to cover, are dropped one per class per round and the LP re-solved).
function solveWithDrops(rows, cost, dropFrac) {
  const nPer = {};
  for (const r of rows) nPer[r.cls] = (nPer[r.cls] || 0) + 1;
  const maxDrop = Object.fromEntries(Object.entries(nPer).map(([k, n]) => [k, Math.floor(n * dropFrac)]));
  const nDropped = {};
  const dropped = new Set();
  for (;;) {
    const active = rows.filter((r) => !dropped.has(r.id) && r.rhs > 0);
    const { w: v, u } = solveLP(active.map((r) => r.a), active.map((r) => r.rhs), cost);
    const best = {};
    active.forEach((r, i) => {
      if ((nDropped[r.cls] || 0) >= maxDrop[r.cls] || u[i] <= 1e-12) return;
      if (!best[r.cls] || u[i] > best[r.cls].u) best[r.cls] = { id: r.id, u: u[i] };
    });
    const ids = Object.entries(best);
    if (ids.length === 0) return { v, dropped: dropped.size };
    for (const [cls, { id }] of ids) { dropped.add(id); nDropped[cls] = (nDropped[cls] || 0) + 1; }
  }
}

// LP over a subset of the variables with upper bounds: rows {cls, id, a (coefficients of every variable), rhs}.
// Solves over the free variables; any variable above its bound is fixed at the bound (moved into the right-hand
// sides) and the LP re-solved over the others. Rows that no free variable can help any more are left out.
function solveBounded(rows, cost, ub, dropFrac) {
  const nv = cost.length;
  const fixed = new Map();
  for (let pass = 0; pass <= nv; pass++) {
    const free = [...Array(nv).keys()].filter((k) => !fixed.has(k));
    const sub = [];
    for (const r of rows) {
      let rhs = r.rhs;
      for (const [k, v] of fixed) rhs -= r.a[k] * v;
      if (rhs <= 0) continue;
      const a = Float64Array.from(free, (k) => r.a[k]);
      if (a.every((v) => v === 0)) continue; // cannot be covered any more
      sub.push({ cls: r.cls, id: r.id, a, rhs });
    }
    const v = new Float64Array(nv);
    for (const [k, x] of fixed) v[k] = x;
    let dropped = 0;
    if (sub.length) {
      const s = solveWithDrops(sub, Float64Array.from(free, (k) => cost[k]), dropFrac);
      free.forEach((k, q) => { v[k] = s.v[q]; });
      dropped = s.dropped;
    }
    const over = free.filter((k) => v[k] > ub[k] + 1e-9);
    if (over.length === 0) return { v, dropped };
    for (const k of over) fixed.set(k, Math.max(0, ub[k]));
  }
  throw new Error('solveBounded: no convergence');
}

// Two-stage fit of all NT weights on `set`: est_i >= y_i * (1 + margin[class]) (y_i: exact count x safety).
// Which features a profile may use: all but the boundary features of the other vocabularies' letter-pair tables.
const usable = (table) => Float64Array.from(TERMS, (f) => (f.startsWith('BND') && !BOUNDARY_FEATURES[table].includes(f) ? 0 : 1));

function fitWeights(set, p, margin, dropFrac = DROP_FRAC) {
  const { tok, safety } = p;
  const mask = usable(p.boundaries);
  const prep = (c) => {
    const y = c.exact[tok] * safety;
    return { cls: c.cls, id: c.id, a: Float64Array.from(c.x, (v, j) => (v * mask[j]) / y), b: 1 + (margin[c.cls] || 0) };
  };
  // stage 1: all weights, main classes; w = lb + v
  const main = set.filter((c) => !STAGE2_CLASSES.includes(c.cls)).map(prep);
  const n1 = {};
  for (const r of main) n1[r.cls] = (n1[r.cls] || 0) + 1;
  const cost1 = new Float64Array(NT);
  for (const r of main) for (let j = 0; j < NT; j++) cost1[j] += r.a[j] / n1[r.cls];
  const s1 = solveBounded(main.map((r) => ({ ...r, rhs: r.b - dot(r.a, lb) })), cost1, Float64Array.from(ub, (u, j) => u - lb[j]), dropFrac);
  const w = Float64Array.from(s1.v, (v, j) => v + lb[j]);
  // stage 2: script weights only, on the other-scripts class; w_s = w1_s + v_s
  const extra = set.filter((c) => STAGE2_CLASSES.includes(c.cls)).map(prep);
  const rows2 = extra.map((r) => ({ cls: r.cls, id: r.id, a: Float64Array.from(STAGE2, (j) => r.a[j]), rhs: r.b - dot(r.a, w) }));
  const cost2 = new Float64Array(STAGE2.length);
  for (const r of rows2) for (let k = 0; k < STAGE2.length; k++) cost2[k] += r.a[k] / Math.max(1, rows2.length);
  const s2 = solveBounded(rows2, cost2, Float64Array.from(STAGE2, (j) => ub[j] - w[j]), Math.max(dropFrac, DROP2_FRAC));
  STAGE2.forEach((j, k) => { w[j] += s2.v[k]; });
  mask.forEach((m, j) => { if (!m) w[j] = 0; });
  return { w, dropped: s1.dropped + s2.dropped };
}

// Per class: [chunks under the target (exact x safety), chunks].
const under = (set, w, tok, safety) => {
  const r = {};
  for (const c of set) {
    r[c.cls] ??= [0, 0];
    r[c.cls][1]++;
    if (dot(c.x, w) < c.exact[tok] * safety) r[c.cls][0]++;
  }
  return r;
};

// Margins by k-fold cross-validation inside the FIT half (folds by document).
function chooseMargins(p) {
  const { tok, safety } = p;
  const m = Object.fromEntries(CLASSES.map((c) => [c, 0]));
  const hist = {}, frozen = new Set();
  let rates = {};
  for (let round = 0; round < 60; round++) {
    const bad = new Set();
    const tally = {};
    for (let rep = 0; rep < REPEATS; rep++) {
      for (let f = 0; f < FOLDS; f++) {
        const { w } = fitWeights(fitSet.filter((c) => c.folds[rep] !== f), p, m);
        for (const [cls, [nu, n]] of Object.entries(under(fitSet.filter((c) => c.folds[rep] === f), w, tok, safety))) {
          tally[cls] ??= [0, 0];
          tally[cls][0] += nu; tally[cls][1] += n;
        }
      }
    }
    rates = {};
    for (const [cls, [nu, n]] of Object.entries(tally)) {
      rates[cls] = nu / n;
      if (nu / n > TARGET_UNDER) bad.add(cls);
    }
    if (bad.size === 0) return { m, rounds: round, rates, frozen: [...frozen] };
    // A class whose rate has not dropped by a fifth over the last PLATEAU raises has under-estimated chunks that no margin
    // fixes (a document unlike any other in its class): take back those raises and stop raising it.
    let raised = false;
    for (const cls of bad) {
      if (frozen.has(cls)) continue;
      (hist[cls] ??= []).push({ m: m[cls], rate: rates[cls] });
      const h = hist[cls];
      if (h.length > PLATEAU && h[h.length - 1].rate > 0.8 * h[h.length - 1 - PLATEAU].rate) {
        m[cls] = h[h.length - 1 - PLATEAU].m;
        frozen.add(cls);
        continue;
      }
      if (m[cls] + MARGIN_STEP <= MAX_MARGIN + 1e-9) { m[cls] = Math.round((m[cls] + MARGIN_STEP) * 1000) / 1000; raised = true; }
      else frozen.add(cls);
    }
    if (!raised) return { m, rounds: round, rates, frozen: [...frozen], note: `stopped: ${[...frozen].join(',')} not fixable by margin` };
  }
  return { m, rounds: 60, rates, frozen: [...frozen], note: 'margin search hit its round limit' };
}

function stats(set, est, tok, safety = 1) {
  const byCls = {};
  for (const c of set) (byCls[c.cls] ??= []).push(est(c) / c.exact[tok]);
  const out = {};
  for (const [cls, rs] of Object.entries(byCls)) {
    rs.sort((a, b) => a - b);
    out[cls] = {
      n: rs.length, median: quantile(rs, 0.5), p1: quantile(rs, 0.01), under: rs.filter((r) => r < 1).length / rs.length,
      underTarget: rs.filter((r) => r < safety).length / rs.length, mean: rs.reduce((a, b) => a + b, 0) / rs.length,
    };
  }
  return out;
}

const result = {
  model: 'midfold-estimator-v2', spec: 'tools/calibrate/model.mjs', features: FEATURES, terms: TERMS,
  unit: 'milli-tokens per feature count (LENGTH: per sqrt(code points)); estimate = model.mjs priceMilli, rounded up to whole tokens by the caller',
  fit: { targetUnder: TARGET_UNDER, drop: DROP_FRAC, drop2: DROP2_FRAC, folds: FOLDS, cvRepeats: REPEATS, maxMargin: MAX_MARGIN,
    fitChunks: fitSet.length, heldOutChunks: heldSet.length, ...(NO_MARGINS && { noMargins: true }), ...(IN_SAMPLE && { inSample: true }) },
  profiles: {},
};
const report = [];
for (const p of PROFILES) {
  const t1 = Date.now();
  const { m: k, rounds, note, rates } = NO_MARGINS
    ? { m: Object.fromEntries(CLASSES.map((c) => [c, 0])), rounds: 0, note: 'no margin search (--no-margins)', rates: {} }
    : chooseMargins(p);
  const { w, dropped } = fitWeights(fitSet, p, k);
  const iter = `dropped=${dropped} cv-under=${JSON.stringify(Object.fromEntries(Object.entries(rates).map(([c, r]) => [c, +(100 * r).toFixed(1)])))}`;
  const milli = Array.from(w, (v) => Math.ceil(v * 1000 - 1e-6));
  const wr = Float64Array.from(milli, (v) => v / 1000);
  const ours = stats(heldSet, (c) => dot(c.x, wr), p.tok, p.safety);
  const fitStats = stats(fitSet, (c) => dot(c.x, wr), p.tok);
  const base = Object.fromEntries(['tokenx', 'chars/4', 'bareagent'].map((bn) => [bn, stats(heldSet, (c) => c.base[bn], p.tok)]));
  const r3 = (v) => Math.round(v * 1000) / 1000;
  result.profiles[p.name] = {
    tokenizer: p.tok, boundaries: p.boundaries, safety: p.safety, margins: k,
    weights_milli: Object.fromEntries(TERMS.map((f, j) => [f, milli[j]])),
    heldout: Object.fromEntries(Object.entries(ours).map(([cls, o]) => [cls, { chunks: o.n, median: r3(o.median), p1: r3(o.p1), under: r3(o.under) }])),
  };
  report.push({ p, ours, fitStats, base, k });
  console.log(`\n== ${p.name} (${p.tok}${p.safety !== 1 ? `, x${p.safety} safety` : ''}) margins k=${JSON.stringify(k)} cv-rounds=${rounds}${note ? ' ' + note : ''} ${iter} ${((Date.now() - t1) / 1000).toFixed(1)} s`);
  console.log('   weights (milli): ' + TERMS.map((f, j) => `${f.replace(/^c_/, '')}=${milli[j]}`).join(' '));
  console.log(`   ${'class'.padEnd(8)} ${'n'.padStart(4)} | ours med   p1  under(fit) | tokenx med  p1 under | chars/4 med under | bareagent med under`);
  for (const cls of CLASSES) {
    const o = ours[cls], f = fitStats[cls] || { under: NaN }, tx = base.tokenx[cls], c4 = base['chars/4'][cls], ba = base.bareagent[cls];
    if (!o) continue;
    console.log(`   ${cls.padEnd(8)} ${String(o.n).padStart(4)} | ${o.median.toFixed(3)} ${o.p1.toFixed(3)} ${(100 * o.under).toFixed(1).padStart(4)}% (${(100 * f.under).toFixed(1)}%) | ${tx.median.toFixed(3)} ${tx.p1.toFixed(2)} ${(100 * tx.under).toFixed(0).padStart(3)}% | ${c4.median.toFixed(2)} ${(100 * c4.under).toFixed(0).padStart(3)}% | ${ba.median.toFixed(2)} ${(100 * ba.under).toFixed(0).padStart(3)}%`);
  }
}

fs.writeFileSync(OUT, JSON.stringify(result, null, 2) + '\n');

// Markdown report
const md = [];
md.push(IN_SAMPLE
  ? `Held-out half: ${heldSet.length} chunks, IN-SAMPLE (--in-sample: the fit saw them). Ratio = estimate / exact count per chunk.`
  : `Held-out half: ${heldSet.length} chunks (documents never seen by the fit). Ratio = estimate / exact count per chunk.`);
md.push(`"med" = median ratio, "p1" = 1st percentile of the ratio, "under" = share of chunks whose estimate is below the exact count.\n`);
for (const { p, ours, base } of report) {
  md.push(`### ${p.name}${p.safety !== 1 ? ` (fitted to ${p.safety}× the exact count)` : ''}\n`);
  const tgt = p.safety !== 1;
  md.push(`| class | chunks | ours med | ours p1 | ours under${tgt ? ` | ours under ${p.safety}×` : ''} | tokenx med | tokenx under | chars/4 med | chars/4 under | bareagent med | bareagent under |`);
  md.push(`|---|---:|---:|---:|---:${tgt ? '|---:' : ''}|---:|---:|---:|---:|---:|---:|`);
  for (const cls of CLASSES) {
    const o = ours[cls];
    if (!o) continue;
    const tx = base.tokenx[cls], c4 = base['chars/4'][cls], ba = base.bareagent[cls];
    const pc = (v) => `${(100 * v).toFixed(1)} %`;
    md.push(`| ${CLASS_LABEL[cls]} | ${o.n} | ${o.median.toFixed(2)} | ${o.p1.toFixed(2)} | ${pc(o.under)}${tgt ? ` | ${pc(o.underTarget)}` : ''} | ${tx.median.toFixed(2)} | ${pc(tx.under)} | ${c4.median.toFixed(2)} | ${pc(c4.under)} | ${ba.median.toFixed(2)} | ${pc(ba.under)} |`);
  }
  md.push('');
}
fs.writeFileSync(MD_OUT, md.join('\n'));
console.log(`\nwrote ${path.relative(process.cwd(), OUT)} and ${path.relative(process.cwd(), MD_OUT)} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
