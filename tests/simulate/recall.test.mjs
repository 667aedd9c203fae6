// simulate()'s recall model (js/simulate/recall.js): a re-read of what a policy cleared becomes a recall of the
// archived result (a round trip per page, priced), a re-read of what is still in context stays a re-run,
// everything cleared is archived (nothing unrecoverable), and on the generated long sessions the 'recall' policy
// holds the context at half the defaults' or less for no more than the defaults' bill.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, estimateTokens, MidfoldError } from '../../js/hosts/node.js';
import { simulate, resolvePolicy } from '../../js/simulate/simulate.js';
import { longSession } from '../helpers/long-session.mjs';

await init();

const FILE_V1 = Array.from({ length: 120 }, (_, i) => `${i + 1}: export function total${i}(rows) { return rows.reduce((a, r) => a + r.cents, 0); } // 合计（分）`).join('\n');
const TEST_RUN = '> npm test -- ledger\n✔ ledger sums rows (3 ms)\n✖ ledger rounds half-up (2 ms)\n  AssertionError: expected 1287.50, got 1287.49\nℹ tests 2\nℹ fail 1';
const GREP = 'src/ledger.js:41:  const total = sumAmount(rows, { cents: true });\nsrc/report.js:12:  return sumAmount(lines);';

/** An Anthropic coding session: each step one tool call and its result; `calls` are [name, input, output]. */
function anthropicSession(calls) {
  const messages = [{ role: 'user', content: '修一下 src/ledger.js 的舍入问题，然后跑测试。' }];
  calls.forEach(([name, input, output], i) => {
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `Step ${i + 1}.` }, { type: 'tool_use', id: `toolu_${i}`, name, input }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: output }] });
  });
  messages.push({ role: 'assistant', content: [{ type: 'text', text: 'Done: the ledger keeps integer cents now.' }] });
  return messages;
}

/** The same in OpenAI Chat Completions. */
function openAISession(calls) {
  const messages = [{ role: 'system', content: 'You are a coding agent.' }, { role: 'user', content: 'Fix the rounding in src/ledger.js, then run the tests.' }];
  calls.forEach(([name, input, output], i) => {
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name, arguments: JSON.stringify(input) } }] });
    messages.push({ role: 'tool', tool_call_id: `call_${i}`, content: output });
  });
  messages.push({ role: 'assistant', content: 'Done: the ledger keeps integer cents now.' });
  return messages;
}

// The file is read, three other calls follow, then the same file is read again (it changed meanwhile: the
// session's second read is short), and the tests run again.
const REREAD = [
  ['read_file', { file_path: 'src/ledger.js' }, FILE_V1],
  ['bash', { command: 'npm test -- ledger' }, TEST_RUN],
  ['grep', { pattern: 'sumAmount', path: 'src' }, GREP],
  ['bash', { command: 'git diff --stat' }, ' src/ledger.js | 4 ++--\n 1 file changed, 2 insertions(+), 2 deletions(-)'],
  ['read_file', { file_path: 'src/ledger.js' }, '1: // ledger.js: rewritten'],
  ['bash', { command: 'npm test -- ledger' }, '> npm test -- ledger\n✔ ledger sums rows\n✔ ledger rounds half-up\nℹ tests 2\nℹ pass 2'],
];

for (const [format, build] of [['anthropic', anthropicSession], ['openai', openAISession]]) {
  test(`${format}: a re-read of a cleared file is a recall round trip, not a re-run; what is still in context is re-run`, async () => {
    const session = build(REREAD);
    const r = await simulate(session, { policies: ['micro:keepRecent=1+recall:page=100000', 'micro:keepRecent=1', 'micro:keepRecent=10+recall'] });
    const [cleared, plain, kept] = r.results;
    assert.equal(cleared.recall.recalls, 2, 'the file read and the test run were cleared before they were read again');
    assert.equal(cleared.recall.reRuns, 0);
    assert.equal(cleared.recall.roundTrips, 2);
    assert.equal(cleared.recall.extraRequests, 0, 'each fits one page');
    assert.equal(kept.recall.recalls, 0, 'nothing was cleared: the re-reads run again');
    assert.equal(kept.recall.reRuns, 2);
    // The recall brings back the archived file (long), where the session's re-read was one line: more input.
    assert.ok(cleared.recall.recalledTokens >= estimateTokens(FILE_V1) + estimateTokens(TEST_RUN));
    assert.ok(cleared.inputTokens > plain.inputTokens + estimateTokens(FILE_V1) - 50);
    assert.ok(cleared.recall.recallOutputTokens > 0 && cleared.recall.outputUsd > 0, 'the recall calls are billed as output');
    assert.ok(Math.abs(cleared.totalUsd - (cleared.inputUsd + cleared.summaryUsd + cleared.recall.outputUsd)) < 1e-12);
    assert.equal(cleared.recall.unrecoverableBytes, 0);
  });
}

test('a result of several pages costs a round trip and a request per page; the peak counts them', async () => {
  const session = anthropicSession(REREAD);
  const pages = Math.ceil(estimateTokens(FILE_V1) / 1000);
  const r = await simulate(session, { policies: ['micro:keepRecent=1+recall:page=1000', 'micro:keepRecent=1+recall:page=100000'] });
  const [paged, whole] = r.results;
  assert.ok(pages >= 3, `the file is ${estimateTokens(FILE_V1)} tokens`);
  assert.ok(paged.recall.roundTrips >= pages + 1, 'every page of the file, and the test run');
  assert.equal(paged.recall.extraRequests, paged.recall.roundTrips - paged.recall.recalls);
  assert.equal(whole.recall.extraRequests, 0);
  assert.equal(paged.perTurn.length, whole.perTurn.length, 'extra requests are billed to the turn they precede');
  assert.ok(paged.totalUsd > whole.totalUsd, 'each further page re-sends the context');
  assert.ok(paged.recall.recallOutputTokens > whole.recall.recallOutputTokens);
});

test('everything cleared is archived as it was: cleared bytes are the results out of the context, none unrecoverable', async () => {
  const calls = REREAD.slice(0, 4);
  const session = anthropicSession(calls);
  const r = await simulate(session, { policies: ['micro:keepRecent=1+recall', { name: 'recall alone', recall: {} }] });
  const [cleared, alone] = r.results;
  // keepRecent 1: at the last request every result but the last is a marker.
  const bytes = calls.slice(0, -1).reduce((a, [, , out]) => a + Buffer.byteLength(out, 'utf8'), 0);
  assert.equal(cleared.recall.clearedBytes, bytes);
  assert.equal(cleared.recall.archivedBytes, bytes);
  assert.equal(cleared.recall.archivedResults, 3);
  assert.equal(cleared.recall.unrecoverableBytes, 0);
  assert.equal(alone.recall.clearedBytes, 0, 'the recall model alone clears nothing');
  assert.equal(alone.recall.archivedResults, 0);
});

test('without re-reads the recall model changes nothing of the bill', async () => {
  const session = openAISession(REREAD.slice(0, 4));
  const r = await simulate(session, { policies: ['micro:keepRecent=1+recall', 'micro:keepRecent=1'] });
  const [withRecall, without] = r.results;
  assert.equal(withRecall.recall.recalls, 0);
  assert.equal(withRecall.totalUsd, without.totalUsd);
  assert.deepEqual(withRecall.perTurn, without.perTurn);
});

test("the grammar: 'recall' is a named policy, 'recall[:page=N]' a part; bad parts are refused", () => {
  const named = resolvePolicy('recall');
  assert.deepEqual(named.recall, { page: 4000 });
  assert.ok(named.compactor && named.compactor.threshold === 20000);
  assert.deepEqual(resolvePolicy('micro:keepRecent=1+recall').recall, {});
  assert.deepEqual(resolvePolicy('compactor:threshold=20k+recall:page=1500').recall, { page: 1500 });
  const refused = (p, re) => assert.throws(() => resolvePolicy(p), (e) => e instanceof MidfoldError && e.code === 'invalid-option' && re.test(e.message));
  refused('micro:keepRecent=1+recall:page=0', /page must be at least 1/);
  refused('micro:keepRecent=1+recall:pages=3', /unknown key "pages"/);
  refused({ micro: { keepRecent: 1 }, recall: { page: -1 } }, /page must be a whole number/);
  refused({ micro: { keepRecent: 1 }, recall: { pages: 2 } }, /unknown option "pages"/);
});

for (const format of ['anthropic', 'openai']) {
  test(`long-session 100 turns (${format}): the 'recall' policy holds peak and mean at half the defaults' or less, bills no more`, async () => {
    const session = longSession({ turns: 100, format }).calls.flat();
    const r = await simulate(session, { policies: ['defaults', 'recall'] });
    const [d, x] = r.results;
    assert.ok(x.peakContext <= d.peakContext / 2, `peak ${x.peakContext} vs ${d.peakContext}`);
    assert.ok(x.meanContext <= d.meanContext / 2, `mean ${x.meanContext} vs ${d.meanContext}`);
    assert.ok(x.totalUsd <= d.totalUsd, `bill ${x.totalUsd} vs ${d.totalUsd}`);
    assert.ok(x.recall.recalls > 50, 'the session reads its files and runs its tests again and again');
    assert.ok(x.recall.clearedBytes > 100000);
    assert.equal(x.recall.unrecoverableBytes, 0);
  });
}

test('a result of one long line (minified JSON) is paged too: every page at most a page, nothing lost', async () => {
  const blob = JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, sku: `SKU-${i}`, name: `商品 ${i}`, cents: i * 137 })));
  const calls = [['bash', { command: 'curl -s localhost:8080/api/items' }, blob], ...REREAD.slice(1, 4), ['bash', { command: 'curl -s localhost:8080/api/items' }, '[]']];
  const r = await simulate(anthropicSession(calls), { policies: ['micro:keepRecent=1+recall:page=1000'] });
  const [x] = r.results;
  assert.equal(x.recall.recalls, 1);
  assert.ok(x.recall.roundTrips >= Math.ceil(estimateTokens(blob) / 1000), `${x.recall.roundTrips} pages for ${estimateTokens(blob)} tokens`);
  assert.ok(x.recall.recalledTokens >= estimateTokens(blob) - x.recall.roundTrips, 'the pages hold the whole blob');
  assert.equal(x.recall.unrecoverableBytes, 0);
});
