/**
 * size.mjs — what a browser user downloads.
 *
 *   node tests/bench/size.mjs      prints the download table alone (bench.mjs prints it too)
 *
 * 1. The download table (downloads()): what a page's bundle holds as a user's bundler
 *    emits it — esbuild's JS API bundles and minifies a page's import line (tree-shaking
 *    whatever the page does not import) — plus the .wasm that page fetches, each gzip -9.
 *    A row's wasm must be named by its bundle, so no figure leaves out a file it loads.
 * 2. The import graph of an entry module (computed, not listed), file by file, unminified:
 *
 * The graph follows static imports, `export … from`, dynamic `import('…')` with a literal
 * specifier, and `new URL('…', import.meta.url)` (the asset pattern bundlers follow,
 * which is how js/hosts/browser.js reaches its .wasm). Specifiers are read with TypeScript's
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
import { fileURLToPath } from 'node:url';

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

/** gzip -9 size of a buffer or string. */
export const gzipSize = (data) => run(() => gzipBytes(Buffer.from(data)));

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const versionOf = (name) => {
  try { return JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version; } catch { return null; }
};

/**
 * The pages of the download table: what each imports (resolved from the repository, as a
 * bundler resolves `midfold` to js/hosts/browser.js by its "browser" condition) and the .wasm it
 * fetches to do that work. init() fetches midfold-lite.wasm, initFull() (validate, the
 * digest) midfold.wasm, initEstimator() midfold-estimate.wasm (a Compactor on it fetches
 * midfold-lite.wasm half way to its first trigger: a row before, a row after); the memory
 * module is fetched only at the first memory command, hence a row of its own.
 */
function pages() {
  const has = (name) => versionOf(name) !== null;
  return [
    { name: 'midfold: a page that estimates and compacts (init, estimateTokens, microCompact, Compactor)',
      code: "export { init, estimateTokens, microCompact, Compactor } from './js/hosts/browser.js';", wasm: ['wasm/midfold-lite.wasm'] },
    { name: 'midfold: a page that only estimates (initEstimator, estimateTokens)',
      code: "export { initEstimator, estimateTokens } from './js/hosts/browser.js';", wasm: ['wasm/midfold-estimate.wasm'] },
    { name: 'midfold: a page that only estimates, on init() (init, estimateTokens)',
      code: "export { init, estimateTokens } from './js/hosts/browser.js';", wasm: ['wasm/midfold-lite.wasm'] },
    { name: 'midfold: a chat page with a Compactor on initEstimator() (initEstimator, estimateTokens, Compactor), until its conversation is half way to its first trigger',
      code: "export { initEstimator, estimateTokens, Compactor } from './js/hosts/browser.js';", wasm: ['wasm/midfold-estimate.wasm'] },
    { name: 'midfold: the same page after that (its Compactor fetched midfold-lite.wasm)',
      code: "export { initEstimator, estimateTokens, Compactor } from './js/hosts/browser.js';", wasm: ['wasm/midfold-estimate.wasm', 'wasm/midfold-lite.wasm'] },
    { name: 'midfold: a page that also validates and digests (initFull, estimateTokens, validate, Compactor, digestSummarizer)',
      code: "export { initFull, estimateTokens, validate, Compactor, digestSummarizer } from './js/hosts/browser.js';", wasm: ['wasm/midfold.wasm'] },
    { name: "midfold: the whole browser entry (every export, after initFull(); the memory tool's module not yet fetched)",
      code: "export * from './js/hosts/browser.js';", wasm: ['wasm/midfold.wasm'] },
    { name: 'midfold/memory: the memory tool (createMemoryTool, memoryStore), at its first command',
      code: "export { createMemoryTool, memoryStore } from './js/memory/browser.js';", wasm: ['wasm/midfold-memory.wasm'] },
    ...(has('tokenx') ? [{ name: `tokenx ${versionOf('tokenx')} (estimateTokenCount)`, code: "export { estimateTokenCount } from 'tokenx';", wasm: [] }] : []),
    ...(has('gpt-tokenizer') ? [{ name: `gpt-tokenizer ${versionOf('gpt-tokenizer')} (countTokens, o200k)`, code: "export { countTokens } from 'gpt-tokenizer';", wasm: [] }] : []),
    ...(has('ai') ? [{ name: `AI SDK ai ${versionOf('ai')} (pruneMessages)`, code: "export { pruneMessages } from 'ai';", wasm: [] }] : []),
  ];
}

/**
 * The download table's rows: {name, jsRaw, jsGz, wasmGz, totalGz, wasm, problem}. Needs
 * esbuild (a devDependency); without it, null.
 */
export async function downloads() {
  let esbuild;
  try { esbuild = await import('esbuild'); } catch { return null; }
  return Promise.all(pages().map(async (page) => {
    const r = await esbuild.build({
      stdin: { contents: page.code, resolveDir: ROOT, loader: 'js' }, bundle: true, minify: true, format: 'esm',
      platform: 'browser', write: false, logLevel: 'silent',
    });
    const js = r.outputFiles[0].contents;
    const missing = page.wasm.filter((f) => !Buffer.from(js).includes(path.basename(f)));
    const [jsGz, ...wasmGz] = await Promise.all([gzipSize(js), ...page.wasm.map((f) => gzFile(path.join(ROOT, f)))]);
    const wasm = wasmGz.reduce((a, b) => a + b, 0);
    return {
      name: page.name, jsRaw: js.length, jsGz, wasmGz: wasm, totalGz: jsGz + wasm, wasm: page.wasm,
      problem: missing.length ? `its bundle does not name ${missing.join(', ')}` : null,
    };
  }));
}

/** The download table as markdown, with its notes. */
export async function downloadTable() {
  const rows = await downloads();
  if (!rows) return 'esbuild is not installed (npm ci): no download table.\n';
  const kb = (n) => (n / 1000).toFixed(1);
  const lines = [
    '| page | JS minified (bytes) | JS gzip (KB) | wasm gzip (KB) | total gzip (KB) |',
    '|---|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.name} | ${r.jsRaw.toLocaleString('en-US')} | ${kb(r.jsGz)} | ${r.wasm.length ? `${kb(r.wasmGz)} (${r.wasm.map((f) => path.basename(f)).join(', ')})` : '—'} | **${kb(r.totalGz)}** |`),
  ];
  const problems = rows.filter((r) => r.problem).map((r) => `- **${r.name}**: ${r.problem}`);
  return `${lines.join('\n')}\n\nEach page is its import line bundled and minified by esbuild ${versionOf('esbuild')} (format esm, platform browser: what a user's bundler emits, tree-shaken), plus the .wasm it fetches; every file gzip -9, KB = 1,000 bytes.\n${problems.length ? `\n${problems.join('\n')}\n` : ''}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(await downloadTable());
}
