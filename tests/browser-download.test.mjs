// What the browser entry (js/browser.js) fetches, and when: init() fetches midfold.wasm and
// nothing else; creating a memory tool fetches nothing; its first command fetches
// midfold-memory.wasm, once. fetch is replaced by one that records each URL and answers from
// the repository's files (as a static server would, with application/wasm). Its own file: the
// memory tool's module is loaded once per process.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fetched = [];
globalThis.fetch = async (url) => {
  const u = new URL(String(url));
  fetched.push(path.relative(ROOT, fileURLToPath(u)));
  return new Response(await readFile(u), { headers: { 'content-type': 'application/wasm' } });
};
const midfold = await import('../js/browser.js');

test('init() fetches midfold.wasm only; the memory module is fetched at the first memory command', async () => {
  await midfold.init();
  assert.deepEqual(fetched, ['wasm/midfold.wasm']);
  assert.ok(midfold.estimateTokens([{ role: 'user', content: 'Which port does the server use?' }]) > 0);
  const tool = midfold.createMemoryTool();
  assert.deepEqual(fetched, ['wasm/midfold.wasm'], 'creating the tool fetches nothing');
  const results = await Promise.all([
    tool.execute({ command: 'create', path: '/memories/port.md', file_text: '8080\n' }),
    tool.execute({ command: 'view', path: '/memories' }),
  ]);
  assert.deepEqual(results[0], { content: 'File created successfully at: /memories/port.md', isError: false });
  assert.equal(results[1].isError, false);
  await tool.execute({ command: 'view', path: '/memories/port.md' });
  assert.deepEqual(fetched, ['wasm/midfold.wasm', 'wasm/midfold-memory.wasm'], 'fetched once, at the first command');
});
