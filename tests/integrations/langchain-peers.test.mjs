// langchain and @langchain/core are optional peers of midfold/langchain alone: no other entry imports them, and
// package.json says so.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

function sources(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : /\.(m?js|d\.ts)$/.test(f) ? [p] : [];
  });
}

test('only js/integrations/langchain.js (and its .d.ts) import langchain or @langchain/*', () => {
  const importers = sources(path.join(ROOT, 'js'))
    .filter((f) => /from ['"](langchain|@langchain\/[^'"]+)['"]|import\(['"](langchain|@langchain\/)/.test(readFileSync(f, 'utf8')))
    .map((f) => path.relative(ROOT, f)).sort();
  assert.deepEqual(importers, ['js/integrations/langchain.d.ts', 'js/integrations/langchain.js']);
});

test('package.json: ./langchain is an entry with its types first; langchain and @langchain/core are optional peers', () => {
  assert.deepEqual(Object.keys(pkg.exports['./langchain']), ['types', 'default']);
  assert.equal(pkg.exports['./langchain'].default, './js/integrations/langchain.js');
  for (const name of ['langchain', '@langchain/core']) {
    assert.ok(pkg.peerDependencies[name], `${name} is a peer`);
    assert.equal(pkg.peerDependenciesMeta[name].optional, true);
    assert.equal(pkg.dependencies?.[name], undefined);
  }
});

test('the main entry loads without LangChain being resolvable from it (it never asks for it)', async () => {
  const { init, detectFormat } = await import('../../js/hosts/node.js');
  await init();
  // The dict form needs no LangChain class: the core reads it as it is.
  assert.equal(detectFormat([{ type: 'human', content: '你好' }, { type: 'ai', content: 'hi' }]), 'langchain');
});
