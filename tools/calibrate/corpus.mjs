#!/usr/bin/env node
// Builds the calibration corpora from material on this machine (plus seeded generated text) and writes
// .cache/corpus.jsonl: one row per chunk {id, cls, group, text}.
//
//   node corpus.mjs [--per-class N] [--seed S] [--force] [--zh-manuals]
//
// --zh-manuals adds Debian's Chinese manuals and LibreOffice's Chinese help to the two Chinese classes (see
// debianManuals, helpPages). It is a measurement, not the shipped corpus: README "Another draw of the corpus" says
// what a refit with them gave and why profiles.json does not come from it.
// Every random choice comes from a seeded PRNG, so the same machine gives the same corpus. Chunk lengths are
// log-uniform between 200 B and 20 KB of UTF-8 (+ up to 3 B to finish a code point), cut from a per-class stream of documents (never inside a UTF-8
// sequence). `group` names the document a chunk starts in: fit.mjs splits fit/held-out by group, so the held-out
// half is made of documents the fit never saw.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { CACHE, CLASSES, HERE, rng, ensureCache, writeJSONL } from './lib.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const PER_CLASS = Number(opt('--per-class', 3000));
const S = PER_CLASS / 600; // scales the number of source documents
const SEED = Number(opt('--seed', 20261130));
const FORCE = args.includes('--force');
const ZH_MANUALS = args.includes('--zh-manuals');
const MIN_CHUNK = 200, MAX_CHUNK = 20000;
const DOC_CAP = 24000; // at most this many bytes of one document go into a stream (keeps sources diverse)
const OUT = path.join(CACHE, 'corpus.jsonl');

if (fs.existsSync(OUT) && !FORCE) {
  console.log(`${OUT} exists (use --force to rebuild)`);
  process.exit(0);
}

const R = rng(SEED);
const ENV = { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8', MANWIDTH: '80', COLUMNS: '120', TZ: 'UTC' };

// ---------------------------------------------------------------------------------------------- helpers
function sh(cmd, argv, { cwd, maxBytes = 4 << 20, env = ENV, input } = {}) {
  try {
    const out = execFileSync(cmd, argv, {
      cwd, env, input, maxBuffer: 64 << 20, timeout: 20000, stdio: ['pipe', 'pipe', 'pipe'],
    });
    return out.subarray(0, maxBytes).toString('utf8');
  } catch (e) {
    // Many commands exit non-zero but still print useful output (e.g. a gcc error listing).
    const out = Buffer.concat([e.stdout || Buffer.alloc(0), e.stderr || Buffer.alloc(0)]);
    return out.subarray(0, maxBytes).toString('utf8');
  }
}

function walk(root, accept, { maxFiles = 200000, skip = () => false } = {}) {
  const out = [];
  const stack = [root];
  while (stack.length && out.length < maxFiles) {
    const dir = stack.pop();
    let ents;
    try { ents = fs.readdirSync(dir, { withFileTypes: true }); } catch { continue; }
    ents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of ents) {
      const p = path.join(dir, e.name);
      if (skip(p)) continue;
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile() && accept(p)) out.push(p);
    }
  }
  return out.sort();
}

function readText(p) {
  try {
    let buf = fs.readFileSync(p);
    if (p.endsWith('.gz')) buf = zlib.gunzipSync(buf);
    if (buf.includes(0)) return null; // binary
    return buf.toString('utf8');
  } catch { return null; }
}

// A contiguous slice of at most `cap` bytes starting at a line boundary.
function capDoc(text, cap = DOC_CAP) {
  const bytes = Buffer.byteLength(text);
  if (bytes <= cap) return text;
  const ratio = text.length / bytes;
  const span = Math.floor(cap * ratio);
  let start = R.int(Math.max(1, text.length - span));
  const nl = text.indexOf('\n', start);
  if (nl >= 0 && nl - start < 2000) start = nl + 1;
  let s = text.slice(start, start + span);
  while (Buffer.byteLength(s) > cap) s = s.slice(0, Math.floor(s.length * 0.95));
  return s;
}

const stripOverstrike = (s) => s.replace(/[^\n]\x08/g, '').replace(/\x1b\[[0-9;]*m/g, '');

// Parse a GNU .mo catalog; returns the translated strings (plural forms split).
function moStrings(file) {
  let b;
  try { b = fs.readFileSync(file); } catch { return []; }
  if (b.length < 28) return [];
  const magic = b.readUInt32LE(0);
  const rd = magic === 0x950412de ? (o) => b.readUInt32LE(o) : magic === 0xde120495 ? (o) => b.readUInt32BE(o) : null;
  if (!rd) return [];
  const n = rd(8), tOff = rd(16);
  const out = [];
  for (let i = 0; i < n; i++) {
    const len = rd(tOff + 8 * i), off = rd(tOff + 8 * i + 4);
    if (off + len > b.length) break;
    const s = b.subarray(off, off + len).toString('utf8');
    if (i === 0 && s.startsWith('Project-Id-Version')) continue; // header entry
    for (const part of s.split('\0')) if (part.trim()) out.push(part);
  }
  return out;
}

const HAN = /[\u3400-\u9fff\uf900-\ufaff]/;

// ---------------------------------------------------------------------------------------------- sources
function manPages(dirs, n, accept = () => true) {
  const files = [];
  for (const d of dirs) {
    try { for (const f of fs.readdirSync(d)) files.push(path.join(d, f)); } catch { /* missing */ }
  }
  files.sort();
  R.shuffle(files);
  const docs = [];
  for (const f of files) {
    if (docs.length >= n) break;
    const t = stripOverstrike(sh('man', ['-l', f], { maxBytes: 1 << 20 }));
    if (t.length > 400 && !t.startsWith('man:') && accept(t)) docs.push({ name: f, text: capDoc(t) });
  }
  return docs;
}

// Character-set tables (iconv-lite's encodings/, Python's encodings/cp*.py, ...) list every character of a code
// page, rare ideographs included (2-3 tokens each on every vocabulary). They are not what an agent reads as code or
// JSON, and no per-class weight could cover them without doubling the estimate of ordinary Chinese: left out.
const CHARSET_TABLE = /\/encodings\/|\/charsets?\/|sbcs-data|dbcs-data/;

function fileDocs(files, n, filter = () => true) {
  const list = R.shuffle(files.filter((f) => !CHARSET_TABLE.test(f)));
  const docs = [];
  for (const f of list) {
    if (docs.length >= n) break;
    const t = readText(f);
    if (t && t.length > 300 && filter(t)) docs.push({ name: f, text: capDoc(t) });
  }
  return docs;
}

// English prose leaves out what is mostly Chinese: /usr/share/doc holds the Chinese manuals' text renderings and
// manpages-zh's FAQ, and a few Chinese man pages are installed among the English ones.
const HAN_ALL = new RegExp(HAN.source, 'g');
const notChinese = (t) => (t.match(HAN_ALL) || []).length < 0.02 * t.length;

function prose() {
  const man = manPages(['/usr/share/man/man1', '/usr/share/man/man5', '/usr/share/man/man7', '/usr/share/man/man8',
    '/usr/share/man/man3'], Math.round(420 * S), notChinese);
  const docFiles = walk('/usr/share/doc', (p) => /\/(README|NEWS|FAQ|TODO|AUTHORS|THANKS|HACKING)[^/]*$|\.(md|txt)(\.gz)?$/i.test(p));
  const docs = fileDocs(docFiles, Math.round(220 * S), (t) => (t.match(/[a-z]{3,}/g) || []).length > 50 && notChinese(t));
  const lic = fileDocs(walk('/usr/share/common-licenses', () => true), 6);
  return [...man, ...docs, ...lic];
}

function code() {
  const skipNM = (p) => p.includes('/tools/calibrate/') || p.includes('/.git/');
  const c = walk('/usr/include', (p) => /\.h$/.test(p));
  const cpp = [...walk('/usr/share/emscripten/system/lib', (p) => /\.(c|cc|cpp|h)$/.test(p)),
    ...walk('/usr/src/googletest', (p) => /\.(cc|h)$/.test(p))];
  const py = [...walk('/usr/lib/python3.11', (p) => /\.py$/.test(p), { skip: (p) => p.includes('site-packages') }),
    ...walk('/usr/lib/python3/dist-packages', (p) => /\.py$/.test(p))];
  const js = [...walk('/usr/lib/node_modules', (p) => /\.(js|mjs|cjs)$/.test(p) && !/\.min\.js$/.test(p), { skip: skipNM }),
    ...walk('/usr/share/nodejs', (p) => /\.(js|mjs)$/.test(p)),
    ...walk('/usr/share/emscripten/src', (p) => /\.js$/.test(p))];
  const ts = walk(path.join(HERE, 'node_modules'), (p) => /\.d\.ts$/.test(p));
  const shFiles = [...walk('/usr/bin', (p) => { try { const b = fs.readFileSync(p, { length: 64 }); return b.subarray(0, 2).toString() === '#!'; } catch { return false; } }),
    ...walk('/root/.pyenv', (p) => /\/(libexec|bin|plugins)\/.*pyenv[^/.]*$/.test(p) || /\.(sh|bash)$/.test(p), { skip: (p) => p.includes('/versions/') || p.includes('/.git/') })];
  const mk = walk('/usr/share/emscripten', (p) => /(Makefile|CMakeLists\.txt|\.cmake)$/.test(p));
  const isCode = (t) => !/\x1b/.test(t);
  return [
    ...fileDocs(c, Math.round(95 * S), isCode), ...fileDocs(cpp, Math.round(60 * S), isCode), ...fileDocs(py, Math.round(125 * S), isCode),
    ...fileDocs(js, Math.round(85 * S), isCode), ...fileDocs(ts, Math.round(16 * S), isCode), ...fileDocs(shFiles, Math.round(40 * S), isCode),
    ...fileDocs(mk, Math.round(10 * S), isCode),
  ];
}

// ---- JSON
const WORDS = ('the of and to in is for on that with as by this be are from at or an it not which have has can will ' +
  'user account request response error status server client config value name type default item list data file path ' +
  'update create delete token model message content role tool result cache index version build test release event ' +
  'session project issue comment review branch commit deploy region cluster node service queue payload retry limit').split(' ');
const FIRST = ['Alice', 'Bob', 'Carol', 'Dmitri', 'Eve', 'Fatima', 'Grace', 'Hiro', 'Ines', 'Jamal', 'Kai', 'Lena', 'Mateo', 'Noor'];
const hex = (n) => { let s = ''; for (let i = 0; i < n; i++) s += '0123456789abcdef'[R.int(16)]; return s; };
const b64 = (n) => { const a = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'; let s = ''; for (let i = 0; i < n; i++) s += a[R.int(64)]; return s; };
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[R.int(4)]}${hex(3)}-${hex(12)}`;
const isoTime = () => new Date(Date.UTC(2024, 0, 1) + R.int(3e10)).toISOString().replace(/\.\d+Z$/, R.next() < 0.5 ? 'Z' : `.${String(R.int(1000)).padStart(3, '0')}Z`);
const sentence = (n = R.range(4, 16)) => { const w = []; for (let i = 0; i < n; i++) w.push(R.pick(WORDS)); const s = w.join(' '); return s[0].toUpperCase() + s.slice(1) + '.'; };
const ident = () => R.pick(WORDS) + (R.next() < 0.5 ? R.pick(WORDS)[0].toUpperCase() + R.pick(WORDS).slice(1) : '_' + R.pick(WORDS));
const filePath = () => '/' + Array.from({ length: R.range(2, 6) }, () => R.pick(['usr', 'lib', 'src', 'app', 'var', 'home', 'node_modules', 'dist', 'build', ident(), ident()])).join('/') + R.pick(['.js', '.py', '.ts', '.json', '.log', '', '.c', '.h']);

function genValue(depth) {
  const r = R.next();
  if (depth > 3 || r < 0.45) {
    const k = R.int(12);
    if (k === 0) return R.int(100000);
    if (k === 1) return Math.round(R.next() * 1e6) / 1e3;
    if (k === 2) return R.next() < 0.5;
    if (k === 3) return null;
    if (k === 4) return uuid();
    if (k === 5) return isoTime();
    if (k === 6) return sentence();
    if (k === 7) return hex(R.pick([7, 12, 40, 64]));
    if (k === 8) return filePath();
    if (k === 9) return `https://api.example.com/v${R.range(1, 3)}/${ident()}/${R.int(99999)}`;
    if (k === 10) return R.pick(FIRST) + ' ' + R.pick(FIRST);
    return ident();
  }
  if (r < 0.7) return Array.from({ length: R.range(0, 6) }, () => genValue(depth + 1));
  const o = {};
  for (let i = R.range(1, 8); i > 0; i--) o[ident()] = genValue(depth + 1);
  return o;
}

function genJSONDoc() {
  const kind = R.int(6);
  let v;
  if (kind === 0) { // API list response
    v = { object: 'list', has_more: R.next() < 0.5, data: Array.from({ length: R.range(3, 40) }, () => ({
      id: `${R.pick(['usr', 'msg', 'evt', 'cus', 'file'])}_${b64(24).replace(/[+/]/g, 'x')}`, created: 1700000000 + R.int(9e7),
      email: `${R.pick(FIRST).toLowerCase()}.${R.int(999)}@example.com`, name: R.pick(FIRST), active: R.next() < 0.8,
      score: Math.round(R.next() * 10000) / 100, tags: Array.from({ length: R.range(0, 4) }, () => R.pick(WORDS)), updated_at: isoTime(),
    })) };
  } else if (kind === 1) { // chat transcript / tool results
    v = { model: R.pick(['gpt-4o', 'claude-3-5-sonnet', 'deepseek-chat', 'qwen3-32b']), messages: Array.from({ length: R.range(2, 14) }, () => {
      const role = R.pick(['user', 'assistant', 'tool']);
      const lines = Array.from({ length: R.range(1, 12) }, () => (R.next() < 0.5 ? sentence() : `${filePath()}:${R.range(1, 999)}: ${ident()}(${R.int(99)})`));
      return role === 'tool' ? { role, tool_call_id: `call_${b64(22).replace(/[+/]/g, 'Q')}`, content: lines.join('\n') } : { role, content: lines.join('\n') };
    }), usage: { prompt_tokens: R.int(90000), completion_tokens: R.int(4000) } };
  } else if (kind === 2) { // metrics / numeric arrays
    v = { series: Array.from({ length: R.range(2, 8) }, () => ({ metric: `${ident()}.${ident()}`, unit: R.pick(['ms', 'bytes', 'count']),
      points: Array.from({ length: R.range(10, 80) }, () => [1700000000 + R.int(9e6), Math.round(R.next() * 1e5) / 100]) })) };
  } else if (kind === 3) { // geo / coordinates
    v = { type: 'FeatureCollection', features: Array.from({ length: R.range(2, 20) }, () => ({ type: 'Feature', properties: { name: R.pick(FIRST), id: R.int(1e6) },
      geometry: { type: 'LineString', coordinates: Array.from({ length: R.range(2, 30) }, () => [Math.round((R.next() * 360 - 180) * 1e6) / 1e6, Math.round((R.next() * 180 - 90) * 1e6) / 1e6]) } })) };
  } else if (kind === 4) { // k8s-ish / config with hashes
    v = { apiVersion: 'v1', kind: 'List', items: Array.from({ length: R.range(2, 12) }, () => ({ metadata: { name: `${ident()}-${hex(10)}-${hex(5)}`, uid: uuid(),
      creationTimestamp: isoTime(), labels: { app: ident(), 'pod-template-hash': hex(10) } }, spec: { image: `registry.example.com/${ident()}@sha256:${hex(64)}`,
      env: Array.from({ length: R.range(0, 6) }, () => ({ name: ident().toUpperCase(), value: R.next() < 0.5 ? b64(R.range(8, 40)) : String(R.int(9999)) })) } })) };
  } else {
    v = genValue(0);
    if (typeof v !== 'object' || v === null) v = { value: v, items: Array.from({ length: 20 }, () => genValue(1)) };
  }
  return v;
}

function jsonDocs() {
  const skipNM = (p) => p.includes('/.git/') || p.endsWith('/tokenizer.json') || p.endsWith('/claude.json') || p.includes('/tiktoken/encoders/') || p.includes('/.cache/') || p.includes('/proc/');
  const roots = ['/usr', '/etc', '/root', '/var/lib', path.join(HERE, 'node_modules')];
  const files = roots.flatMap((r) => walk(r, (p) => /\.json$/.test(p), { skip: (p) => skipNM(p) || p.startsWith('/root/.npm') || (r !== roots[4] && p.startsWith('/work')) }))
    .filter((p) => !CHARSET_TABLE.test(p))
    .filter((p) => { try { const s = fs.statSync(p).size; return s > 250 && s < 20e6; } catch { return false; } });
  // Bucket by source root so one big folder (e.g. 1,300 schema files) cannot dominate.
  const buckets = new Map();
  for (const f of files) {
    const key = f.split('/').slice(0, 5).join('/');
    if (!buckets.has(key)) buckets.set(key, []);
    buckets.get(key).push(f);
  }
  const keys = [...buckets.keys()].sort();
  const docs = [];
  const seen = new Set();
  const nReal = Math.round(260 * S);
  for (let round = 0; docs.length < nReal && round < 50; round++) {
    for (const k of R.shuffle(keys.slice())) {
      if (docs.length >= nReal) break;
      const f = R.pick(buckets.get(k));
      if (seen.has(f)) continue;
      seen.add(f);
      const t = readText(f);
      if (!t) continue;
      let text = t;
      // Some files are re-serialized the way an agent or an API would send them.
      const r = R.next();
      if (r < 0.25) { try { text = JSON.stringify(JSON.parse(t)); } catch { /* keep */ } }
      else if (r < 0.4) { try { text = JSON.stringify(JSON.parse(t), null, 2); } catch { /* keep */ } }
      docs.push({ name: f, text: capDoc(text) });
    }
  }
  // npm cache index lines (hash<TAB>json)
  for (const f of walk(path.join(process.env.HOME || '/root', '.npm/_cacache/index-v5'), () => true).slice(0, 10)) {
    const t = readText(f);
    if (t) docs.push({ name: f, text: capDoc(t) });
  }
  for (let i = 0; i < Math.round(230 * S); i++) {
    const v = genJSONDoc();
    const style = R.int(4);
    const text = style === 0 ? JSON.stringify(v) : style === 1 ? JSON.stringify(v, null, 2) : style === 2 ? JSON.stringify(v, null, 4) : JSON.stringify(v, null, '\t');
    docs.push({ name: `gen:json:${i}`, text: capDoc(text) });
  }
  return docs;
}

// ---- shell / logs
function genLog(i) {
  const kind = i % 5;
  const lines = [];
  const n = R.range(60, 400);
  let t = Date.UTC(2025, R.int(12), R.range(1, 28), R.int(24), R.int(60));
  for (let k = 0; k < n; k++) {
    t += R.int(5000);
    const ts = new Date(t).toISOString();
    const lvl = R.pick(['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN', 'ERROR']);
    if (kind === 0) lines.push(`${ts} ${lvl.padEnd(5)} [${ident()}] request_id=${uuid()} trace=${hex(32)} span=${hex(16)} ${sentence(R.range(3, 9))} duration_ms=${R.int(5000)}`);
    else if (kind === 1) lines.push(`10.${R.int(255)}.${R.int(255)}.${R.int(255)} - - [${new Date(t).toUTCString()}] "${R.pick(['GET', 'POST', 'PUT', 'DELETE'])} /api/v1/${ident()}/${R.int(99999)}?page=${R.int(50)}&token=${b64(20).replace(/[+/]/g, 'z')} HTTP/1.1" ${R.pick([200, 200, 201, 204, 301, 404, 500])} ${R.int(90000)} "-" "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36"`);
    else if (kind === 2) lines.push(`${new Date(t).toUTCString().slice(5, 25)} host${R.int(20)} ${R.pick(['kernel', 'systemd[1]', `sshd[${R.int(65535)}]`, `containerd[${R.int(9999)}]`])}: ${R.next() < 0.5 ? sentence() : `container ${hex(64)} ${R.pick(['started', 'exited with code 137', 'OOMKilled'])} pid=${R.int(99999)} cgroup=/kubepods/burstable/pod${uuid()}`}`);
    else if (kind === 3) lines.push(`${R.pick(['PASS', 'PASS', 'PASS', 'FAIL', 'SKIP'])} ${filePath()} (${(R.next() * 3).toFixed(3)}s)${R.next() < 0.15 ? `\n    at ${ident()} (${filePath()}:${R.range(1, 900)}:${R.range(1, 80)})\n    at process.processTicksAndRejections (node:internal/process/task_queues:${R.range(60, 99)}:${R.range(1, 30)})` : ''}`);
    else lines.push(`${hex(12)}   ${R.pick(['registry.example.com/', '', 'ghcr.io/acme/'])}${ident()}:${R.pick(['latest', `v${R.int(9)}.${R.int(30)}.${R.int(9)}`, hex(7)])}   "${R.pick(['/bin/sh -c', 'docker-entrypoint.sh', 'node server.js'])}"   ${R.range(2, 59)} ${R.pick(['minutes', 'hours', 'days'])} ago   Up ${R.range(2, 59)} minutes   0.0.0.0:${R.range(1024, 65535)}->${R.pick([80, 443, 5432, 6379, 8080])}/tcp   ${ident()}_${R.int(9)}`);
  }
  return lines.join('\n') + '\n';
}

function shellDocs() {
  const docs = [];
  const add = (name, text) => { if (text && text.length > 300) docs.push({ name, text: capDoc(text) }); };
  const libs = walk('/usr/lib/x86_64-linux-gnu', (p) => /\.so(\.\d+)*$/.test(p), { maxFiles: 5000 });
  const bins = fs.readdirSync('/usr/bin').sort().map((f) => '/usr/bin/' + f);
  const someBins = R.shuffle(bins.slice()).slice(0, 400);
  const dirs = ['/usr/lib', '/usr/bin', '/etc', '/usr/share/doc', '/var/lib/dpkg/info', '/usr/include', '/usr/lib/x86_64-linux-gnu', '/usr/share/man/man1'];
  for (const d of dirs) add(`ls -la ${d}`, sh('ls', ['-la', d]));
  add('ls -laR /etc/apt /etc/systemd', sh('ls', ['-laR', '/etc/apt', '/etc/systemd']));
  add('ls -l --time-style=full-iso /usr/share', sh('ls', ['-l', '--time-style=full-iso', '/usr/share']));
  add('find /usr/share -maxdepth 3', sh('find', ['/usr/share', '-maxdepth', '3']));
  add('find /usr/lib/python3.11 -name *.py', sh('find', ['/usr/lib/python3.11', '-name', '*.py']));
  add('dpkg -l', sh('dpkg', ['-l']));
  for (const p of ['coreutils', 'libc6', 'git', 'python3.11-minimal', 'nodejs']) add(`dpkg -L ${p}`, sh('dpkg', ['-L', p]));
  add('dpkg -s', sh('dpkg', ['-s', 'git', 'curl', 'bash', 'gcc-12']));
  if (fs.existsSync('/root/.pyenv/.git')) {
    add('git log --stat', sh('git', ['-C', '/root/.pyenv', 'log', '--stat', '-n', '400']));
    add('git log --oneline', sh('git', ['-C', '/root/.pyenv', 'log', '--oneline', '--graph', '-n', '800']));
    add('git log -p', sh('git', ['-C', '/root/.pyenv', 'log', '-p', '-n', '25']));
    add('git ls-files -s', sh('git', ['-C', '/root/.pyenv', 'ls-files', '-s']));
    add('git show-ref', sh('git', ['-C', '/root/.pyenv', 'rev-list', '--all', '--max-count=1500', '--parents']));
  }
  // Process table and environment without command-line arguments or inherited variables: the real ones could
  // carry secrets into the cache. The layout is the same.
  add('ps -eo', sh('ps', ['-eo', 'user,pid,ppid,%cpu,%mem,vsz,rss,tty,stat,lstart,time,comm']));
  add('sha256sum', sh('sha256sum', someBins.slice(0, 150)));
  add('md5sum', sh('md5sum', someBins.slice(150, 300)));
  add('sha1sum', sh('sha1sum', libs.slice(0, 150)));
  add('env', sh('env', [], { env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/root',
    LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TERM: 'xterm-256color', SHELL: '/bin/bash', USER: 'root', LOGNAME: 'root', PWD: HERE,
    NODE_PATH: '/usr/share/nodejs', EDITOR: 'vi', PAGER: 'less', TZ: 'UTC', HOSTNAME: 'build-7f3c9a', SHLVL: '1' } }));
  add('df mount', sh('sh', ['-c', 'df -h; mount; free -m; uname -a; lscpu']));
  add('cpuinfo', sh('cat', ['/proc/cpuinfo']));
  add('maps', sh('cat', ['/proc/self/maps']));
  add('ldd', sh('sh', ['-c', `for f in ${someBins.slice(0, 25).join(' ')}; do echo "$f:"; ldd "$f"; done`]));
  add('nm -D libc', sh('nm', ['-D', '/usr/lib/x86_64-linux-gnu/libc.so.6']));
  add('readelf -a ls', sh('readelf', ['-a', '/usr/bin/ls']));
  add('objdump -d ls', sh('objdump', ['-d', '/usr/bin/ls'], { maxBytes: 200000 }));
  add('od', sh('od', ['-A', 'x', '-t', 'x1z', '-N', '30000', '/usr/bin/ls']));
  add('xxd', sh('xxd', ['-l', '30000', '/usr/bin/cat']));
  for (const b of R.shuffle(bins.slice()).slice(0, Math.round(5 * S))) {
    add(`base64 ${b}`, sh('base64', R.next() < 0.5 ? [b] : ['-w', '0', b], { maxBytes: 60000 }));
  }
  add('stat', sh('stat', someBins.slice(300, 360)));
  add('dpkg.log', readText('/var/log/dpkg.log'));
  add('apt history', readText('/var/log/apt/history.log'));
  add('apt term', readText('/var/log/apt/term.log'));
  add('alternatives.log', readText('/var/log/alternatives.log'));
  add('journalctl', sh('journalctl', ['--no-pager', '-n', '3000']));
  add('ip', sh('sh', ['-c', 'ip addr; ip route; ip -s link']));
  add('npm ls', sh('npm', ['ls', '--all', '--offline'], { cwd: HERE }));
  add('npm cache ls', sh('sh', ['-c', `ls -laR ${process.env.HOME || '/root'}/.npm/_cacache | head -3000`]));
  add('gcc errors', sh('sh', ['-c', 'printf "int main(){ foo(1); int x = \\"s\\"; return y; }\\n#include <nonexistent.h>\\n" > /tmp/_cal_bad.c; gcc -Wall -Wextra -c /tmp/_cal_bad.c -o /tmp/_cal_bad.o; rm -f /tmp/_cal_bad.c /tmp/_cal_bad.o']));
  add('python traceback', sh('python3', ['-c', 'import json,sys\ndef f(n):\n  return f(n-1) if n else json.loads("{bad")\nf(40)']));
  add('node trace', sh('node', ['-e', 'function f(n){ if(!n) throw new Error("boom " + process.versions.v8); return f(n-1) } try { f(30) } catch (e) { console.log(e.stack); console.log(process.versions, process.config) }']));
  add('tar tv', sh('sh', ['-c', 'cd /usr/share && tar cf - doc/git doc/bash 2>/dev/null | tar tvf -']));
  add('pip list', sh('sh', ['-c', 'python3 -m pip list 2>/dev/null; python3 -m pip freeze 2>/dev/null']));
  add('strace', sh('strace', ['-f', '-s', '80', 'ls', '-la', '/tmp'], { maxBytes: 200000 }));
  add('apt-cache policy', sh('apt-cache', ['policy', 'git', 'curl', 'bash', 'nodejs', 'python3', 'gcc']));
  add('du', sh('du', ['-a', '/usr/share/nodejs']));
  add('wc', sh('sh', ['-c', 'wc -l /usr/include/*.h']));
  add('grep -rn', sh('grep', ['-rn', 'TODO', '/usr/share/emscripten/src'], { maxBytes: 200000 }));
  add('file', sh('sh', ['-c', `file ${someBins.slice(0, 120).join(' ')}`]));
  add('systemctl-like ls /etc/systemd', sh('find', ['/etc', '-maxdepth', '2', '-printf', '%M %u %g %s %TY-%Tm-%Td %TT %p\\n']));
  for (let i = 0; i < Math.round(90 * S); i++) add(`gen:log:${i}`, genLog(i));
  // more real command output over seeded picks of folders, packages, binaries and libraries
  const someDirs = R.shuffle(fs.readdirSync('/usr/share').sort().map((d) => '/usr/share/' + d)).slice(0, Math.round(25 * S));
  for (const d of someDirs) add(`ls -la ${d}`, sh('ls', ['-la', '--time-style=' + R.pick(['locale', 'long-iso', 'full-iso']), d]));
  const pkgs = sh('dpkg-query', ['-W', '-f=${Package}\\n']).split('\n').filter(Boolean).sort();
  for (const p of R.shuffle(pkgs).slice(0, Math.round(20 * S))) add(`dpkg -L ${p}`, sh('dpkg', ['-L', p]));
  for (const p of R.shuffle(pkgs).slice(0, Math.round(8 * S))) add(`apt-cache show ${p}`, sh('apt-cache', ['show', '--no-all-versions', p]));
  for (const l of R.shuffle(libs.slice()).slice(0, Math.round(8 * S))) add(`nm -D ${l}`, sh('nm', ['-D', '--defined-only', l]));
  for (const l of R.shuffle(libs.slice()).slice(0, Math.round(6 * S))) add(`readelf -Ws ${l}`, sh('readelf', ['-W', '-s', l], { maxBytes: 300000 }));
  for (const b of R.shuffle(bins.slice()).slice(0, Math.round(5 * S))) add(`objdump -d ${b}`, sh('objdump', ['-d', b], { maxBytes: 200000 }));
  for (const b of R.shuffle(bins.slice()).slice(0, Math.round(4 * S))) add(`xxd ${b}`, sh('xxd', ['-s', String(R.int(4096)), '-l', '20000', b]));
  for (let i = 0; i < Math.round(6 * S); i++) add(`sha256sum #${i}`, sh(R.pick(['sha256sum', 'sha1sum', 'md5sum', 'b2sum']), R.shuffle(bins.slice()).slice(0, 120)));
  if (fs.existsSync('/root/.pyenv/.git')) {
    for (let i = 0; i < Math.round(6 * S); i++) add(`git log --stat --skip #${i}`, sh('git', ['-C', '/root/.pyenv', 'log', '--stat', '--skip', String(R.int(3000)), '-n', '60']));
    for (let i = 0; i < Math.round(3 * S); i++) add(`git log --format #${i}`, sh('git', ['-C', '/root/.pyenv', 'log', '--skip', String(R.int(3000)), '-n', '300', '--format=%H %an <%ae> %ad %s', '--date=iso']));
  }
  for (const r of ['/usr/lib/python3.11', '/etc', '/usr/share/nodejs', '/var/lib/dpkg', '/usr/include']) add(`find -ls ${r}`, sh('find', [r, '-maxdepth', '3', '-ls']));
  // Numeric tables under dash rules (a profiler's summary, kernel counters): columns of figures that no other
  // source has, and that an agent's `strace -c` or `/proc` read returns.
  const traced = ['ls -laR /usr/share/doc', 'find /usr/include -name *.h', 'python3 -c pass', 'node -e 0', 'gzip -c /usr/bin/ls',
    'sort /var/lib/dpkg/status', 'du -s /usr/lib', 'tar cf /dev/null /usr/share/man/man1', 'sha256sum /usr/bin/bash',
    'grep -r main /usr/include/linux', 'perl -e 1', 'git --version', 'man -w ls', 'dpkg -l'];
  traced.forEach((cmd, i) => add(`strace -c ${cmd}`,
    sh('sh', ['-c', `strace -c -f ${['', '-S calls', '-w', '-S name'][i % 4]} ${cmd} 2>&1 >/dev/null`])));
  for (const f of ['meminfo', 'vmstat', 'interrupts', 'softirqs', 'diskstats', 'self/status', 'zoneinfo']) add(`/proc/${f}`, readText(`/proc/${f}`));
  return docs;
}

// ---- Chinese
const ZH_LINES = {};
function zhLines(loc) {
  if (ZH_LINES[loc]) return ZH_LINES[loc];
  const dir = `/usr/share/locale/${loc}/LC_MESSAGES`;
  let fl = [];
  try { fl = fs.readdirSync(dir).filter((f) => f.endsWith('.mo')).sort(); } catch { /* none */ }
  ZH_LINES[loc] = fl.map((f) => ({ cat: `${loc}/${f}`, strs: moStrings(path.join(dir, f)).filter((s) => HAN.test(s)) }))
    .filter((c) => c.strs.length > 0);
  return ZH_LINES[loc];
}

// Debian's manuals in Chinese (debian-reference, maint-guide, debian-faq: see README for the packages), read from the
// plain-text renderings the packages ship. Each manual is ~170-820 KB, so it is cut into one document per numbered
// section ("1.3.", "5.12." at column 0, then a no-break space in these renderings); the front matter (title page and
// table of contents) is one more. capDoc would otherwise keep 24 KB of a whole manual, and the fit/held-out split goes
// by document. Like every document, a section is capped at DOC_CAP (its head, cut at a blank line).
function debianManuals(loc) {
  const tag = loc === 'zh_CN' ? 'zh-cn' : 'zh-tw';
  const files = [`/usr/share/debian-reference/debian-reference.${tag}.txt.gz`, `/usr/share/doc/maint-guide-${tag}/maint-guide.${tag}.txt.gz`,
    `/usr/share/doc/debian/FAQ/debian-faq.${tag}.txt.gz`];
  const docs = [];
  for (const f of files) {
    const t = readText(f);
    if (!t) continue;
    let name = `${f}#front`, lines = [];
    const flush = () => {
      const text = headAtBlankLine(lines.join('\n'), DOC_CAP);
      if (text.length > 300) docs.push({ name, text });
      lines = [];
    };
    for (const line of t.split('\n')) {
      const m = /^(\d+(?:\.\d+)+)\.[ \u00a0]\S/.exec(line);
      if (m) { flush(); name = `${f}#${m[1]}`; }
      lines.push(line);
    }
    flush();
  }
  return docs;
}

// The head of a text, at most `cap` UTF-8 bytes, cut after a blank line (else after a line, else anywhere).
function headAtBlankLine(text, cap) {
  if (Buffer.byteLength(text) <= cap) return text;
  let s = text.slice(0, Math.floor(cap * text.length / Buffer.byteLength(text)));
  while (Buffer.byteLength(s) > cap) s = s.slice(0, Math.floor(s.length * 0.95));
  const para = s.lastIndexOf('\n\n'), line = s.lastIndexOf('\n');
  return para > s.length / 2 ? s.slice(0, para + 2) : line > s.length / 2 ? s.slice(0, line + 1) : s;
}

// LibreOffice's help in Chinese (libreoffice-help-zh-cn/-zh-tw): ~2,000 short pages per locale with Chinese text, UI
// help with menu names, some untranslated English and Basic/Python examples. Taken as text, every k-th page in path
// order so that at most HELP_BUDGET bytes come in (k = 3 here): all of it would be 4.1 MB, about as much as the rest
// of the class, and would make the class about one product's help.
const HELP_BUDGET = 1.5e6;
function helpPages(loc) {
  const dir = `/usr/share/libreoffice/help/${loc.replace('_', '-')}/text`;
  const pages = walk(dir, (p) => p.endsWith('.html')).map((f) => ({ name: f, text: htmlText(readText(f) || '') }))
    .filter((d) => d.text.length > 200 && HAN.test(d.text));
  const total = pages.reduce((a, d) => a + Buffer.byteLength(d.text), 0);
  const stride = Math.max(1, Math.ceil(total / HELP_BUDGET));
  return pages.filter((_, i) => i % stride === 0).map((d) => ({ name: d.name, text: headAtBlankLine(d.text, DOC_CAP) }));
}

// The readable text of a LibreOffice help page: the DisplayArea div, block ends as newlines, tags dropped, the
// common entities decoded, source indentation removed.
function htmlText(html) {
  const start = html.indexOf('<div id="DisplayArea"');
  if (start < 0) return '';
  let end = html.indexOf('<footer', start);
  if (end < 0) end = html.length;
  const ENT = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return html.slice(start, end)
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|h\d|li|tr|div|pre|table)>/gi, '\n')
    .replace(/<\/t[dh]>/gi, '\t')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e) => {
      if (e[0] !== '#') return ENT[e.toLowerCase()] ?? m;
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m; // a malformed reference stays as written
    })
    .split('\n').map((l) => l.trim()).join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim() + '\n';
}

// Simplified Chinese (zh_CN): catalogs' translated strings, man pages, vim tutor, gnupg help, systemd catalog.
// Traditional Chinese (zh_TW) is its own class: it costs 10-15 % more tokens per ideograph on most vocabularies
// (its characters are mostly outside the common-ideograph set). Fitted, it is 0-0.4 % under on every profile;
// when it was only reported, DeepSeek-V3 was under on 23 % of its held-out chunks.
function zhDocs(loc) {
  const docs = ZH_MANUALS ? [...debianManuals(loc), ...helpPages(loc)] : [];
  for (const c of zhLines(loc)) {
    const text = c.strs.join('\n');
    if (text.length > 300) docs.push({ name: `mo:${c.cat}`, text: capDoc(text, 250000) });
  }
  docs.push(...manPages([`/usr/share/man/${loc}/man1`, `/usr/share/man/${loc}/man5`, `/usr/share/man/${loc}/man8`], Math.round(80 * S)));
  const extra = loc === 'zh_CN'
    ? ['/usr/share/vim/vim90/tutor/tutor.zh_cn.utf-8', '/usr/share/gnupg/help.zh_CN.txt', '/usr/lib/systemd/catalog/systemd.zh_CN.catalog']
    : ['/usr/share/vim/vim90/tutor/tutor.zh.utf-8', '/usr/share/gnupg/help.zh_TW.txt', '/usr/lib/systemd/catalog/systemd.zh_TW.catalog'];
  for (const f of extra) {
    const t = readText(f);
    if (t) docs.push({ name: f, text: capDoc(t) });
  }
  return docs;
}

// Chinese mixed with code, shaped like a chat answer: Chinese explanation, fenced code, inline code, lists.
function zhCodeDocs(codeDocs, shDocs) {
  const sentences = zhLines('zh_CN').flatMap((c) => c.strs.filter((s) => s.length >= 6 && s.length < 300));
  const snippet = (docs) => {
    const d = R.pick(docs);
    const lines = d.text.split('\n');
    const n = R.range(3, 35);
    const s = R.int(Math.max(1, lines.length - n));
    return { name: d.name, text: lines.slice(s, s + n).join('\n') };
  };
  const lang = (name) => (/\.py$/.test(name) ? 'python' : /\.(js|mjs|cjs)$/.test(name) ? 'javascript' : /\.d\.ts$/.test(name) ? 'typescript' : /\.(c|h)$/.test(name) ? 'c' : /\.(cc|cpp)$/.test(name) ? 'cpp' : 'bash');
  const docs = [];
  for (let i = 0; i < Math.round(600 * S); i++) {
    const parts = [];
    const paras = R.range(4, 22);
    for (let p = 0; p < paras; p++) {
      const k = R.next();
      if (k < 0.35) {
        parts.push(Array.from({ length: R.range(1, 5) }, () => R.pick(sentences).replace(/\n/g, '')).join(R.pick(['', '，', '。'])) + '。');
      } else if (k < 0.65) {
        const sn = snippet(codeDocs);
        parts.push('```' + lang(sn.name) + '\n' + sn.text + '\n```');
      } else if (k < 0.75) {
        const sn = snippet(shDocs);
        parts.push('```\n$ ' + sn.name.replace(/^gen:.*/, 'tail -n 20 app.log') + '\n' + sn.text + '\n```');
      } else if (k < 0.9) {
        parts.push(Array.from({ length: R.range(2, 6) }, (_, j) => `${R.next() < 0.5 ? '-' : `${j + 1}.`} ${R.pick(sentences).replace(/\n/g, '').slice(0, 80)}：\`${ident()}\`${R.next() < 0.5 ? `（见 \`${filePath()}\`）` : ''}`).join('\n'));
      } else {
        parts.push(`## ${R.pick(sentences).replace(/\n/g, '').slice(0, 30)}`);
      }
    }
    docs.push({ name: `gen:zhcode:${i}`, text: capDoc(parts.join('\n\n') + '\n') });
  }
  return docs;
}

// ---- other scripts (extra class, so per-script weights have data): gettext catalogs + emoji chat
function intlDocs() {
  const docs = [];
  const locs = ['ru', 'uk', 'ja', 'ko', 'el', 'ar', 'he', 'de', 'fr', 'es', 'pl', 'vi', 'th', 'pt_BR', 'tr', 'hi', 'bg', 'cs', 'fa'];
  for (const loc of locs) {
    const dir = `/usr/share/locale/${loc}/LC_MESSAGES`;
    let fl = [];
    try { fl = fs.readdirSync(dir).filter((f) => f.endsWith('.mo')).sort(); } catch { continue; }
    R.shuffle(fl);
    for (const f of fl.slice(0, Math.round(16 * S))) {
      const strs = moStrings(path.join(dir, f));
      const text = strs.join('\n');
      if (text.length > 300) docs.push({ name: `mo:${loc}/${f}`, text: capDoc(text, 25000) });
    }
  }
  const EMO = ['😀', '🎉', '🚀', '✅', '❌', '⚠️', '🔥', '👍', '👍🏽', '❤️', '🤖', '📦', '🐛', '✨', '💡', '📝', '👩‍💻', '🇨🇳', '🇺🇸', '⭐', '→', '•', '…', '—', '“', '”'];
  for (let i = 0; i < Math.round(40 * S); i++) {
    const lines = [];
    for (let k = R.range(40, 200); k > 0; k--) {
      const w = sentence().split(' ');
      for (let j = R.int(4); j >= 0; j--) w.splice(R.int(w.length + 1), 0, R.pick(EMO));
      lines.push(w.join(' '));
    }
    docs.push({ name: `gen:emoji:${i}`, text: lines.join('\n') });
  }
  return docs;
}

// ---------------------------------------------------------------------------------------------- chunking
function logUniformLen() {
  return Math.round(Math.exp(Math.log(MIN_CHUNK) + R.next() * (Math.log(MAX_CHUNK) - Math.log(MIN_CHUNK))));
}

function chunkClass(cls, docs, target) {
  R.shuffle(docs);
  const bufs = docs.map((d) => Buffer.from(d.text.replace(/\r\n/g, '\n') + '\n\n', 'utf8'));
  const stream = Buffer.concat(bufs);
  const starts = [];
  let acc = 0;
  for (const b of bufs) { starts.push(acc); acc += b.length; }
  const docAt = (off) => {
    let lo = 0, hi = starts.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (starts[mid] <= off) lo = mid; else hi = mid - 1; }
    return lo;
  };
  // Cut consecutive chunks; if the stream allows more than `target`, skip gaps so the chunks spread over all docs.
  const lens = Array.from({ length: target }, logUniformLen);
  let need = lens.reduce((a, b) => a + b, 0);
  const chunks = [];
  let pos = 0;
  for (let i = 0; i < target; i++) {
    const slack = stream.length - pos - need;
    if (slack > 0) pos += Math.floor((slack / (target - i)) * 2 * R.next());
    need -= lens[i];
    while (pos < stream.length && (stream[pos] & 0xc0) === 0x80) pos++;
    let end = Math.min(stream.length, pos + lens[i]);
    while (end < stream.length && (stream[end] & 0xc0) === 0x80) end++;
    if (end - pos < MIN_CHUNK) break; // stream exhausted
    const text = stream.subarray(pos, end).toString('utf8');
    const d = docs[docAt(pos)];
    chunks.push({ id: `${cls}:${chunks.length}`, cls, group: d.name, text });
    pos = end;
  }
  const bytes = chunks.reduce((a, c) => a + Buffer.byteLength(c.text), 0);
  console.log(`${cls.padEnd(7)} docs=${String(docs.length).padStart(4)} stream=${(stream.length / 1e6).toFixed(2)} MB chunks=${chunks.length} (${(bytes / 1e6).toFixed(2)} MB)`);
  return chunks;
}

// ---------------------------------------------------------------------------------------------- main
const t0 = Date.now();
ensureCache();
const all = [];
const codeD = code();
const shellD = shellDocs();
const sources = {
  prose: prose(), code: codeD, json: jsonDocs(), shell: shellD, zh: zhDocs('zh_CN'), zhtw: zhDocs('zh_TW'),
  zhcode: zhCodeDocs(codeD, shellD), intl: intlDocs(),
};
for (const cls of CLASSES) all.push(...chunkClass(cls, sources[cls], cls === 'zhtw' ? Math.round(PER_CLASS / 2) : PER_CLASS));
writeJSONL(OUT, all);
console.log(`wrote ${all.length} chunks to ${path.relative(process.cwd(), OUT)} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
