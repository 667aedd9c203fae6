// The wasm modules and who loads them: midfold.wasm (estimate, serialize, micro-compact,
// validate, compact, digest), midfold-lite.wasm (the same without validate and the digest:
// the browser's default), midfold-estimate.wasm (the estimator alone: the browser's
// initEstimator()) and midfold-memory.wasm (the memory tool), each importing only
// the no-op memory-growth hook; the memory tool's module is loaded by its first command,
// never by init(); a page bundled without the memory tool holds none of it (what the browser
// entry fetches and when: browser-download.test.mjs).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { createMemoryTool, initMemory, memoryStore, MidfoldError } from '../../js/memory/node.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const compile = (file) => new WebAssembly.Module(readFileSync(path.join(ROOT, 'wasm', file)));
const names = (list) => list.map((e) => `${e.module ? `${e.module}.` : ''}${e.name}:${e.kind}`).sort();

test('each module imports only env.emscripten_notify_memory_growth and exports its own functions', () => {
  const main = compile('midfold.wasm'), lite = compile('midfold-lite.wasm'), memory = compile('midfold-memory.wasm');
  const estimator = compile('midfold-estimate.wasm');
  for (const m of [main, lite, estimator, memory]) assert.deepEqual(names(WebAssembly.Module.imports(m)), ['env.emscripten_notify_memory_growth:function']);
  const exported = (m) => WebAssembly.Module.exports(m).map((e) => e.name).filter((n) => n.startsWith('mfw_')).sort();
  assert.deepEqual(exported(memory), ['mfw_alloc', 'mfw_free', 'mfw_memory_step', 'mfw_realloc']);
  const core = exported(main);
  assert.ok(!core.includes('mfw_memory_step'), 'the memory tool is not in midfold.wasm');
  for (const f of ['mfw_doc_estimate', 'mfw_doc_serialize', 'mfw_doc_micro', 'mfw_doc_compact', 'mfw_doc_digest', 'mfw_doc_validate', 'mfw_search_rank'])
    assert.ok(core.includes(f), `midfold.wasm exports ${f}`);
  assert.deepEqual(exported(lite), core.filter((f) => !['mfw_doc_digest', 'mfw_doc_validate', 'mfw_search_rank'].includes(f)),
    "midfold-lite.wasm is midfold.wasm without validate, the digest and the archive's search");
  assert.deepEqual(exported(estimator), exported(lite).filter((f) => !['mfw_doc_serialize', 'mfw_doc_micro', 'mfw_doc_compact', 'mfw_doc_signed', 'mfw_recall_id'].includes(f)),
    'midfold-estimate.wasm is midfold-lite.wasm without the transcript, micro-compaction, the compaction plan, the signed-thinking answers and recall ids');
});

test('each module exports exactly the lists of js/core/tiers.js, which the loader reads its tier from', async () => {
  const tiers = await import('../../js/core/tiers.js');
  const exported = (file) => WebAssembly.Module.exports(compile(file)).map((e) => e.name).filter((n) => n.startsWith('mfw_')).sort();
  const list = (...lists) => lists.join(' ').split(' ').sort();
  assert.deepEqual(exported('midfold-estimate.wasm'), list(tiers.ESTIMATE_EXPORTS));
  assert.deepEqual(exported('midfold-lite.wasm'), list(tiers.ESTIMATE_EXPORTS, tiers.LITE_EXPORTS));
  assert.deepEqual(exported('midfold.wasm'), list(tiers.ESTIMATE_EXPORTS, tiers.LITE_EXPORTS, tiers.FULL_EXPORTS));
  assert.deepEqual(exported('midfold-memory.wasm'), list(tiers.MEMORY_EXPORTS));
  const tierOfFile = async (file) => tiers.tierOf((await WebAssembly.instantiate(compile(file), { env: { emscripten_notify_memory_growth() {} } })).exports);
  assert.deepEqual(await Promise.all(['midfold-estimate.wasm', 'midfold-lite.wasm', 'midfold.wasm', 'midfold-memory.wasm'].map(tierOfFile)), [0, 1, 2, -1]);
  // The memory tool's module is no core module: init() refuses it instead of failing at the first estimate.
  const core = await import('../../js/core/api.js?module=memory-refused');
  const { initTier, ESTIMATE } = core;
  await assert.rejects(initTier(ESTIMATE, readFileSync(path.join(ROOT, 'wasm', 'midfold-memory.wasm')), [async (source) => source]),
    (e) => e instanceof Error && e.code === 'invalid-option' && /no midfold core module/.test(e.message));
});

test('the lite module estimates, plans and serializes exactly as the full one, and the estimator estimates as both, in every format', async () => {
  const { readdirSync } = await import('node:fs');
  // Each module driven through the same js/core/api.js calls: it is loaded twice, once per module.
  const run = async (file) => {
    const core = await import(`../../js/core/api.js?module=${file}`);
    const bytes = async () => readFileSync(path.join(ROOT, 'wasm', file));
    await core.initTier(core.ESTIMATE, undefined, [bytes, bytes, bytes]);
    return core;
  };
  const full = await run('midfold.wasm'), lite = await run('midfold-lite.wasm'), estimator = await run('midfold-estimate.wasm');
  const { PROFILES } = await import('../../js/core/options.js');
  // Every conversation among the fixtures (Anthropic, OpenAI Chat and Responses, AI SDK, Chinese, thinking).
  const files = readdirSync(path.join(ROOT, 'tests/fixtures'), { recursive: true }).filter((f) => f.endsWith('.json'))
    .filter((f) => Array.isArray(JSON.parse(readFileSync(path.join(ROOT, 'tests/fixtures', f), 'utf8'))));
  assert.ok(files.length >= 20, `${files.length} conversations`);
  for (const f of files) {
    const messages = JSON.parse(readFileSync(path.join(ROOT, 'tests/fixtures', f), 'utf8'));
    for (const profile of PROFILES) {
      const expected = full.estimateTokens(messages, { profile });
      assert.equal(lite.estimateTokens(messages, { profile }), expected, `${f} (${profile})`);
      assert.equal(estimator.estimateTokens(messages, { profile }), expected, `${f} (${profile}, the estimator alone)`);
    }
    assert.deepEqual(estimator.estimateEach(messages, {}), full.estimateEach(messages, {}), f);
    assert.equal(estimator.detectFormat(messages), full.detectFormat(messages), f);
    assert.equal(lite.serialize(messages), full.serialize(messages), f);
    assert.deepEqual(lite.planMicroCompact(messages, { keepRecent: 1 }), full.planMicroCompact(messages, { keepRecent: 1 }), f);
    assert.deepEqual(lite.planCompaction(messages, { keepTailTokens: 200 }), full.planCompaction(messages, { keepTailTokens: 200 }), f);
  }
  assert.throws(() => lite.digest([]), /initFull/);
  // The estimator alone names what to await for each function it lacks.
  const missing = (fn, init) => (e) => e.code === 'not-initialized' && e.message.startsWith(`${fn}() needs`) && e.message.includes(`await ${init} first`);
  assert.throws(() => estimator.serialize([]), missing('serialize', 'init()'));
  assert.throws(() => estimator.microCompact([]), missing('microCompact', 'init()'));
  assert.throws(() => estimator.planMicroCompact([]), missing('planMicroCompact', 'init()'));
  assert.throws(() => estimator.planCompaction([]), missing('planCompaction', 'init()'));
  assert.throws(() => estimator.validate([]), missing('validate', 'initFull()'));
  assert.equal(estimator.estimateTokens('上下文压缩'), full.estimateTokens('上下文压缩'));
});

test('the memory tool loads its module at the first command; a failed initMemory can be retried', async () => {
  await assert.rejects(initMemory(new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9])),
    (e) => e instanceof MidfoldError && e.code === 'init-failed' && /memory-tool module/.test(e.message));
  await assert.rejects(initMemory(42), (e) => e instanceof MidfoldError && e.code === 'invalid-option' && /^initMemory\(source\)/.test(e.message));
  const store = memoryStore();
  const tool = createMemoryTool({ store });
  assert.deepEqual(await tool.execute({ command: 'create', path: '/memories/a.md', file_text: 'one\n' }),
    { content: 'File created successfully at: /memories/a.md', isError: false });
  assert.equal(await store.get('/memories/a.md'), 'one\n');
  await initMemory(); // loaded by the command above: returns at once
});

test('a page bundled from the main entry that never imports the memory tool carries none of it', async () => {
  // As a user's bundler emits it (esbuild, tree-shaking): the memory tool's code and its module's URL are gone.
  const r = await esbuild.build({
    stdin: { contents: "export { init, estimateTokens, microCompact, Compactor } from './js/hosts/browser.js';", resolveDir: ROOT, loader: 'js' },
    bundle: true, format: 'esm', platform: 'browser', minify: true, write: false, logLevel: 'silent',
  });
  const text = r.outputFiles[0].text;
  assert.match(text, /midfold-lite\.wasm/);
  assert.doesNotMatch(text, /midfold-memory|memory_20250818/);
});

test('a page bundles only the modules of what it imports: nothing of a module it does not use survives tree-shaking', async () => {
  // A top-level call, `new`, template or computed key is something a bundler keeps: each one that slipped in put its
  // module into every page (the estimate-only page carried compactor.js and apply.js, 0.3 KB of 9.6 KB).
  const modulesOf = async (names) => {
    const r = await esbuild.build({
      stdin: { contents: `export { ${names} } from './js/hosts/browser.js';`, resolveDir: ROOT, loader: 'js' },
      bundle: true, format: 'esm', platform: 'browser', minify: true, write: false, logLevel: 'silent', metafile: true,
    });
    const [output] = Object.values(r.metafile.outputs);
    return Object.entries(output.inputs).filter(([, v]) => v.bytesInOutput > 0).map(([f]) => f).filter((f) => f.startsWith('js/')).sort();
  };
  // (langchain.js: estimateTokens reads LangChain messages through their views)
  assert.deepEqual(await modulesOf('init, estimateTokens'),
    ['js/core/api.js', 'js/core/encode.js', 'js/core/errors.js', 'js/core/langchain.js', 'js/core/options.js', 'js/core/tier-loader.js', 'js/core/tiers.js', 'js/core/wasm.js', 'js/hosts/browser.js', 'js/sources/fetch.js']);
  const compacting = await modulesOf('init, estimateTokens, microCompact, Compactor');
  assert.ok(compacting.includes('js/compaction/compactor.js') && compacting.includes('js/core/estimate-cache.js'), compacting.join(', '));
  for (const f of compacting) assert.doesNotMatch(f, /^js\/(simulate|state|memory|pricing|integrations)\/|summarizers\.js$/, f);
});

test("a module's bytes from another realm (a vm context's ArrayBuffer or Uint8Array) instantiate like this realm's", async () => {
  const { instantiate } = await import('../../js/core/wasm.js');
  const vm = await import('node:vm');
  const bytes = readFileSync(path.join(ROOT, 'wasm', 'midfold.wasm'));
  const buffer = vm.runInNewContext(`new ArrayBuffer(${bytes.length})`);
  new Uint8Array(buffer).set(bytes);
  const view = vm.runInNewContext(`new Uint8Array(${bytes.length})`);
  view.set(bytes);
  for (const source of [buffer, view]) assert.equal(typeof (await instantiate(source)).exports.mfw_doc_estimate, 'function');
  await assert.rejects(instantiate({ byteLength: 8 }), (e) => e instanceof MidfoldError && e.code === 'invalid-option');
});
