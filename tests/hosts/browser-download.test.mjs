// What the browser entry (js/hosts/browser.js) fetches, and when: init() fetches midfold-lite.wasm
// and nothing else; creating a memory tool fetches nothing; its first command fetches
// midfold-memory.wasm, once; the digest summarizer fetches the full midfold.wasm, once. fetch is replaced by one that records each URL and answers from
// the repository's files (as a static server would, with application/wasm). Its own file: the
// memory tool's module is loaded once per process.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fetched = [];
globalThis.fetch = async (url) => {
  const u = new URL(String(url));
  fetched.push(path.relative(ROOT, fileURLToPath(u)));
  return new Response(await readFile(u), { headers: { 'content-type': 'application/wasm' } });
};
const midfold = await import('../../js/hosts/browser.js');

test('init() fetches midfold-lite.wasm only; the memory module is fetched at the first memory command', async () => {
  await midfold.init();
  assert.deepEqual(fetched, ['wasm/midfold-lite.wasm']);
  assert.ok(midfold.estimateTokens([{ role: 'user', content: 'Which port does the server use?' }]) > 0);
  const tool = midfold.createMemoryTool();
  assert.deepEqual(fetched, ['wasm/midfold-lite.wasm'], 'creating the tool fetches nothing');
  const results = await Promise.all([
    tool.execute({ command: 'create', path: '/memories/port.md', file_text: '8080\n' }),
    tool.execute({ command: 'view', path: '/memories' }),
  ]);
  assert.deepEqual(results[0], { content: 'File created successfully at: /memories/port.md', isError: false });
  assert.equal(results[1].isError, false);
  await tool.execute({ command: 'view', path: '/memories/port.md' });
  assert.deepEqual(fetched, ['wasm/midfold-lite.wasm', 'wasm/midfold-memory.wasm'], 'fetched once, at the first command');
});

test('the lite module has no validate() or digest(); digestSummarizer() fetches the full module, once', async () => {
  const conversation = [
    { role: 'user', content: 'Run the tests in packages/api and fix what fails.' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'bash', input: { command: 'npm test --prefix packages/api' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'FAIL src/auth.test.ts\n  ✕ rejects an expired token (12 ms)\nTests: 1 failed, 41 passed, 42 total' }] },
  ];
  for (const fn of ['validate', 'digest'])
    assert.throws(() => midfold[fn](conversation), (e) => e instanceof midfold.MidfoldError && e.code === 'not-initialized' && /initFull\(\)/.test(e.message));
  const before = midfold.estimateTokens(conversation);
  const text = await midfold.digestSummarizer()({ messages: conversation, maxTokens: 400, language: 'en', profile: 'safe', format: 'auto' });
  assert.match(text, /1 failed, 41 passed/);
  assert.deepEqual(fetched.slice(2), ['wasm/midfold.wasm']);
  assert.equal(midfold.validate(conversation).ok, true, 'validate() works once the full module is in use');
  assert.equal(midfold.estimateTokens(conversation), before, 'both modules estimate alike');
  await midfold.initFull();
  await midfold.init();
  assert.deepEqual(fetched.slice(2), ['wasm/midfold.wasm'], 'nothing is fetched again');
});
