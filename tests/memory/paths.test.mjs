// The memory tool refuses hostile paths before the store is called: every command, every
// path parameter, nothing read and nothing written.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
// midfold/memory's Node entry: the tool loads its own wasm module at its first command, no init().
import { createMemoryTool, memoryStore } from '../../js/memory/node.js';
import { lookalikeRanges, tableSource } from '../../tools/unicode/memory-lookalikes.mjs';

const fixture = JSON.parse(readFileSync(new URL('../fixtures/memory/hostile-paths.json', import.meta.url), 'utf8'));
const HOSTILE = [
  ...fixture.paths,
  { path: '/memories/' + 'a'.repeat(256), why: 'a name of 256 bytes' },
  { path: '/memories/' + '长'.repeat(86), why: 'a name of 258 bytes in 86 CJK characters' },
  { path: '/memories' + ('/' + 'b'.repeat(200)).repeat(5) + '/' + 'c'.repeat(10), why: 'a path of 1025 bytes' },
  { path: '/memories' + '/d'.repeat(33), why: '33 levels deep' },
  { path: '/memories/' + 'x/'.repeat(50000) + 'y', why: 'a 100 KB path' },
];

/** A store that records every call made to it. */
function spyStore(seed) {
  const inner = memoryStore(seed);
  const calls = [];
  const store = {};
  for (const m of ['get', 'put', 'delete', 'list', 'rename'])
    store[m] = (...args) => { calls.push([m, args[0]]); return inner[m](...args); };
  return { store, calls, inner };
}

async function snapshot(store) {
  const out = {};
  for (const e of await store.list('')) out[e.path] = await store.get(e.path);
  return out;
}

const SEED = { '/memories/notes.md': 'keep me\n', '/memories/dir/a.md': 'a\n' };

/** Each command with the hostile path in each of its path parameters. */
const uses = (p) => [
  { command: 'view', path: p },
  { command: 'view', path: p, view_range: [1, -1] },
  { command: 'create', path: p, file_text: 'pwned' },
  { command: 'str_replace', path: p, old_str: 'keep', new_str: 'lose' },
  { command: 'insert', path: p, insert_line: 0, insert_text: 'pwned' },
  { command: 'delete', path: p },
  { command: 'rename', old_path: p, new_path: '/memories/moved.md' },
  { command: 'rename', old_path: '/memories/notes.md', new_path: p },
];

test('the attack list holds at least 50 hostile paths, all different', () => {
  assert.ok(HOSTILE.length >= 50, `${HOSTILE.length} paths`);
  assert.equal(new Set(HOSTILE.map((h) => h.path)).size, HOSTILE.length);
});

test('every hostile path is refused by every command before any store call', async () => {
  const { store, calls, inner } = spyStore(SEED);
  const tool = createMemoryTool({ store });
  const before = await snapshot(inner);
  for (const { path, why } of HOSTILE) {
    for (const input of uses(path)) {
      const r = await tool.execute(input);
      const label = `${input.command} ${JSON.stringify(path).slice(0, 80)} (${why})`;
      assert.equal(r.isError, true, label);
      assert.match(r.content, /^Error: (The path .* is not allowed: |Parameter `(path|old_path|new_path)` is empty)/s, label);
      assert.deepEqual(calls, [], `${label}: the store was called`);
    }
  }
  assert.deepEqual(await snapshot(inner), before);
});

test('the refusal names the reason', async () => {
  const tool = createMemoryTool();
  const reason = async (p) => (await tool.execute({ command: 'view', path: p })).content;
  assert.equal(await reason('/memories/../etc/passwd'),
    'Error: The path /memories/../etc/passwd is not allowed: it has a name made only of dots, like . or ... ' +
    'Memory paths look like /memories/notes.md.');
  assert.match(await reason('/etc/passwd'), /: every memory path starts with \/memories\./);
  assert.match(await reason('/memories/%2e%2e/x'), /: it has a percent escape, like %2e or %2f\./);
  assert.match(await reason('/memories/%252e%252e/x'), /: it has a percent escape/);
  assert.match(await reason('/memories/a\\b'), /: it has a backslash\./);
  assert.match(await reason('/memories//a'), /: it has an empty name \(two slashes in a row\)\./);
  assert.match(await reason('/memories/\uff0e\uff0e/x'), /: it has a character that looks like \. \/ \\ or %\./);
  assert.match(await reason('/memories/.. '), /: a name in it begins or ends with a space, or ends with a dot\./);
  assert.match(await reason('/memories/\ud800'), /: it is not valid UTF-8 text\./);
  assert.match(await reason('/memories/' + 'a'.repeat(256)), /: a name in it is longer than 255 bytes\./);
  assert.match(await reason('/memories' + '/d'.repeat(33)), /: it is nested more than 32 levels deep\./);
  assert.equal(await reason(''), 'Error: Parameter `path` is empty. Memory paths look like /memories/notes.md.');
});

test('every character whose NFKC form holds . / \\ or % is refused in a name (the ratio sign, account-of, ⒈–⒛, vertical forms)', async () => {
  const { store, calls } = spyStore(SEED);
  const tool = createMemoryTool({ store });
  const folding = lookalikeRanges().flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, k) => String.fromCodePoint(a + k)));
  assert.ok(folding.length >= 40, `${folding.length} characters`);
  for (const ch of ['\ufe30', '\ufe19', '\u2100', '\u2101', '\u2105', '\u2106', '\u2488', '\u249b'])
    assert.ok(folding.includes(ch), `U+${ch.codePointAt(0).toString(16)} is in the table`);
  for (const ch of folding) {
    const folded = ch.normalize('NFKC');
    // As an attacker spells a climb out of the root with it, and as a plain file name that holds it.
    for (const path of [`/memories/${ch}/${ch}/etc/passwd`, `/memories/notes${ch}md`, `/memories/${ch}`]) {
      const r = await tool.execute({ command: 'create', path, file_text: 'root:x:0:0::/root:/bin/sh\n' });
      assert.equal(r.isError, true, `${path} (NFKC ${JSON.stringify(folded)})`);
      assert.match(r.content, /: it has a character that looks like \. \/ \\ or %\./, path);
    }
  }
  assert.deepEqual(calls, [], 'the store was never called');
});

test('the committed lookalike table is what tools/unicode/memory-lookalikes.mjs writes with this Node\'s NFKC', (t) => {
  const committed = readFileSync(new URL('../../src/memory_lookalike_table.c', import.meta.url), 'utf8');
  const unicode = /\(Unicode ([\d.]+),/.exec(committed);
  assert.ok(unicode, 'the header names the Unicode version it was generated from');
  if (unicode[1] !== process.versions.unicode) {
    t.skip(`generated from Unicode ${unicode[1]}; this Node has ${process.versions.unicode}: regenerate with the pinned Node`);
    return;
  }
  assert.equal(committed.replace(/Node v[\d.]+/, 'Node'), tableSource().replace(/Node v[\d.]+/, 'Node'));
});

test('control characters are escaped in the error text, and long paths cut', async () => {
  const tool = createMemoryTool();
  const r = await tool.execute({ command: 'view', path: '/memories/a\u0000b\u001b[2J\u202e' });
  assert.equal(r.content, 'Error: The path /memories/a\\u0000b\\u001b[2J\\u202e is not allowed: it has a control or ' +
    'invisible character. Memory paths look like /memories/notes.md.');
  const long = await tool.execute({ command: 'view', path: '/memories/' + 'x/'.repeat(50000) + 'y' });
  assert.ok(long.content.length < 400, 'the 100 KB path is not echoed whole');
  assert.match(long.content, /\.\.\. is not allowed: it is longer than 1024 bytes\./);
});

test('paths at the limits are accepted', async () => {
  const tool = createMemoryTool();
  const name255 = '/memories/' + 'n'.repeat(255);
  const cjk255 = '/memories/' + '长'.repeat(85); // 255 bytes
  const deep32 = '/memories' + '/d'.repeat(31) + '/f.md';
  const long1024 = '/memories' + ('/' + 'b'.repeat(200)).repeat(5) + '/' + 'c'.repeat(9); // 9 + 1005 + 10 = 1024
  assert.equal(Buffer.byteLength(long1024), 1024);
  for (const p of [name255, cjk255, deep32, long1024]) {
    const r = await tool.execute({ command: 'create', path: p, file_text: 'ok' });
    assert.equal(r.content, `File created successfully at: ${p}`);
  }
});

test('names that only look unusual are allowed: hidden files, inner dots, a lone percent sign, CJK punctuation', async () => {
  const tool = createMemoryTool();
  for (const p of ['/memories/.profile', '/memories/v1.2..3.md', '/memories/50% done.md', '/memories/笔记。第一版',
    '/memories/café ☕.md', '/memories/a-b_c~d+e=f,g;h@i!j#k$l&m(n)o[p]q{r}s\'t`u^v'])
    assert.equal((await tool.execute({ command: 'create', path: p, file_text: 'x' })).isError, false, p);
});

test('paths that are not strings are refused before any store call', async () => {
  const { store, calls } = spyStore(SEED);
  const tool = createMemoryTool({ store });
  for (const bad of [42, true, ['/memories/a'], { toString: () => '/memories/a' }]) {
    const r = await tool.execute({ command: 'view', path: bad });
    assert.deepEqual(r, { content: 'Error: Parameter `path` must be a string.', isError: true });
  }
  assert.deepEqual(await tool.execute({ command: 'delete', path: null }),
    { content: 'Error: Parameter `path` is required for command delete.', isError: true });
  assert.deepEqual(calls, []);
});

test('a store key another writer planted under a directory is never listed, followed or deleted', async () => {
  const inner = memoryStore({ '/memories/d/ok.md': 'ok', '/memories/d/../escape': 'planted', '/memories/d/a\u0000b': 'nul' });
  const tool = createMemoryTool({ store: inner });
  const view = await tool.execute({ command: 'view', path: '/memories/d' });
  assert.equal(view.content, 'Here\'re the files and directories up to 2 levels deep in /memories/d, excluding hidden ' +
    'items and node_modules:\n2B\t/memories/d\n2B\t/memories/d/ok.md');
  assert.equal((await tool.execute({ command: 'delete', path: '/memories/d' })).content, 'Successfully deleted /memories/d');
  assert.equal(await inner.get('/memories/d/../escape'), 'planted');
  assert.equal(await inner.get('/memories/d/a\u0000b'), 'nul');
  assert.equal(await inner.get('/memories/d/ok.md'), null);
});
