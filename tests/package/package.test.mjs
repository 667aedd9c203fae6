// The npm package as users get it: `npm pack`, install the tarball into a fresh project (offline: midfold
// has no runtime dependencies), use it from an ES module and from CommonJS, and type-check TypeScript
// against index.d.ts with the repository's pinned typescript.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { init, estimateTokens, serialize } from '../../js/hosts/node.js';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);

let tmp;
let app;
let packed; // npm pack --json's record of the tarball

// The conversation both module systems estimate (OpenAI format, one tool call).
const CONVERSATION = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Please read the config file' },
  {
    role: 'assistant', content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"file_path":"config.toml"}' } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: '1: [provider]\n2: name = "anthropic"\n' },
  { role: 'user', content: '设置里的提供商是哪一个?' },
];

async function node(file, cwd) {
  const { stdout } = await run(process.execPath, [file], { cwd, timeout: 60000 });
  return JSON.parse(stdout);
}

before(async () => {
  assert.ok(existsSync(path.join(ROOT, 'wasm/midfold.wasm')), 'wasm/midfold.wasm is missing: run `make wasm` first');
  await init();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'midfold-pack-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: ROOT, timeout: 120000 });
  [packed] = JSON.parse(stdout);

  app = path.join(tmp, 'app');
  await mkdir(app);
  await writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(tmp, packed.filename)],
    { cwd: app, timeout: 120000 });
});

after(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const PAGES = ['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md'];

test('the tarball holds what users need and nothing else', () => {
  const files = packed.files.map((f) => f.path).sort();
  for (const f of files) {
    assert.ok(/^js\/.+\.(js|d\.ts)$/.test(f) || /^docs\/[\w-]+\.md$/.test(f)
      || ['wasm/midfold.wasm', 'wasm/midfold-lite.wasm', 'wasm/midfold-estimate.wasm', 'wasm/midfold-memory.wasm', ...PAGES, 'LICENSE', 'package.json'].includes(f),
      `unexpected file in the tarball: ${f}`);
  }
  for (const f of ['js/hosts/node.js', 'js/hosts/browser.js', 'js/hosts/workerd.js', 'js/core/api.js', 'js/index.d.ts', 'js/compaction/summarizers.d.ts',
    'js/memory/node.js', 'js/memory/browser.js', 'js/memory/workerd.js', 'js/memory/index.d.ts',
    'wasm/midfold.wasm', 'wasm/midfold-lite.wasm', 'wasm/midfold-estimate.wasm', 'wasm/midfold-memory.wasm', ...PAGES, 'LICENSE', 'package.json',
    'docs/README.md', 'docs/api.md']) {
    assert.ok(files.includes(f), `${f} is in the tarball`);
  }
  // Every page of the repository's docs/ ships.
  for (const f of readdirSync(path.join(ROOT, 'docs')).filter((n) => n.endsWith('.md'))) assert.ok(files.includes(`docs/${f}`), `docs/${f} is in the tarball`);
  // 585 KiB packed (1.6 MB unpacked): the four modules (362 KiB; the full one with the digest and recall's
  // search), the integrations, the state, the simulator with its recall model, the CLI, the agent-log readers,
  // recall (its archive, tool and definitions) and docs/ (435 KiB). The bound catches a stray file, not a few
  // more pages.
  assert.ok(packed.size < 640 * 1024, `tarball ${packed.size} bytes`);
});

test('LICENSE is the MIT license package.json declares, for midfold contributors', () => {
  const pkg = JSON.parse(readFileSync(path.join(app, 'node_modules/midfold/package.json'), 'utf8'));
  assert.equal(pkg.license, 'MIT');
  const license = readFileSync(path.join(app, 'node_modules/midfold/LICENSE'), 'utf8');
  assert.match(license, /^MIT License\n\nCopyright \(c\) \d{4} midfold contributors\n/);
  assert.match(license, /THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND/);
});

/** GitHub's anchor of each heading of a Markdown text (github-slugger: lower case, punctuation dropped, spaces to
 * hyphens, a repeated anchor numbered), outside code blocks. */
function anchorsOf(text) {
  const seen = new Map();
  const anchors = new Set();
  for (const [, heading] of withoutFences(text).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const rendered = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
    const base = rendered.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

/** The text without fenced code blocks, where a `#` line is no heading. */
function withoutFences(text) {
  return text.replace(/^```[\s\S]*?^```$/gm, '');
}

/** The text without fenced code blocks and inline code, where a bracket is no link. */
function withoutCode(text) {
  return withoutFences(text).replace(/`[^`\n]*`/g, '');
}

/** Every relative link (and in-page anchor) of `pages` ({path: text}) that does not resolve among `files`. */
function deadLinks(pages, files) {
  const anchors = new Map(Object.entries(pages).map(([page, text]) => [page, anchorsOf(text)]));
  const dead = [];
  for (const [page, text] of Object.entries(pages)) {
    for (const [, target] of withoutCode(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // https:, mailto:
      const [file, anchor] = target.split('#');
      const resolved = file ? path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURI(file))) : page;
      if (!files.includes(resolved)) dead.push(`${page}: ${target} (${resolved} is not in the tarball)`);
      else if (anchor !== undefined && !(anchors.get(resolved) ?? anchorsOf(readFileSync(path.join(app, 'node_modules/midfold', resolved), 'utf8'))).has(anchor)) {
        dead.push(`${page}: ${target} (${resolved} has no heading #${anchor})`);
      }
    }
  }
  return dead;
}

test('the link check finds a link to a file that does not ship and an anchor no heading has', () => {
  const pages = { 'README.md': '# midfold\n\n## The API\n\n### `compactStep(options)`\n\n[api](docs/api.md#compaction) [up](#the-api) [`x`](#nowhere) [step](#compactstepoptions) `[no](link.md)`\n',
    'docs/api.md': '## Compaction\n\n[calibration](../tools/calibrate/README.md) [home](../README.md#the-api) [site](https://example.com/x.md)\n```md\n[in code](gone.md)\n```\n' };
  assert.deepEqual(deadLinks(pages, ['README.md', 'docs/api.md']), [
    'README.md: #nowhere (README.md has no heading #nowhere)',
    'docs/api.md: ../tools/calibrate/README.md (tools/calibrate/README.md is not in the tarball)',
  ]);
});

test('every relative link of README.md, CHANGELOG.md, CONTRIBUTING.md and docs/*.md resolves inside the tarball, anchors included', () => {
  const files = packed.files.map((f) => f.path);
  const names = files.filter((f) => PAGES.includes(f) || /^docs\/[\w-]+\.md$/.test(f));
  const pages = Object.fromEntries(names.map((f) => [f, readFileSync(path.join(app, 'node_modules/midfold', f), 'utf8')]));
  assert.ok(names.length >= 20, `pages: ${names.join(', ')}`);
  assert.deepEqual(deadLinks(pages, files), []);
  const links = Object.values(pages).reduce((n, text) => n + [...withoutCode(text).matchAll(/\]\(([^)\s#][^)\s]*)\)/g)].filter((m) => !/^https?:/.test(m[1])).length, 0);
  assert.ok(links >= 100, `${links} relative links checked`);
});

test('package.json: exports with types first and workerd before browser and default; files; engines', () => {
  const pkg = JSON.parse(readFileSync(path.join(app, 'node_modules/midfold/package.json'), 'utf8'));
  assert.equal(pkg.type, 'module');
  const keys = Object.keys(pkg.exports['.']);
  assert.equal(keys[0], 'types');
  assert.ok(keys.includes('workerd') && keys.indexOf('workerd') < keys.indexOf('browser') && keys.indexOf('browser') < keys.indexOf('default'),
    `condition order: ${keys.join(', ')}`);
  assert.equal(keys.at(-1), 'default');
  assert.equal(pkg.exports['.'].workerd, './js/hosts/workerd.js');
  assert.equal(pkg.exports['./midfold.wasm'], './wasm/midfold.wasm');
  assert.equal(pkg.exports['./midfold-lite.wasm'], './wasm/midfold-lite.wasm');
  assert.equal(pkg.exports['./midfold-estimate.wasm'], './wasm/midfold-estimate.wasm');
  assert.equal(pkg.exports['./midfold-memory.wasm'], './wasm/midfold-memory.wasm');
  const memoryKeys = Object.keys(pkg.exports['./memory']);
  assert.deepEqual(memoryKeys, ['types', 'workerd', 'browser', 'default'], `midfold/memory condition order: ${memoryKeys.join(', ')}`);
  assert.ok(pkg.engines && pkg.engines.node, 'engines.node is set');
  assert.deepEqual(pkg.dependencies ?? {}, {}, 'no runtime dependencies');
  for (const target of Object.values(pkg.exports).flatMap((v) => (typeof v === 'string' ? [v] : Object.values(v)))) {
    assert.ok(existsSync(path.join(app, 'node_modules/midfold', target)), `export target ${target} is installed`);
  }
});

test('the installed package works from an ES module', async () => {
  await writeFile(path.join(app, 'esm.mjs'), `
import { init, estimateTokens, serialize, validate, Compactor, digestSummarizer, openAISummarizer } from 'midfold';
import { anthropicSummarizer } from 'midfold/summarizers';
import { createRequire } from 'node:module';
const conversation = ${JSON.stringify(CONVERSATION)};
await init();
await init(); // idempotent
const wasmPath = createRequire(import.meta.url).resolve('midfold/midfold.wasm');
console.log(JSON.stringify({
  resolved: import.meta.resolve('midfold'),
  wasmPath,
  tokens: estimateTokens(conversation),
  transcript: serialize(conversation),
  valid: validate(conversation).ok,
  compactor: typeof Compactor === 'function' && typeof digestSummarizer === 'function',
  summarizers: typeof openAISummarizer === 'function' && typeof anthropicSummarizer === 'function',
}));
`);
  const got = await node('esm.mjs', app);
  assert.equal(fileURLToPath(got.resolved), path.join(app, 'node_modules/midfold/js/hosts/node.js'), 'the installed copy is used');
  assert.equal(got.tokens, estimateTokens(CONVERSATION));
  assert.equal(got.transcript, serialize(CONVERSATION));
  assert.equal(got.valid, true);
  assert.equal(got.compactor, true);
  assert.equal(got.summarizers, true);
  assert.deepEqual(readFileSync(got.wasmPath), readFileSync(path.join(ROOT, 'wasm/midfold.wasm')));
});

test('the installed midfold/memory entry runs the memory tool from its own module, without init()', async () => {
  await writeFile(path.join(app, 'memory.mjs'), `
import { createMemoryTool, initMemory, memoryStore } from 'midfold/memory';
import * as main from 'midfold';
import { createRequire } from 'node:module';
const store = memoryStore();
const tool = createMemoryTool({ store });
const created = await tool.execute({ command: 'create', path: '/memories/notes.md', file_text: 'port 8080\\n' });
const viewed = await tool.execute({ command: 'view', path: '/memories/notes.md' });
await initMemory(); // already loaded: returns at once
const other = await main.createMemoryTool({ store }).execute({ command: 'view', path: '/memories/notes.md' });
console.log(JSON.stringify({
  resolved: import.meta.resolve('midfold/memory'),
  wasmPath: createRequire(import.meta.url).resolve('midfold/midfold-memory.wasm'),
  created, viewed, other, ready: main.isReady(),
}));
`);
  const got = await node('memory.mjs', app);
  assert.equal(fileURLToPath(got.resolved), path.join(app, 'node_modules/midfold/js/memory/node.js'));
  assert.deepEqual(readFileSync(got.wasmPath), readFileSync(path.join(ROOT, 'wasm/midfold-memory.wasm')));
  assert.deepEqual(got.created, { content: 'File created successfully at: /memories/notes.md', isError: false });
  assert.equal(got.viewed.isError, false);
  assert.match(got.viewed.content, /^Here's the content of \/memories\/notes\.md with line numbers:\n\s+1\tport 8080$/);
  assert.deepEqual(got.other, got.viewed, "the main entry's createMemoryTool is the same tool");
  assert.equal(got.ready, false, 'the memory tool never loaded midfold.wasm');
});

test('the installed package works from CommonJS (require)', async () => {
  await writeFile(path.join(app, 'cjs.cjs'), `
const midfold = require('midfold');
const conversation = ${JSON.stringify(CONVERSATION)};
midfold.init().then(() => {
  console.log(JSON.stringify({
    resolved: require.resolve('midfold'),
    tokens: midfold.estimateTokens(conversation),
    micro: midfold.microCompact(JSON.parse(JSON.stringify(conversation))).tokensBefore,
    error: (() => { try { midfold.estimateTokens('x', { profile: 'no-such-profile' }); } catch (e) { return e instanceof midfold.MidfoldError && e.code; } })(),
  }));
});
`);
  const got = await node('cjs.cjs', app);
  assert.equal(got.resolved, path.join(app, 'node_modules/midfold/js/hosts/node.js'));
  assert.equal(got.tokens, estimateTokens(CONVERSATION));
  assert.equal(got.micro, estimateTokens(CONVERSATION));
  assert.equal(typeof got.error, 'string');
});

test('TypeScript type-checks a user file against index.d.ts (tsc --noEmit --strict)', async () => {
  await writeFile(path.join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom'],
      types: [], strict: true, noEmit: true, skipLibCheck: false,
    },
    files: ['check.mts'],
  }, null, 2));
  await writeFile(path.join(app, 'check.mts'), `
import {
  init, estimateTokens, serialize, microCompact, validate, detectFormat, Compactor, digestSummarizer,
  openAISummarizer, MidfoldError, type Format, type Message, type MicroReport, type CompactReport, type Summarize,
} from 'midfold';
import { anthropicSummarizer, SummarizerError } from 'midfold/summarizers';

const messages: Message[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Please read the config file' },
];
await init();
await init(new URL('file:///tmp/midfold.wasm'));
const tokens: number = estimateTokens(messages, { profile: 'bareagent' });
const transcript: string = serialize(messages);
const micro: MicroReport = microCompact(messages, { keepRecent: 3, excludeTools: ['memory'] });
const format: Format | 'unknown' = detectFormat(messages);
const { ok } = validate(messages);

const mine: Summarize = async ({ prompt, maxTokens }) => prompt.slice(0, maxTokens);
const compactor = new Compactor({
  summarize: openAISummarizer({ baseURL: 'http://127.0.0.1:8080/v1', model: 'local' }),
  threshold: 50_000,
  keepTail: { tokens: 10_000 },
  onWarn: (message: string) => void message,
});
const report: CompactReport = await compactor.compact(messages, { force: true, signal: AbortSignal.timeout(1000) });
const compacted: boolean = report.compacted;
new Compactor({ summarize: digestSummarizer() });
new Compactor({ summarize: mine });
anthropicSummarizer({ apiKey: 'k', model: 'claude' });

try {
  estimateTokens(messages);
} catch (e) {
  if (e instanceof MidfoldError) { const code: string = e.code; void code; }
  if (e instanceof SummarizerError) { const status: number = e.status; void status; }
}

// @ts-expect-error: messages must be an array
serialize('not a list');
// @ts-expect-error: summarize is required
new Compactor({ threshold: 10 });
// @ts-expect-error: estimateTokens returns a number
const wrong: string = estimateTokens('x');

void [tokens, transcript, micro, format, ok, compacted, wrong];
`);
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  try {
    await run(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit', '--strict'], { cwd: app, timeout: 120000 });
  } catch (e) {
    assert.fail(`tsc failed:\n${e.stdout}${e.stderr}`);
  }
  // The checker really checks: a plain type error fails.
  await writeFile(path.join(app, 'check.mts'), `import { estimateTokens } from 'midfold';\nconst n: string = estimateTokens('x');\nvoid n;\n`);
  await assert.rejects(run(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit', '--strict'], { cwd: app, timeout: 120000 }),
    (e) => /TS2322/.test(e.stdout));
  const version = JSON.parse(await readFile(path.join(path.dirname(path.dirname(tsc)), 'package.json'), 'utf8')).version;
  assert.match(version, /^\d+\.\d+\.\d+$/);
});
