// The Compactor with `recall`: its clearings name ids and archive first; a fold archives the range
// whole and its summary names it with the ids cleared inside it before; a store that fails stops
// the clearing and the fold (reason 'archive-failed', the array as it was); without recall the
// Compactor does what it always did.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init, Compactor, memoryStateStore } from '../../js/hosts/node.js';
import { recallArchive } from '../../js/recall/archive.js';

await init();

/** A Chinese coding session: twelve file reads (two in parallel every third turn) and their answers. */
function session() {
  const msgs = [{ role: 'system', content: '你是一个编程助手。' }];
  for (let i = 0; i < 12; i++) {
    const parallel = i % 3 === 2;
    msgs.push({ role: 'user', content: `第 ${i} 步：读取 src/file${i}.c${parallel ? ' 和它的头文件' : ''}` });
    const calls = [{ type: 'tool_use', id: `toolu_${i}a`, name: 'read_file', input: { path: `src/file${i}.c` } }];
    if (parallel) calls.push({ type: 'tool_use', id: `toolu_${i}b`, name: 'read_file', input: { path: `src/file${i}.h` } });
    msgs.push({ role: 'assistant', content: calls });
    msgs.push({ role: 'user', content: calls.map((c) => ({ type: 'tool_result', tool_use_id: c.id,
      content: `/* ${c.input.path} */\n` + Array.from({ length: 60 }, (_, k) => `static int f${k}(int x) { return x * ${k}; } // 第 ${k} 行`).join('\n') })) });
    msgs.push({ role: 'assistant', content: `读完了 ${calls.map((c) => c.input.path).join('、')}。` });
  }
  msgs.push({ role: 'user', content: '总结一下这些文件' });
  return msgs;
}

const summarize = async () => '用户读取了十二个 C 文件，每个都定义了 60 个小函数。';

test('below the threshold: the clearing names ids, and each cleared result is in the archive', async () => {
  const archive = recallArchive({ store: memoryStateStore(), conversation: 'c' });
  const c = new Compactor({ summarize, threshold: 100_000, microTrigger: 1000, clearAtLeast: 1, keepRecent: 2, recall: { archive } });
  const msgs = session();
  const report = await c.compact(msgs);
  assert.equal(report.reason, 'below-threshold');
  assert.ok(report.micro.cleared > 0);
  for (const e of report.micro.edits) {
    assert.match(e.recall, /^r[0-9a-z]{8}$/);
    assert.equal((await archive.get(e.recall)).kind, 'result');
    assert.ok(JSON.stringify(msgs).includes(`· recall ${e.recall}]`));
    const answer = await c.recall.executor({ id: e.recall });
    assert.equal(answer.isError, false);
    assert.match(answer.text, /static int f0\(int x\)/);
  }
});

test('a fold: the range is archived whole, the summary names it and the ids cleared inside it before', async () => {
  const archive = recallArchive({ store: memoryStateStore(), conversation: 'c' });
  const msgs = session();
  // first a clearing (ids in the markers), then a forced fold over them
  const clearing = new Compactor({ summarize, threshold: 100_000, microTrigger: 1000, clearAtLeast: 1, keepRecent: 2, recall: { archive } });
  const cleared = (await clearing.compact(msgs)).micro.edits.map((e) => e.recall);
  const c = new Compactor({ summarize, threshold: 100_000, keepRecent: 2, recall: { archive } });
  const folded = msgs.slice();
  const report = await c.compact(msgs, { force: true });
  assert.equal(report.reason, 'compacted');
  assert.match(report.recall.id, /^r[0-9a-z]{8}$/);
  const summaryText = JSON.stringify(msgs[1]);
  assert.ok(summaryText.includes(`[recall ${report.recall.id}: the ${report.summarizedMessages} messages this summary replaces`));
  const named = summaryText.match(/cleared before: ([r0-9a-z, ]+)\]/)[1].split(', ');
  assert.ok(named.length > 0 && named.every((id) => cleared.includes(id)));
  const entry = await archive.get(report.recall.id);
  assert.equal(entry.kind, 'fold');
  assert.deepEqual(entry.messages, folded.slice(1, 1 + report.summarizedMessages));
  const answer = await c.recall.executor({ id: report.recall.id });
  assert.match(answer.text, /folded range of \d+ messages · page 1 of \d+/);
  assert.match(answer.text, /\[user\]\n第 0 步：读取 src\/file0\.c/);
  // an id cleared before the fold still answers
  assert.equal((await c.recall.executor({ id: named[0] })).isError, false);
});

test('a store that fails: no clearing, no fold, the array as it was, the reason said', async () => {
  const inner = memoryStateStore();
  let failing = false;
  const store = { ...inner, async put(k, v) { if (failing) throw new Error('KV put failed: 503'); return inner.put(k, v); } };
  const archive = recallArchive({ store, conversation: 'c' });
  await archive.key(); // the secret is stored; the entries will not be
  failing = true;
  const warnings = [];
  for (const [options, call] of [[{ microTrigger: 1000, clearAtLeast: 1 }, {}], [{}, { force: true }]]) {
    const c = new Compactor({ summarize, threshold: 100_000, keepRecent: 2, recall: { archive }, onWarn: (m) => warnings.push(m), ...options });
    const msgs = session();
    const before = structuredClone(msgs);
    const report = await c.compact(msgs, call);
    assert.equal(report.reason, 'archive-failed');
    assert.equal(report.compacted, false);
    assert.match(String(report.error.message), /KV put failed: 503/);
    assert.equal(report.micro.cleared, 0);
    assert.equal(report.tokensAfter, report.tokensBefore);
    assert.deepEqual(msgs, before);
  }
  assert.equal(warnings.length, 2);
});

test('recall: true keeps an archive in memory for the Compactor; without recall nothing changes', async () => {
  const withRecall = new Compactor({ summarize, threshold: 100_000, microTrigger: 1000, clearAtLeast: 1, keepRecent: 2, recall: true });
  const without = new Compactor({ summarize, threshold: 100_000, microTrigger: 1000, clearAtLeast: 1, keepRecent: 2 });
  const a = session(), b = session();
  const ra = await withRecall.compact(a);
  const rb = await without.compact(b);
  assert.equal(without.recall, null);
  assert.equal(ra.micro.cleared, rb.micro.cleared);
  assert.ok(!JSON.stringify(b).includes('recall'));
  assert.equal(JSON.stringify(a).replace(/ · recall r[0-9a-z]{8}\]/g, ']'), JSON.stringify(b));
  assert.equal((await withRecall.recall.executor({ id: ra.micro.edits[0].recall })).isError, false);
  assert.throws(() => new Compactor({ summarize, recall: { archive: {} } }), /needs an archive/);
  assert.throws(() => new Compactor({ summarize, recall: { stor: memoryStateStore() } }), /stor/);
});
