// The two wasm modules and who loads them: midfold.wasm (estimate, serialize, micro-compact,
// validate, compact, digest) and midfold-memory.wasm (the memory tool), each importing only
// the no-op memory-growth hook; the memory tool's module is loaded by its first command,
// never by init(); and a browser bundle of the main entry fetches midfold.wasm only, the
// memory tool's loader sitting in a chunk of its own behind a dynamic import.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { createMemoryTool, initMemory, memoryStore, MidfoldError } from '../js/memory-node.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const compile = (file) => new WebAssembly.Module(readFileSync(path.join(ROOT, 'wasm', file)));
const names = (list) => list.map((e) => `${e.module ? `${e.module}.` : ''}${e.name}:${e.kind}`).sort();

test('each module imports only env.emscripten_notify_memory_growth and exports its own functions', () => {
  const main = compile('midfold.wasm'), memory = compile('midfold-memory.wasm');
  for (const m of [main, memory]) assert.deepEqual(names(WebAssembly.Module.imports(m)), ['env.emscripten_notify_memory_growth:function']);
  const exported = (m) => WebAssembly.Module.exports(m).map((e) => e.name).filter((n) => n.startsWith('mfw_')).sort();
  assert.deepEqual(exported(memory), ['mfw_alloc', 'mfw_free', 'mfw_memory_step']);
  const core = exported(main);
  assert.ok(!core.includes('mfw_memory_step'), 'the memory tool is not in midfold.wasm');
  for (const f of ['mfw_doc_estimate', 'mfw_doc_serialize', 'mfw_doc_micro', 'mfw_doc_compact', 'mfw_doc_digest', 'mfw_doc_validate'])
    assert.ok(core.includes(f), `midfold.wasm exports ${f}`);
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

/** esbuild's browser bundle of `contents`: {eager, lazy}, the texts of the chunks a page loads up front
 * (the entry and what it imports statically) and of those only a dynamic import loads. */
async function bundle(contents, splitting) {
  const outdir = path.join(ROOT, 'build/bundle-test');
  const r = await esbuild.build({
    stdin: { contents, resolveDir: ROOT, loader: 'js' }, bundle: true, splitting, format: 'esm', platform: 'browser',
    minify: true, write: false, outdir, logLevel: 'silent', metafile: true,
  });
  const text = new Map(r.outputFiles.map((f) => [path.relative(ROOT, f.path), f.text]));
  const outputs = r.metafile.outputs;
  const eager = new Set();
  const visit = (f) => {
    if (eager.has(f)) return;
    eager.add(f);
    for (const i of outputs[f].imports) if (i.kind === 'import-statement') visit(i.path);
  };
  visit(Object.keys(outputs).find((f) => outputs[f].entryPoint));
  return {
    eager: [...eager].map((f) => text.get(f)),
    lazy: Object.keys(outputs).filter((f) => !eager.has(f)).map((f) => text.get(f)),
  };
}

test('a browser bundle of the main entry fetches midfold.wasm; the memory module only from a lazy chunk', async () => {
  const all = await bundle("export * from './js/browser.js';", true);
  assert.ok(all.eager.some((t) => /midfold\.wasm/.test(t)));
  for (const t of all.eager) assert.doesNotMatch(t, /midfold-memory\.wasm/, 'no chunk loaded up front names the memory module');
  assert.equal(all.lazy.filter((t) => /midfold-memory\.wasm/.test(t)).length, 1, 'the chunk of the first memory command names it');
  // A page that estimates and compacts carries no memory-tool code at all.
  const page = await bundle("export { init, estimateTokens, microCompact, Compactor } from './js/browser.js';", false);
  assert.equal(page.eager.length, 1);
  assert.doesNotMatch(page.eager[0], /midfold-memory|memory_20250818/);
});
