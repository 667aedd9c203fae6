/**
 * size.mjs — what a browser user downloads: the import graph of an entry module
 * (computed, not listed) and its gzip size.
 *
 * The graph follows static imports, `export … from`, dynamic `import('…')` with a literal
 * specifier, and `new URL('…', import.meta.url)` (the asset pattern bundlers follow,
 * which is how js/browser.js reaches its .wasm). Specifiers are read with TypeScript's
 * preProcessFile when typescript is installed (comments and strings are skipped), else by
 * a regular expression. Bare specifiers resolve through node_modules with the browser's
 * conditions: package.json "exports" (browser, import, default), then "module",
 * "browser" (a string), "main". Node built-ins (`node:…`) are reported, not followed.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn } from 'node:child_process';
import os from 'node:os';
import { createRequire } from 'node:module';

let ts = null;
try { ts = createRequire(import.meta.url)('typescript'); } catch { /* regex fallback */ }

/** The specifiers a JS module names (imports, re-exports, dynamic imports with a literal). */
function specifiers(src) {
  if (ts) return ts.preProcessFile(src, true, true).importedFiles.map((f) => f.fileName);
  return [...src.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((m) => m[1]);
}

/** Assets named by `new URL('…', import.meta.url)`. */
function assets(src) {
  return [...src.matchAll(/new\s+URL\(\s*(["'])([^"'`]+)\1\s*,\s*import\.meta\.url\s*\)/g)].map((m) => m[2]);
}

const CONDITIONS = ['browser', 'import', 'default'];

/** Resolves a package.json "exports" target for a subpath with the browser's conditions. */
function exportsTarget(exp, sub) {
  if (typeof exp === 'string') return sub === '.' ? exp : null;
  if (Array.isArray(exp)) {
    for (const e of exp) { const t = exportsTarget(e, sub); if (t) return t; }
    return null;
  }
  if (!exp || typeof exp !== 'object') return null;
  const keys = Object.keys(exp);
  if (keys.length && keys.every((k) => k.startsWith('.'))) {
    if (sub in exp) return exportsTarget(exp[sub], '.');
    for (const k of keys) {
      const star = k.indexOf('*');
      if (star < 0) continue;
      const pre = k.slice(0, star), post = k.slice(star + 1);
      if (sub.startsWith(pre) && sub.endsWith(post) && sub.length >= pre.length + post.length) {
        const t = exportsTarget(exp[k], '.');
        if (t) return t.replace('*', sub.slice(pre.length, sub.length - post.length));
      }
    }
    return null;
  }
  for (const c of CONDITIONS) if (c in exp) { const t = exportsTarget(exp[c], sub); if (t) return t; }
  return null;
}

/** A bare specifier ("pkg", "@scope/pkg/sub") seen from `fromFile`, or null. */
function resolveBare(spec, fromFile) {
  const parts = spec.split('/');
  const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const sub = `.${spec.slice(name.length)}`; // '.' or './sub'
  for (let dir = path.dirname(fromFile); ; dir = path.dirname(dir)) {
    const pkgDir = path.join(dir, 'node_modules', name);
    const pj = path.join(pkgDir, 'package.json');
    if (fs.existsSync(pj)) {
      const pkg = JSON.parse(fs.readFileSync(pj, 'utf8'));
      let t = pkg.exports !== undefined ? exportsTarget(pkg.exports, sub) : null;
      if (!t && sub === '.') t = pkg.module || (typeof pkg.browser === 'string' ? pkg.browser : null) || pkg.main || 'index.js';
      if (!t && pkg.exports === undefined) t = sub;
      return t ? withExtension(path.join(pkgDir, t)) : null;
    }
    if (dir === path.dirname(dir)) return null;
  }
}

function withExtension(f) {
  for (const c of [f, `${f}.js`, `${f}.mjs`, `${f}.json`, path.join(f, 'index.js')]) {
    if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  }
  return null;
}

const JS = /\.(m?js|cjs)$/;

/**
 * An entry module's load graph: {files, builtins, unresolved}. `files` are absolute
 * paths in discovery order (JS modules are scanned; .wasm, .json and other assets are
 * leaves).
 */
export function importGraph(entry) {
  const seen = new Set([entry]);
  const queue = [entry];
  const builtins = new Set(), unresolved = new Set();
  while (queue.length) {
    const f = queue.shift();
    if (!JS.test(f)) continue;
    const src = fs.readFileSync(f, 'utf8');
    const refs = [...specifiers(src).map((s) => [s, false]), ...assets(src).map((s) => [s, true])];
    for (const [spec, asset] of refs) {
      if (spec.startsWith('node:')) { builtins.add(spec); continue; }
      const dep = spec.startsWith('.') || spec.startsWith('/')
        ? (asset ? path.resolve(path.dirname(f), spec) : withExtension(path.resolve(path.dirname(f), spec)))
        : resolveBare(spec, f);
      if (!dep || !fs.existsSync(dep)) { unresolved.add(`${spec} (from ${path.basename(f)})`); continue; }
      if (!seen.has(dep)) { seen.add(dep); queue.push(dep); }
    }
  }
  return { files: [...seen], builtins: [...builtins], unresolved: [...unresolved] };
}

/** gzip -9 -n size of a buffer (the gzip binary when present, else zlib at level 9), async. */
function gzipBytes(buf) {
  return new Promise((resolve) => {
    const fallback = () => resolve(zlib.gzipSync(buf, { level: 9 }).length);
    let p;
    try { p = spawn('gzip', ['-9', '-n', '-c'], { stdio: ['pipe', 'pipe', 'ignore'] }); } catch { fallback(); return; }
    let n = 0;
    p.stdout.on('data', (d) => { n += d.length; });
    p.on('error', fallback);
    p.on('close', (code) => (code === 0 ? resolve(n) : fallback()));
    p.stdin.on('error', () => {});
    p.stdin.end(buf);
  });
}

/** Runs async jobs with at most `width` at a time (gzip -9 of the rank files takes seconds). */
function pool(width) {
  let active = 0;
  const waiting = [];
  const next = () => {
    if (active >= width || !waiting.length) return;
    active++;
    const [job, resolve, reject] = waiting.shift();
    job().then(resolve, reject).finally(() => { active--; next(); });
  };
  return (job) => new Promise((resolve, reject) => { waiting.push([job, resolve, reject]); next(); });
}
const run = pool(Math.max(1, os.availableParallelism ? os.availableParallelism() : os.cpus().length));
const perFile = new Map();
const gzFile = (f) => {
  if (!perFile.has(f)) perFile.set(f, run(() => gzipBytes(fs.readFileSync(f))));
  return perFile.get(f);
};

/**
 * Sizes of a list of files: {files, raw, gzEach (each file gzipped alone, as a server
 * sends them), gzOne (concatenated, as a bundle would be)}. Async; gzip runs in parallel.
 */
export async function sizes(files) {
  const bufs = files.map((f) => fs.readFileSync(f));
  const [each, one] = await Promise.all([
    Promise.all(files.map(gzFile)),
    files.length === 1 ? gzFile(files[0]) : run(() => gzipBytes(Buffer.concat(bufs))),
  ]);
  return { files: files.length, raw: bufs.reduce((a, b) => a + b.length, 0), gzEach: each.reduce((a, b) => a + b, 0), gzOne: one };
}

/** The file a bundler targeting browsers loads for a package specifier, seen from `fromFile`. */
export function resolvePackage(spec, fromFile) {
  return resolveBare(spec, fromFile);
}
