// The memory tool driven through a scripted multi-turn exchange in Anthropic format:
// assistant tool_use → execute → user tool_result, with micro-compaction between turns.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, createMemoryTool, memoryStore, microCompact, validate, serialize, estimateTokens } from '../../js/hosts/node.js';

await init();

const SCRIPT = JSON.parse(readFileSync(new URL('../fixtures/memory/project-notes-session.anthropic.json', import.meta.url), 'utf8'));
const codePoints = (s) => [...s].length;

/**
 * Plays the script: each assistant message's tool_use blocks are executed together (as a
 * client runs parallel calls) and answered by one user message of tool_result blocks;
 * `between(messages)` runs after every message appended.
 */
async function play(tool, between) {
  const messages = [];
  const results = new Map(); // tool_use id → {content, isError} as executed
  for (const turn of SCRIPT.turns) {
    messages.push(structuredClone(turn));
    between(messages);
    if (turn.role !== 'assistant') continue;
    const uses = turn.content.filter((b) => b.type === 'tool_use');
    if (!uses.length) continue;
    const blocks = await Promise.all(uses.map((u) => tool.toolResult(u)));
    for (const b of blocks) results.set(b.tool_use_id, { content: b.content, isError: b.is_error === true });
    messages.push({ role: 'user', content: blocks });
    between(messages);
  }
  return { messages, results };
}

function expectedListing(files, dir) {
  const size = (paths) => paths.reduce((n, p) => n + Buffer.byteLength(files[p]), 0);
  const lines = [`${size(Object.keys(files))}B\t${dir}`];
  const seen = new Set();
  for (const p of Object.keys(files).sort()) {
    const parts = p.slice(dir.length + 1).split('/');
    for (let depth = 1; depth <= Math.min(2, parts.length); depth++) {
      const entry = dir + '/' + parts.slice(0, depth).join('/');
      if (seen.has(entry)) continue;
      seen.add(entry);
      lines.push(`${size(Object.keys(files).filter((f) => f === entry || f.startsWith(entry + '/')))}B\t${entry}`);
    }
  }
  return `Here're the files and directories up to 2 levels deep in ${dir}, excluding hidden items and node_modules:\n${lines.join('\n')}`;
}

test('the scripted session leaves the memory directory as the model meant it', async () => {
  const store = memoryStore();
  const tool = createMemoryTool({ store });
  const { results } = await play(tool, (messages) => microCompact(messages, { keepRecent: 2 }));
  const files = Object.fromEntries(await Promise.all((await store.list('/memories/')).map(async (e) => [e.path, await store.get(e.path)])));
  assert.deepEqual(files, {
    '/memories/user/preferences.md': '# 用户偏好\n- 回答用中文\n- 代码注释用英文\n- 提交信息要简短\n',
    '/memories/work/midfold/progress.md': '# midfold memory tool\n## Done\n- path checks (C)\n- stores (JS)\n## Next\n- tests\n',
  });
  assert.deepEqual(results.get('toolu_01'), { content: expectedListing({}, '/memories'), isError: false });
  assert.deepEqual(results.get('toolu_02'), { content: 'File created successfully at: /memories/user/preferences.md', isError: false });
  assert.deepEqual(results.get('toolu_04'), {
    content: 'The memory file has been edited.\n     1\t# midfold memory tool\n     2\t## Done\n     3\t- path checks (C)\n' +
      '     4\t- stores (JS)\n     5\t## Next\n     6\t- tests',
    isError: false,
  });
  assert.deepEqual(results.get('toolu_05'), { content: 'The file /memories/user/preferences.md has been edited.', isError: false });
  assert.deepEqual(results.get('toolu_07'), {
    content: 'Here\'s the content of /memories/projects/midfold/progress.md with line numbers:\n     1\t# midfold memory tool\n' +
      '     2\t## Done\n     3\t- path checks (C)\n     4\t- stores (JS)\n     5\t## Next\n     6\t- tests',
    isError: false,
  });
  assert.deepEqual(results.get('toolu_08'), { content: 'Successfully renamed /memories/projects to /memories/work', isError: false });
  assert.deepEqual(results.get('toolu_09'), { content: 'Successfully deleted /memories/drafts', isError: false });
  assert.deepEqual(results.get('toolu_10'), {
    content: 'Error: The path /memories/../../etc/passwd is not allowed: it has a name made only of dots, like . or ... ' +
      'Memory paths look like /memories/notes.md.',
    isError: true,
  });
  assert.deepEqual(results.get('toolu_11'), { content: expectedListing(files, '/memories'), isError: false });
});

test('micro-compaction between turns keeps the conversation valid and folds old memory results only', async () => {
  const tool = createMemoryTool();
  let checks = 0;
  const { messages, results } = await play(tool, (msgs) => {
    microCompact(msgs, { keepRecent: 2 });
    // a request goes to the model whenever the last message is the user's
    if (msgs.at(-1).role !== 'user') return;
    const report = validate(msgs);
    assert.equal(report.ok, true, JSON.stringify(report.problems));
    checks++;
  });
  assert.equal(checks, 9);

  const resultTurns = messages.filter((m) => m.role === 'user' && Array.isArray(m.content));
  assert.equal(resultTurns.length, 6);
  // the last two result turns are whole; every result before them is one marker line
  for (const [i, m] of resultTurns.entries()) {
    for (const block of m.content) {
      const original = results.get(block.tool_use_id).content;
      if (i >= resultTurns.length - 2) assert.equal(block.content, original, block.tool_use_id);
      else assert.equal(block.content, `[truncated: memory result, ${codePoints(original)} chars]`, block.tool_use_id);
    }
  }
  // results keep their pairing and their error flag through compaction
  const toolu10 = resultTurns[4].content.find((b) => b.tool_use_id === 'toolu_10');
  assert.equal(toolu10.is_error, true);
  assert.deepEqual(resultTurns[4].content.map((b) => b.tool_use_id), ['toolu_08', 'toolu_09', 'toolu_10']);
  // user and assistant text is never touched
  const texts = messages.filter((m) => m.role === 'assistant').flatMap((m) => m.content.filter((b) => b.type === 'text').map((b) => b.text));
  assert.deepEqual(texts, SCRIPT.turns.filter((t) => t.role === 'assistant').flatMap((t) => t.content.filter((b) => b.type === 'text').map((b) => b.text)));
  assert.match(serialize(messages), /\[tool_result:memory\] \[truncated: memory result, \d+ chars\]/);
});

test('what the model read is still in memory after micro-compaction folded it: a later view returns it', async () => {
  const tool = createMemoryTool();
  const { messages, results } = await play(tool, (msgs) => microCompact(msgs, { keepRecent: 1 }));
  const folded = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .find((b) => b.type === 'tool_result' && b.tool_use_id === 'toolu_07');
  assert.match(folded.content, /^\[truncated: memory result, \d+ chars\]$/);
  const again = await tool.execute({ command: 'view', path: '/memories/work/midfold/progress.md' });
  assert.equal(again.content, results.get('toolu_07').content.replace('/memories/projects/', '/memories/work/'));
});

test('with excludeTools: [\'memory\'] micro-compaction leaves every memory result whole', async () => {
  const tool = createMemoryTool();
  const { messages, results } = await play(tool, (msgs) => microCompact(msgs, { keepRecent: 1, excludeTools: ['memory'] }));
  for (const m of messages) {
    if (m.role !== 'user' || !Array.isArray(m.content)) continue;
    for (const b of m.content) assert.equal(b.content, results.get(b.tool_use_id).content);
  }
  assert.ok(estimateTokens(messages) > 0);
});
