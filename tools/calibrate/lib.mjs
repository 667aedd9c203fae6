// Small shared helpers for the calibration scripts (no dependencies).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const CACHE = path.join(HERE, '.cache');
export const CLASSES = ['prose', 'code', 'json', 'shell', 'zh', 'zhcode', 'intl', 'zhtw'];
export const CLASS_LABEL = {
  prose: 'English prose', code: 'source code', json: 'JSON', shell: 'shell/log output',
  zh: 'Chinese prose', zhcode: 'Chinese + code', intl: 'other scripts (extra)', zhtw: 'Traditional Chinese',
};

// Seeded PRNG (splitmix32-style); deterministic across runs and Node versions.
export function rng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    z = (z ^ (z >>> 16)) >>> 0;
    return z / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (a) => a[Math.floor(next() * a.length)],
    range: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    shuffle(a) {
      for (let i = a.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [a[i], a[j]] = [a[j], a[i]];
      }
      return a;
    },
  };
}

// FNV-1a 32-bit hash of a string (used for the deterministic fit/held-out split).
export function fnv1a(str) {
  let h = 0x811c9dc5;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

// The fit/held-out split, by document: a chunk is held out when the hash of (class, document) is odd, so nothing of a
// held-out document is seen by any step that learns from the corpus (boundaries.mjs, fit.mjs).
export const isHeldOut = (chunk) => (fnv1a(`${chunk.cls}|${chunk.group}`) & 1) === 1;

export function ensureCache() { fs.mkdirSync(CACHE, { recursive: true }); }

export function readJSONL(file) {
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}
export function writeJSONL(file, rows) {
  fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

export function quantile(sortedAsc, q) {
  if (sortedAsc.length === 0) return NaN;
  const pos = (sortedAsc.length - 1) * q;
  const lo = Math.floor(pos), hi = Math.ceil(pos);
  return sortedAsc[lo] + (sortedAsc[hi] - sortedAsc[lo]) * (pos - lo);
}
