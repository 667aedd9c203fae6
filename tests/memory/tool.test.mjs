// The memory tool's commands through the JS wrapper: each result text, Unicode names,
// the size caps, and commands running concurrently.
import test from 'node:test';
import assert from 'node:assert/strict';
// midfold/memory's Node entry: the tool loads its own wasm module at its first command, no init().
import { createMemoryTool, memoryStore, kvStore, localStorageStore, MidfoldError } from '../../js/memory/node.js';

const HEADER = (p) => `Here're the files and directories up to 2 levels deep in ${p}, excluding hidden items and node_modules:\n`;
const CONTENT = (p) => `Here's the content of ${p} with line numbers:\n`;
const ok = (content) => ({ content, isError: false });
const err = (content) => ({ content, isError: true });

async function files(store) {
  const out = {};
  for (const e of await store.list('/memories/')) out[typeof e === 'string' ? e : e.path] = await store.get(typeof e === 'string' ? e : e.path);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

test.describe('definitions', () => {
  test('definition is the Anthropic memory tool entry', () => {
    assert.deepEqual(createMemoryTool().definition, { type: 'memory_20250818', name: 'memory' });
  });

  test('functionDefinition is an OpenAI-style function tool with every command and parameter', () => {
    const f = createMemoryTool().functionDefinition;
    assert.equal(f.type, 'function');
    assert.equal(f.function.name, 'memory');
    assert.deepEqual(f.function.parameters.properties.command.enum, ['view', 'create', 'str_replace', 'insert', 'delete', 'rename']);
    assert.deepEqual(Object.keys(f.function.parameters.properties).sort(),
      ['command', 'file_text', 'insert_line', 'insert_text', 'new_path', 'new_str', 'old_path', 'old_str', 'path', 'view_range']);
    assert.deepEqual(f.function.parameters.required, ['command']);
    assert.deepEqual(JSON.parse(JSON.stringify(f)), f, 'plain JSON');
  });

  test('each tool gets its own definition objects', () => {
    const a = createMemoryTool(), b = createMemoryTool();
    a.definition.cache_control = { type: 'ephemeral' };
    assert.equal(b.definition.cache_control, undefined);
  });

  test('bad options throw at creation, with a code', () => {
    for (const o of [{ maxFileBytes: 0 }, { maxFiles: 1.5 }, { maxViewBytes: 100 }, { store: {} }, { store: { get() {} } }])
      assert.throws(() => createMemoryTool(o), (e) => e instanceof MidfoldError && e.code === 'invalid-option');
    assert.throws(() => createMemoryTool(null), MidfoldError);
  });

  test('a misspelt limit is an error naming it, not a default left in place', () => {
    assert.throws(() => createMemoryTool({ maxFileSize: 4096 }),
      (e) => e.code === 'invalid-option' && /unknown option "maxFileSize"; known: store, maxFileBytes, maxFiles, maxViewBytes/.test(e.message));
  });
});

test.describe('command results, exactly as Anthropic words them', () => {
  const store = memoryStore();
  const tool = createMemoryTool({ store });
  const run = (input) => tool.execute(input);

  test('view of an empty memory directory', async () => {
    assert.deepEqual(await run({ command: 'view', path: '/memories' }), ok(HEADER('/memories') + '0B\t/memories'));
  });

  test('create', async () => {
    assert.deepEqual(await run({ command: 'create', path: '/memories/preferences.md', file_text: '# Preferences\n- concise answers\n- metric units\n' }),
      ok('File created successfully at: /memories/preferences.md'));
    assert.deepEqual(await run({ command: 'create', path: '/memories/preferences.md', file_text: 'again' }),
      err('Error: File /memories/preferences.md already exists'));
    assert.equal(await store.get('/memories/preferences.md'), '# Preferences\n- concise answers\n- metric units\n');
  });

  test('view of a file, whole and by view_range', async () => {
    assert.deepEqual(await run({ command: 'view', path: '/memories/preferences.md' }),
      ok(CONTENT('/memories/preferences.md') + '     1\t# Preferences\n     2\t- concise answers\n     3\t- metric units'));
    assert.deepEqual(await run({ command: 'view', path: '/memories/preferences.md', view_range: [2, 3] }),
      ok(CONTENT('/memories/preferences.md') + '     2\t- concise answers\n     3\t- metric units'));
    assert.deepEqual(await run({ command: 'view', path: '/memories/preferences.md', view_range: [3, -1] }),
      ok(CONTENT('/memories/preferences.md') + '     3\t- metric units'));
    assert.deepEqual(await run({ command: 'view', path: '/memories/preferences.md', view_range: [0, 2] }),
      err('Error: Invalid `view_range` parameter: [0, 2]. Its first element `0` should be within the range of lines of the file: [1, 3]'));
    assert.deepEqual(await run({ command: 'view', path: '/memories/preferences.md', view_range: 'all' }),
      err('Error: Invalid `view_range` parameter: all. It should be a list of two integers [start_line, end_line]; end_line -1 reads to the end.'));
  });

  test('view of a missing path', async () => {
    assert.deepEqual(await run({ command: 'view', path: '/memories/missing.md' }),
      err('The path /memories/missing.md does not exist. Please provide a valid path.'));
  });

  test('str_replace: edited, not found, not unique', async () => {
    assert.deepEqual(await run({ command: 'str_replace', path: '/memories/preferences.md', old_str: 'metric units', new_str: 'metric units (km, °C)' }),
      ok('The memory file has been edited.\n     1\t# Preferences\n     2\t- concise answers\n     3\t- metric units (km, °C)'));
    assert.deepEqual(await run({ command: 'str_replace', path: '/memories/preferences.md', old_str: 'imperial', new_str: 'x' }),
      err('No replacement was performed, old_str `imperial` did not appear verbatim in /memories/preferences.md.'));
    assert.deepEqual(await run({ command: 'str_replace', path: '/memories/preferences.md', old_str: '- ', new_str: '* ' }),
      err('No replacement was performed. Multiple occurrences of old_str `- ` in lines: [2, 3]. Please ensure it is unique'));
    assert.deepEqual(await run({ command: 'str_replace', path: '/memories/nope.md', old_str: 'a', new_str: 'b' }),
      err('The path /memories/nope.md does not exist. Please provide a valid path.'));
  });

  test('insert: edited, and a line out of range', async () => {
    assert.deepEqual(await run({ command: 'insert', path: '/memories/preferences.md', insert_line: 1, insert_text: '- replies in English or 中文' }),
      ok('The file /memories/preferences.md has been edited.'));
    assert.equal(await store.get('/memories/preferences.md'),
      '# Preferences\n- replies in English or 中文\n- concise answers\n- metric units (km, °C)\n');
    assert.deepEqual(await run({ command: 'insert', path: '/memories/preferences.md', insert_line: 9, insert_text: 'x' }),
      err('Error: Invalid `insert_line` parameter: 9. It should be within the range of lines of the file: [0, 4]'));
  });

  test('view of a directory: two levels, sizes, no hidden items', async () => {
    await run({ command: 'create', path: '/memories/projects/midfold/progress.md', file_text: 'memory tool: done\n' });
    await run({ command: 'create', path: '/memories/projects/midfold/notes/deep.md', file_text: 'three levels down' });
    await run({ command: 'create', path: '/memories/.index', file_text: 'hidden' });
    assert.deepEqual(await run({ command: 'view', path: '/memories' }), ok(HEADER('/memories') +
      '123B\t/memories\n' +
      '88B\t/memories/preferences.md\n' +
      '35B\t/memories/projects\n' +
      '35B\t/memories/projects/midfold'));
    assert.deepEqual(await run({ command: 'view', path: '/memories/projects/midfold/' }), ok(HEADER('/memories/projects/midfold') +
      '35B\t/memories/projects/midfold\n' +
      '17B\t/memories/projects/midfold/notes\n' +
      '17B\t/memories/projects/midfold/notes/deep.md\n' +
      '18B\t/memories/projects/midfold/progress.md'));
  });

  test('rename: done, destination taken, root', async () => {
    assert.deepEqual(await run({ command: 'rename', old_path: '/memories/projects/midfold', new_path: '/memories/archive/midfold' }),
      ok('Successfully renamed /memories/projects/midfold to /memories/archive/midfold'));
    assert.equal(await store.get('/memories/archive/midfold/notes/deep.md'), 'three levels down');
    assert.equal(await store.get('/memories/projects/midfold/progress.md'), null);
    assert.deepEqual(await run({ command: 'rename', old_path: '/memories/.index', new_path: '/memories/preferences.md' }),
      err('Error: The destination /memories/preferences.md already exists'));
    assert.deepEqual(await run({ command: 'rename', old_path: '/memories', new_path: '/memories/all' }),
      err('Error: The /memories directory itself cannot be renamed'));
    assert.deepEqual(await run({ command: 'rename', old_path: '/memories/none', new_path: '/memories/x' }),
      err('The path /memories/none does not exist. Please provide a valid path.'));
  });

  test('delete: a file, a directory recursively, never the root', async () => {
    assert.deepEqual(await run({ command: 'delete', path: '/memories/.index' }), ok('Successfully deleted /memories/.index'));
    assert.deepEqual(await run({ command: 'delete', path: '/memories/archive' }), ok('Successfully deleted /memories/archive'));
    assert.deepEqual(await files(store), { '/memories/preferences.md': '# Preferences\n- replies in English or 中文\n- concise answers\n- metric units (km, °C)\n' });
    assert.deepEqual(await run({ command: 'delete', path: '/memories' }), err('Error: The /memories directory itself cannot be deleted'));
    assert.deepEqual(await run({ command: 'delete', path: '/memories/archive' }),
      err('The path /memories/archive does not exist. Please provide a valid path.'));
  });

  test('input problems are error results, never exceptions', async () => {
    assert.deepEqual(await run({ command: 'format', path: '/memories' }),
      err('Error: Unknown command `format`. The memory tool\'s commands are view, create, str_replace, insert, delete and rename.'));
    assert.deepEqual(await run({}), err('Error: Parameter `command` is required: one of view, create, str_replace, insert, delete, rename.'));
    assert.deepEqual(await run('not json'), err('Error: The tool input is not valid JSON.'));
    assert.deepEqual(await run(null), err('Error: The tool input must be an object with a `command` and its parameters.'));
    assert.deepEqual(await run(undefined), err('Error: The tool input must be an object with a `command` and its parameters.'));
    const cyclic = { command: 'view' };
    cyclic.self = cyclic;
    assert.equal((await run(cyclic)).isError, true);
    assert.deepEqual(await run({ command: 'create', path: '/memories/x.md' }), err('Error: Parameter `file_text` is required for command create.'));
  });

  test('the input may be the tool call\'s JSON text (OpenAI arguments)', async () => {
    assert.deepEqual(await run('{"command":"view","path":"/memories/preferences.md","view_range":[1,1]}'),
      ok(CONTENT('/memories/preferences.md') + '     1\t# Preferences'));
  });

  test('toolResult answers an Anthropic tool_use block', async () => {
    assert.deepEqual(await tool.toolResult({ type: 'tool_use', id: 'toolu_1', name: 'memory', input: { command: 'view', path: '/memories/x' } }),
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'The path /memories/x does not exist. Please provide a valid path.', is_error: true });
    assert.deepEqual(await tool.toolResult({ type: 'tool_use', id: 'toolu_2', name: 'memory', input: { command: 'delete', path: '/memories/preferences.md' } }),
      { type: 'tool_result', tool_use_id: 'toolu_2', content: 'Successfully deleted /memories/preferences.md' });
  });
});

test.describe('Unicode file names', () => {
  test('Chinese paths are created, listed, edited, renamed and deleted, stored byte for byte', async () => {
    const store = memoryStore();
    const tool = createMemoryTool({ store });
    const p = '/memories/用户资料/偏好设置.md';
    assert.deepEqual(await tool.execute({ command: 'create', path: p, file_text: '回答要简洁。\n单位用公制。\n' }),
      ok(`File created successfully at: ${p}`));
    assert.deepEqual(await tool.execute({ command: 'view', path: '/memories' }),
      ok(HEADER('/memories') + '38B\t/memories\n38B\t/memories/用户资料\n38B\t/memories/用户资料/偏好设置.md'));
    assert.deepEqual(await tool.execute({ command: 'str_replace', path: p, old_str: '公制', new_str: '英制' }),
      ok('The memory file has been edited.\n     1\t回答要简洁。\n     2\t单位用英制。'));
    assert.deepEqual(await tool.execute({ command: 'view', path: p, view_range: [2, 2] }), ok(CONTENT(p) + '     2\t单位用英制。'));
    assert.deepEqual(await tool.execute({ command: 'rename', old_path: '/memories/用户资料', new_path: '/memories/ユーザー' }),
      ok('Successfully renamed /memories/用户资料 to /memories/ユーザー'));
    assert.deepEqual(Object.keys(await files(store)), ['/memories/ユーザー/偏好设置.md']);
    assert.deepEqual(await tool.execute({ command: 'delete', path: '/memories/ユーザー/偏好设置.md' }),
      ok('Successfully deleted /memories/ユーザー/偏好设置.md'));
  });

  test('names are not normalized: NFC and NFD spellings are two files', async () => {
    const store = memoryStore();
    const tool = createMemoryTool({ store });
    const nfc = '/memories/caf\u00e9.md', nfd = '/memories/cafe\u0301.md';
    assert.equal((await tool.execute({ command: 'create', path: nfc, file_text: 'nfc' })).isError, false);
    assert.equal((await tool.execute({ command: 'create', path: nfd, file_text: 'nfd' })).isError, false);
    assert.equal(await store.get(nfc), 'nfc');
    assert.equal(await store.get(nfd), 'nfd');
  });

  test('emoji and astral characters in names and text', async () => {
    const tool = createMemoryTool();
    const p = '/memories/🧠 notes/𝒳.md';
    await tool.execute({ command: 'create', path: p, file_text: 'first 🎉\nsecond 𠀋\n' });
    assert.deepEqual(await tool.execute({ command: 'view', path: p }), ok(CONTENT(p) + '     1\tfirst 🎉\n     2\tsecond 𠀋'));
    assert.deepEqual(await tool.execute({ command: 'view', path: '/memories/🧠 notes' }),
      ok(HEADER('/memories/🧠 notes') + '23B\t/memories/🧠 notes\n23B\t/memories/🧠 notes/𝒳.md'));
  });
});

test.describe('size caps', () => {
  test('a file of exactly maxFileBytes is stored; one byte more is refused and nothing is written', async () => {
    const store = memoryStore();
    const tool = createMemoryTool({ store });
    const mib = 1 << 20;
    const exact = 'a'.repeat(mib - 3) + '中'; // 1 MiB in UTF-8
    assert.deepEqual(await tool.execute({ command: 'create', path: '/memories/at-cap.txt', file_text: exact }),
      ok('File created successfully at: /memories/at-cap.txt'));
    assert.equal(await store.get('/memories/at-cap.txt'), exact);
    assert.deepEqual(await tool.execute({ command: 'create', path: '/memories/over-cap.txt', file_text: exact + 'b' }),
      err('Error: The file text would make /memories/over-cap.txt 1048577 bytes, over the limit of 1048576 bytes for one memory file.'));
    assert.deepEqual(await tool.execute({ command: 'str_replace', path: '/memories/at-cap.txt', old_str: '中', new_str: '中!' }),
      err('Error: The edit would make /memories/at-cap.txt 1048577 bytes, over the limit of 1048576 bytes for one memory file.'));
    assert.deepEqual(await tool.execute({ command: 'insert', path: '/memories/at-cap.txt', insert_line: 0, insert_text: '' }),
      err('Error: The insert would make /memories/at-cap.txt 1048577 bytes, over the limit of 1048576 bytes for one memory file.'));
    assert.deepEqual(Object.keys(await files(store)), ['/memories/at-cap.txt']);
    assert.equal(await store.get('/memories/at-cap.txt'), exact);
  });

  test('maxFileBytes counts UTF-8 bytes', async () => {
    const tool = createMemoryTool({ maxFileBytes: 30 });
    assert.equal((await tool.execute({ command: 'create', path: '/memories/ten.md', file_text: '十个汉字正好三十字节' })).isError, false);
    assert.equal((await tool.execute({ command: 'create', path: '/memories/eleven.md', file_text: '十一个汉字超过三十字节' })).isError, true);
  });

  test('a big file is viewed a page at a time within maxViewBytes', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}: ${'x'.repeat(40)}`);
    const store = memoryStore({ '/memories/log.md': lines.join('\n') + '\n' });
    const tool = createMemoryTool({ store, maxViewBytes: 4096 });
    const first = await tool.execute({ command: 'view', path: '/memories/log.md' });
    assert.equal(first.isError, false);
    const shown = first.content.split('\n').filter((l) => /^ {2,}\d+\t/.test(l));
    assert.ok(shown.length > 10 && shown.length < 100);
    const last = shown.length;
    assert.ok(first.content.endsWith(`\n[Output truncated at the view limit of 4096 bytes: lines 1-${last} of 3000 shown. Use view_range [${last + 1}, 3000] to read on.]`));
    // page through the whole file with the suggested ranges
    let seen = last, pages = 1;
    while (seen < 3000) {
      const r = await tool.execute({ command: 'view', path: '/memories/log.md', view_range: [seen + 1, -1] });
      const nums = r.content.split('\n').filter((l) => /^ {2,}\d+\t/.test(l)).map((l) => Number(l.slice(0, 6)));
      assert.equal(nums[0], seen + 1);
      seen = nums.at(-1);
      pages++;
    }
    assert.equal(seen, 3000);
    assert.ok(pages > 20);
  });

  test('maxFiles caps how many files create may make', async () => {
    const tool = createMemoryTool({ maxFiles: 3 });
    for (const n of [1, 2, 3]) assert.equal((await tool.execute({ command: 'create', path: `/memories/${n}.md`, file_text: 'x' })).isError, false);
    assert.deepEqual(await tool.execute({ command: 'create', path: '/memories/4.md', file_text: 'x' }),
      err('Error: The memory directory already holds 3 files, the most it may hold. Delete or merge files before creating new ones.'));
    await tool.execute({ command: 'delete', path: '/memories/1.md' });
    assert.equal((await tool.execute({ command: 'create', path: '/memories/4.md', file_text: 'x' })).isError, false);
  });
});

/** A store whose calls take a random few milliseconds, so interleavings happen. */
function slowStore(seed, log) {
  const inner = memoryStore(seed);
  const wait = () => new Promise((r) => setTimeout(r, Math.floor(Math.random() * 4)));
  const store = {};
  for (const m of ['get', 'put', 'delete', 'list']) store[m] = async (...a) => { log?.push(`${m} ${a[0]}`); await wait(); return inner[m](...a); };
  return store;
}

test.describe('concurrent commands', () => {
  test('twenty inserts on one file at once: none is lost, they apply in call order', async () => {
    const store = slowStore({ '/memories/log.md': '' });
    const tool = createMemoryTool({ store });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      tool.execute({ command: 'insert', path: '/memories/log.md', insert_line: i, insert_text: `entry ${i}` })));
    assert.ok(results.every((r) => !r.isError));
    assert.equal(await store.get('/memories/log.md'), Array.from({ length: 20 }, (_, i) => `entry ${i}\n`).join(''));
  });

  test('five creates of one path at once: exactly the first succeeds', async () => {
    const store = slowStore();
    const tool = createMemoryTool({ store });
    const results = await Promise.all([0, 1, 2, 3, 4].map((i) =>
      tool.execute({ command: 'create', path: '/memories/once.md', file_text: `writer ${i}` })));
    assert.deepEqual(results.map((r) => r.isError), [false, true, true, true, true]);
    assert.equal(await store.get('/memories/once.md'), 'writer 0');
  });

  test('a rename and edits of the old and new paths run in call order', async () => {
    const store = slowStore({ '/memories/a.md': 'v1\n' });
    const tool = createMemoryTool({ store });
    const [edit1, move, edit2, edit3] = await Promise.all([
      tool.execute({ command: 'str_replace', path: '/memories/a.md', old_str: 'v1', new_str: 'v2' }),
      tool.execute({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' }),
      tool.execute({ command: 'str_replace', path: '/memories/a.md', old_str: 'v2', new_str: 'v3' }),
      tool.execute({ command: 'str_replace', path: '/memories/b.md', old_str: 'v2', new_str: 'v3' }),
    ]);
    assert.equal(edit1.isError, false);
    assert.equal(move.isError, false);
    assert.deepEqual(edit2, err('The path /memories/a.md does not exist. Please provide a valid path.'));
    assert.equal(edit3.isError, false);
    assert.deepEqual(await files(store), { '/memories/b.md': 'v3\n' });
  });

  test('a directory delete waits for a create inside it that was called first, and the other way round', async () => {
    const store = slowStore({ '/memories/d/old.md': 'old' });
    const tool = createMemoryTool({ store });
    const [created, deleted, after] = await Promise.all([
      tool.execute({ command: 'create', path: '/memories/d/new.md', file_text: 'new' }),
      tool.execute({ command: 'delete', path: '/memories/d' }),
      tool.execute({ command: 'create', path: '/memories/d/late.md', file_text: 'late' }),
    ]);
    assert.equal(created.isError, false);
    assert.equal(deleted.isError, false);
    assert.equal(after.isError, false);
    assert.deepEqual(await files(store), { '/memories/d/late.md': 'late' });
  });

  test('concurrent creates of different files never pass maxFiles together', async () => {
    const store = slowStore();
    const tool = createMemoryTool({ store, maxFiles: 5 });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) =>
      tool.execute({ command: 'create', path: `/memories/f${i}.md`, file_text: 'x' })));
    assert.equal(results.filter((r) => !r.isError).length, 5);
    assert.equal(Object.keys(await files(store)).length, 5);
  });

  test('commands on unrelated paths do not wait for each other', async () => {
    let unblock;
    const gate = new Promise((r) => { unblock = r; });
    const inner = memoryStore({ '/memories/slow.md': 'slow', '/memories/fast.md': 'fast' });
    const store = { ...inner, async get(p) { if (p === '/memories/slow.md') await gate; return inner.get(p); } };
    const tool = createMemoryTool({ store });
    const slow = tool.execute({ command: 'view', path: '/memories/slow.md' });
    const fast = await tool.execute({ command: 'view', path: '/memories/fast.md' });
    assert.equal(fast.content, CONTENT('/memories/fast.md') + '     1\tfast');
    unblock();
    assert.equal((await slow).content, CONTENT('/memories/slow.md') + '     1\tslow');
  });
});

test.describe('two tools on one store (a chat route and a background agent, or a tool made per request)', () => {
  /** A store whose reads and writes each take a few turns of the event loop, as a network store's do. */
  const networkStore = (inner) => {
    const later = () => new Promise((r) => setImmediate(r));
    return {
      async get(p) { await later(); return inner.get(p); },
      async put(p, t) { await later(); return inner.put(p, t); },
      async delete(p) { await later(); return inner.delete(p); },
      async list(p) { await later(); return inner.list(p); },
    };
  };
  const PROGRESS = '# Migration progress\n- [ ] users table\n- [ ] orders table\n- [ ] 索引重建\n';
  const tick = (item) => ({ command: 'str_replace', path: '/memories/progress.md', old_str: `- [ ] ${item}`, new_str: `- [x] ${item}` });

  test('edits of one file from two tools at once: neither is lost', async () => {
    const store = networkStore(memoryStore({ '/memories/progress.md': PROGRESS }));
    const chat = createMemoryTool({ store });
    const agent = createMemoryTool({ store });
    const results = await Promise.all([chat.execute(tick('users table')), agent.execute(tick('orders table')),
      agent.execute(tick('索引重建'))]);
    assert.deepEqual(results.map((r) => r.isError), [false, false, false]);
    assert.equal(await store.get('/memories/progress.md'), '# Migration progress\n- [x] users table\n- [x] orders table\n- [x] 索引重建\n');
  });

  test('twenty inserts from two tools at once apply in call order', async () => {
    const store = networkStore(memoryStore({ '/memories/log.md': '' }));
    const tools = [createMemoryTool({ store }), createMemoryTool({ store })];
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      tools[i % 2].execute({ command: 'insert', path: '/memories/log.md', insert_line: i, insert_text: `entry ${i}` })));
    assert.ok(results.every((r) => !r.isError));
    assert.equal(await store.get('/memories/log.md'), Array.from({ length: 20 }, (_, i) => `entry ${i}\n`).join(''));
  });

  test('a Worker that builds kvStore(env.MEMORY) per request: tools on one namespace and prefix wait for each other', async () => {
    const data = new Map([['/memories/progress.md', { value: PROGRESS, metadata: { size: Buffer.byteLength(PROGRESS) } }]]);
    const later = () => new Promise((r) => setImmediate(r));
    const namespace = {
      async get(k) { await later(); return data.has(k) ? data.get(k).value : null; },
      async put(k, value, o) { await later(); data.set(k, { value, metadata: o?.metadata }); },
      async delete(k) { await later(); data.delete(k); },
      async list({ prefix = '' } = {}) {
        await later();
        return { keys: [...data.keys()].filter((k) => k.startsWith(prefix)).sort().map((name) => ({ name, metadata: data.get(name).metadata })), list_complete: true };
      },
    };
    const request = (item) => createMemoryTool({ store: kvStore(namespace) }).execute(tick(item));
    const results = await Promise.all([request('users table'), request('orders table'), request('索引重建')]);
    assert.deepEqual(results.map((r) => r.isError), [false, false, false]);
    assert.equal(data.get('/memories/progress.md').value, PROGRESS.replaceAll('- [ ]', '- [x]'));
  });

  test('localStorageStore(localStorage) made by two parts of one page: tools on one storage and prefix wait for each other', async () => {
    const map = new Map([['midfold:/memories/progress.md', PROGRESS]]);
    const storage = { get length() { return map.size; }, key: (i) => [...map.keys()][i] ?? null,
      getItem: (k) => (map.has(k) ? map.get(k) : null), setItem: (k, v) => map.set(k, String(v)), removeItem: (k) => map.delete(k) };
    const part = (item) => createMemoryTool({ store: localStorageStore(storage) }).execute(tick(item));
    const results = await Promise.all([part('users table'), part('orders table'), part('索引重建')]);
    assert.deepEqual(results.map((r) => r.isError), [false, false, false]);
    assert.equal(map.get('midfold:/memories/progress.md'), PROGRESS.replaceAll('- [ ]', '- [x]'));
    // Another prefix is another set of files: its tools need not wait.
    const other = await createMemoryTool({ store: localStorageStore(storage, { prefix: 'user:bob:' }) })
      .execute({ command: 'create', path: '/memories/progress.md', file_text: 'bob' });
    assert.equal(other.isError, false);
  });

  test('tools on different stores do not wait for each other', async () => {
    let unblock;
    const gate = new Promise((r) => { unblock = r; });
    const slowInner = memoryStore({ '/memories/progress.md': PROGRESS });
    const blocked = { ...slowInner, async get(p) { await gate; return slowInner.get(p); } };
    const slow = createMemoryTool({ store: blocked }).execute({ command: 'view', path: '/memories/progress.md' });
    const fast = await createMemoryTool({ store: memoryStore({ '/memories/progress.md': 'other' }) })
      .execute({ command: 'view', path: '/memories/progress.md' });
    assert.equal(fast.content, CONTENT('/memories/progress.md') + '     1\tother');
    unblock();
    assert.equal((await slow).isError, false);
  });
});
