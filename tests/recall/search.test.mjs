// rankArchive (js/recall/search.js over src/search.c): BM25 over archived tool results — English tool
// output, Chinese logs, code and paths — with scores checked against the formula written out here,
// ties in id order, snippets that never cut a character, and clear errors for bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, MidfoldError } from '../../js/hosts/node.js';
import { rankArchive } from '../../js/recall/search.js';

await init();

const ARCHIVE = [
  { id: 'r1a2b', text: '$ npm test\n> app@1.0.0 test\n  ✓ parses config (3 ms)\n  ✗ getUserById returns null for unknown ids\n    AssertionError: expected null, got undefined\n\n1 failing, 41 passing' },
  { id: 'r3c4d', text: 'src/users/service.ts:41:  export async function getUserById(id: string): Promise<User | null> {\nsrc/users/service.ts:42:    return this.db.users.findOne({ id });' },
  { id: 'r5e6f', text: 'src/app.ts\nsrc/app.js.map\nsrc/users/service.ts\ntests/users.test.ts\nREADME.md' },
  { id: 'r7a8b', text: '服务器返回错误：数据库连接超时（30 秒），请检查 config/database.yml 中的 host 设置。\n重试 3 次后放弃。' },
  { id: 'r9c0d', text: '数据已保存到文件 output/结果.csv，共 1,204 行。连接已关闭。' },
  { id: 'rab12', text: 'diff --git a/lib/app.ts b/lib/app.ts\n-const maxRetries = 3\n+const max_retries = 5' },
];

test('an identifier finds the test failure and the code that names it, the failure (shorter, more of it) first', () => {
  const hits = rankArchive(ARCHIVE, 'getUserById failing');
  assert.deepEqual(hits.map((h) => h.id), ['r1a2b', 'r3c4d']);
  assert.ok(hits[0].score > hits[1].score);
  assert.match(hits[0].snippet, /getUserById returns null/);
});

test('a path ranks the entry naming it exactly above those sharing its names', () => {
  const hits = rankArchive(ARCHIVE, 'src/app.ts');
  assert.equal(hits[0].id, 'r5e6f', 'the listing holds src/app.ts itself');
  assert.ok(hits.some((h) => h.id === 'rab12'), 'lib/app.ts shares app and ts');
  assert.ok(hits[0].score > hits.find((h) => h.id === 'rab12').score);
});

test('snake_case and camelCase meet in their words', () => {
  const hits = rankArchive(ARCHIVE, 'max retries');
  assert.deepEqual(hits.map((h) => h.id), ['rab12']);
});

test('Chinese: a word matches by its character pairs, the entry holding the whole phrase first', () => {
  const hits = rankArchive(ARCHIVE, '数据库连接');
  assert.equal(hits[0].id, 'r7a8b');
  assert.ok(hits.some((h) => h.id === 'r9c0d'), '数据 and 连接 appear apart in the other entry');
  assert.ok(!hits[0].snippet.includes('\uFFFD'));
  const one = rankArchive(ARCHIVE, '库');
  assert.deepEqual(one.map((h) => h.id), ['r7a8b'], 'a one-character query finds the character inside a run');
});

/** BM25 for one-word terms, written out: idf = ln(1 + (N - n + 0.5) / (n + 0.5)), k1 1.2, b 0.75. */
function bm25(docs, query) {
  const words = docs.map((d) => d.text.split(' '));
  const avgdl = words.reduce((a, w) => a + w.length, 0) / docs.length;
  return docs.map((d, i) => {
    let score = 0;
    for (const term of new Set(query.split(' '))) {
      const tf = words[i].filter((w) => w === term).length;
      if (!tf) continue;
      const n = words.filter((w) => w.includes(term)).length;
      const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
      score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + 0.75 * words[i].length / avgdl));
    }
    return { id: d.id, score };
  }).filter((h) => h.score > 0).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}

test('scores are BM25 exactly: idf, saturation and length normalization', () => {
  const docs = [
    { id: 'd1', text: 'timeout timeout timeout retry' },
    { id: 'd2', text: 'timeout while connecting to the database server after retry' },
    { id: 'd3', text: 'connection refused' },
    { id: 'd4', text: 'retry retry' },
    { id: 'd5', text: 'all tests passed' },
  ];
  for (const query of ['timeout', 'retry', 'timeout retry', 'database timeout', 'refused retry']) {
    const got = rankArchive(docs, query);
    const want = bm25(docs, query);
    assert.deepEqual(got.map((h) => h.id), want.map((h) => h.id), query);
    got.forEach((h, i) => assert.ok(Math.abs(h.score - want[i].score) <= 1e-12 * want[i].score, `${query}: ${h.id} ${h.score} vs ${want[i].score}`));
  }
  // (k1 + 1) bounds a term's weight: three occurrences are worth less than twice one, in texts of one length
  const [a, b] = rankArchive([{ id: 'x', text: 'oom oom oom' }, { id: 'y', text: 'oom ok fine' }, { id: 'z', text: 'ok ok ok' }], 'oom');
  assert.ok(a.id === 'x' && a.score < 2 * b.score);
});

test('equal scores come in id order, whatever the order of the entries', () => {
  const entries = ['rc', 'ra', 'rb'].map((id) => ({ id, text: 'ENOENT: no such file or directory, open config.json' }));
  assert.deepEqual(rankArchive(entries, 'config.json').map((h) => h.id), ['ra', 'rb', 'rc']);
  assert.deepEqual(rankArchive(entries.reverse(), 'config.json').map((h) => h.id), ['ra', 'rb', 'rc']);
});

test('limit and snippetChars bound the answer; a snippet is a whole-character slice around the match', () => {
  const filler = '日志'.repeat(200);
  const entries = Array.from({ length: 8 }, (_, i) => ({ id: `r${i}`, text: `${filler} Error: disk quota exceeded on /var/log ${filler} 😀` }));
  const hits = rankArchive(entries, 'quota exceeded', { limit: 3, snippetChars: 40 });
  assert.equal(hits.length, 3);
  for (const h of hits) {
    assert.match(h.snippet, /^….*disk quota exceeded.*…$/s);
    assert.ok([...h.snippet].length <= 42, 'at most 40 code points and the two marks');
    assert.ok(!h.snippet.includes('\uFFFD'));
  }
  const whole = rankArchive([{ id: 'r1', text: 'short 😀 text' }], 'text');
  assert.equal(whole[0].snippet, 'short 😀 text', 'a short entry comes whole, without marks');
});

test('no hits: a query with no words, or words no entry holds; an empty archive', () => {
  assert.deepEqual(rankArchive(ARCHIVE, '?!'), []);
  assert.deepEqual(rankArchive(ARCHIVE, 'kubernetes'), []);
  assert.deepEqual(rankArchive([], 'anything'), []);
});

test('bad input is a MidfoldError with a code and where', () => {
  const fails = (fn, code, path) => assert.throws(fn, (e) => e instanceof MidfoldError && e.code === code && (path === undefined || e.path === path));
  fails(() => rankArchive('nope', 'x'), 'invalid-argument', 'entries');
  fails(() => rankArchive([{ id: 'a', text: 'x' }, { text: 'y' }], 'x'), 'invalid-argument', 'entries[1].id');
  fails(() => rankArchive([{ id: 'a', text: 42 }], 'x'), 'invalid-argument', 'entries[0].text');
  fails(() => rankArchive([null], 'x'), 'invalid-argument', 'entries[0]');
  fails(() => rankArchive([{ id: 'a', text: 'x' }, { id: 'a', text: 'y' }], 'x'), 'invalid-argument', 'entries[1].id');
  fails(() => rankArchive(ARCHIVE, ''), 'invalid-argument', 'query');
  fails(() => rankArchive(ARCHIVE, '   '), 'invalid-argument', 'query');
  fails(() => rankArchive(ARCHIVE, 7), 'invalid-argument', 'query');
  fails(() => rankArchive(ARCHIVE, 'x', { limit: 0 }), 'invalid-option');
  fails(() => rankArchive(ARCHIVE, 'x', { snippetChars: 1.5 }), 'invalid-option');
  fails(() => rankArchive(ARCHIVE, 'x', { limt: 3 }), 'invalid-option');
});

test('text that is not well-formed UTF-16 (a lone surrogate) is searched, not refused', () => {
  const hits = rankArchive([{ id: 'r1', text: 'broken \uD800 surrogate then needle' }], 'needle');
  assert.equal(hits.length, 1);
  assert.match(hits[0].snippet, /needle/);
});
