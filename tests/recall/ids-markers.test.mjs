// Recall ids in the micro-compaction markers, on every fixture of every format: the same edits as
// without recall, each marker the plain one naming its id, the same ids on every call of one
// conversation and other ids in another, microCompact byte-identical without recall, and every
// cleared result back whole through the recall tool, page after page.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init, microCompact, estimateTokens, memoryStateStore } from '../../js/hosts/node.js';
import { planMicroCompact } from '../../js/core/api.js';
import { recallArchive } from '../../js/recall/archive.js';
import { recallMicroCompact } from '../../js/recall/micro.js';
import { recallExecutor } from '../../js/recall/tool.js';
import { resultText } from '../../js/recall/content-text.js';
import { editedValue } from '../../js/core/apply.js';
import { loadFixture, fixtureNames, marker } from '../helpers/fixtures.mjs';

await init();

const ID = /^r[0-9a-hjkmnp-tv-z]{8}$/;
const seeded = (seed) => (bytes) => { for (let i = 0; i < bytes.length; i++) bytes[i] = (seed * 31 + i * 7) & 255; return bytes; };
const archiveOf = (conversation, store = memoryStateStore(), seed = 1) => recallArchive({ store, conversation, random: seeded(seed) });

// (a fixture whose results micro-compaction leaves alone is no test of the markers)
const names = fixtureNames().filter((n) => planMicroCompact(loadFixture(n), { keepRecent: 0 }).edits.length > 0);

test('the fixtures cover every format with something to clear', () => {
  const formats = new Set(names.map((n) => n.slice(n.lastIndexOf('.') + 1)));
  for (const f of ['anthropic', 'openai', 'ai-sdk']) assert.ok(formats.has(f), f);
  assert.ok(names.includes('parallel-read.anthropic') && names.includes('chinese-coding.anthropic'));
});

for (const name of names) {
  test(`${name}: each marker names its recall id, the edits are those without recall`, async () => {
    const plain = loadFixture(name);
    const plainReport = microCompact(plain, { keepRecent: 0 });
    const messages = loadFixture(name);
    const originals = loadFixture(name);
    const plan = planMicroCompact(originals, { keepRecent: 0 });
    const report = await recallMicroCompact(messages, { archive: archiveOf('conv-a'), keepRecent: 0 });
    assert.equal(report.cleared, plainReport.cleared);
    assert.deepEqual(report.edits.map(({ recall, ...e }) => e), plainReport.edits);
    assert.equal(report.recall.archived, report.cleared);
    for (const [i, e] of report.edits.entries()) {
      assert.match(e.recall, ID);
      // the plain marker (as the seed writes it, by the fixture helper) with " · recall ID" before its bracket
      assert.equal(plan.edits[i].replacement, marker(e.tool, e.chars));
    }
    const text = JSON.stringify(messages);
    for (const e of report.edits) assert.ok(text.includes(`[truncated: ${e.tool} result, ${e.chars} chars · recall ${e.recall}]`), e.recall);
    // the report's figure is what is left, ids included
    assert.equal(report.tokensAfter, estimateTokens(messages));
  });

  test(`${name}: the same conversation gets the same ids on every call, another conversation others`, async () => {
    const store = memoryStateStore();
    const first = await recallMicroCompact(loadFixture(name), { archive: archiveOf('conv-a', store, 1), keepRecent: 0 });
    // a stateless host: a new archive object over the same store, the history sent again
    const again = await recallMicroCompact(loadFixture(name), { archive: archiveOf('conv-a', store, 2), keepRecent: 0 });
    const other = await recallMicroCompact(loadFixture(name), { archive: archiveOf('conv-b', store, 3), keepRecent: 0 });
    assert.deepEqual(again.edits.map((e) => e.recall), first.edits.map((e) => e.recall));
    for (const [i, e] of other.edits.entries()) assert.notEqual(e.recall, first.edits[i].recall);
  });

  test(`${name}: every cleared result comes back whole through the recall tool`, async () => {
    const archive = archiveOf('conv-a');
    const original = loadFixture(name);
    const report = await recallMicroCompact(loadFixture(name), { archive, keepRecent: 0 });
    const plan = planMicroCompact(original, { keepRecent: 0 });
    const recall = recallExecutor({ archive, pageTokens: 60, random: seeded(9) });
    for (const [i, e] of report.edits.entries()) {
      const want = resultText(editedValue(original, plan.edits[i]));
      let got = '';
      for (let page = 1; ; page++) {
        const answer = await recall({ id: e.recall, page });
        assert.equal(answer.isError, false, answer.text);
        const [, of] = answer.text.match(/page \d+ of (\d+)/);
        const body = answer.text.split('\n');
        const inner = body.slice(3, -1).join('\n'); // heading, notice, opening fence … closing fence
        assert.ok(estimateTokens(inner) <= 60, `page ${page} is ${estimateTokens(inner)} tokens`);
        got += inner;
        if (page === Number(of)) break;
      }
      assert.equal(got, want);
    }
  });
}

test('microCompact without recall writes the markers it always wrote, and refuses a recall key', () => {
  const messages = loadFixture('chinese-coding.anthropic');
  const report = microCompact(messages, { keepRecent: 0 });
  assert.ok(report.cleared > 0);
  assert.ok(!JSON.stringify(messages).includes('recall'));
  assert.ok(report.edits.every((e) => !('recall' in e)));
  assert.throws(() => microCompact(loadFixture('chinese-coding.anthropic'), { recallKey: new Uint8Array(32) }), /recallMicroCompact/);
  assert.throws(() => planMicroCompact(loadFixture('chinese-coding.anthropic'), { recallKey: new Uint8Array(3) }), /16 to 64 bytes/);
});

test('a result already cleared is not cleared again, with or without recall (idempotent)', async () => {
  const archive = archiveOf('conv-a');
  const messages = loadFixture('parallel-read.openai');
  const first = await recallMicroCompact(messages, { archive, keepRecent: 0 });
  assert.ok(first.cleared > 0);
  const copy = structuredClone(messages);
  const second = await recallMicroCompact(messages, { archive, keepRecent: 0 });
  assert.equal(second.cleared, 0);
  assert.deepEqual(messages, copy);
  assert.equal(microCompact(messages, { keepRecent: 0 }).cleared, 0);
});
