// Compactor: the transcript cap (maxTranscriptTokens). When the serialized middle is over
// the cap, the oldest tool results shrink to "[truncated: …]" markers in the prompt only;
// the conversation and the archived originals keep them whole (issue 3).
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';

import { init, Compactor, estimateTokens, validate } from '../../js/hosts/node.js';
import { load, recorder, splitPrompt, codePoints, MARK } from '../fixtures/compactor/lib.mjs';

before(async () => { await init(); });

/** The transcript of a prompt without a closing wrapper line, if the prompt has one. */
const transcriptOf = (prompt) => splitPrompt(prompt).transcript.replace(/\n<\/[a-z]+>\s*$/, '');

/** Every tool result of an Anthropic conversation, oldest first: {name, text}. */
function anthropicResults(messages) {
  const names = new Map();
  const out = [];
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b.type === 'tool_use') names.set(b.id, b.name);
      if (b.type === 'tool_result') out.push({ name: names.get(b.tool_use_id), text: b.content });
    }
  }
  return out;
}

const marker = (r) => `[truncated: ${r.name} result, ${codePoints(r.text)} chars]`;

// These tests are about the cap, and their caps were chosen for the reference profile's
// estimates (the ledger's middle is about 2,900 tokens in it): the Compactor is given that
// profile, and transcripts are measured with it. The Compactor's default profile ('safe')
// is checked at the end of this file.
const PROFILE = 'bareagent';

async function compactWithCap(name, cap, extra = {}) {
  const summarize = recorder();
  let removed;
  const messages = load(name);
  const report = await new Compactor({
    summarize, keepTail: { tokens: 0 }, keepRecent: 100, maxTranscriptTokens: cap, profile: PROFILE, onArchive: (r) => { removed = r; }, ...extra,
  }).compact(messages, { force: true });
  return { report, messages, removed, prompt: summarize.calls[0]?.prompt };
}

describe('the transcript cap', () => {
  test('under the cap nothing shrinks: every result is in the prompt whole', async () => {
    const { report, prompt } = await compactWithCap('ledger.anthropic', 60_000);
    assert.equal(report.transcript.shrunkResults, 0);
    assert.equal(report.transcript.omittedMessages, 0);
    for (const r of anthropicResults(load('ledger.anthropic'))) assert.ok(prompt.includes(r.text), r.text.slice(0, 60));
  });

  test('over the cap, the oldest tool result becomes a marker with its tool name and size', async () => {
    const { report, prompt } = await compactWithCap('ledger.anthropic', 2200);
    const [oldest] = anthropicResults(load('ledger.anthropic'));
    assert.ok(report.transcript.shrunkResults > 0);
    assert.ok(prompt.includes(marker(oldest)), marker(oldest));
    assert.ok(!prompt.includes('expect(received).toEqual(expected)'), 'the raw jest output is still in the prompt');
  });

  test('the oldest results shrink first: the newest ones stay whole', async () => {
    const { prompt } = await compactWithCap('ledger.anthropic', 2200);
    const results = anthropicResults(load('ledger.anthropic')).slice(0, -1); // the middle's results
    const whole = results.map((r) => prompt.includes(r.text) && r.text.length > 60);
    const firstWhole = whole.indexOf(true);
    assert.ok(firstWhole > 0, 'some old results shrank and some new ones did not');
    for (let i = 0; i < firstWhole; i++) assert.ok(prompt.includes(marker(results[i])), `result ${i} neither whole nor marked`);
    for (let i = firstWhole; i < results.length; i++) assert.ok(prompt.includes(results[i].text), `result ${i} shrank after a newer one stayed whole`);
  });

  test('shrunkResults counts the markers written into the prompt', async () => {
    const { report, prompt } = await compactWithCap('ledger.anthropic', 1800);
    assert.equal(report.transcript.shrunkResults, (prompt.match(/\[truncated: /g) || []).length);
  });

  test('the shrinking is in the prompt only: the archived originals are whole', async () => {
    const { removed } = await compactWithCap('ledger.anthropic', 1500);
    assert.deepStrictEqual(removed, load('ledger.anthropic').slice(1, -1));
  });

  test('the shrinking is in the prompt only: results kept in the tail are whole', async () => {
    const messages = load('ledger-loop.anthropic');
    const objects = messages.slice();
    const pristine = load('ledger-loop.anthropic');
    const report = await new Compactor({ summarize: recorder(), keepTail: { tokens: 600 }, keepRecent: 100, maxTranscriptTokens: 800, profile: PROFILE })
      .compact(messages, { force: true });
    assert.equal(report.compacted, true);
    assert.ok(report.transcript.shrunkResults > 0);
    const kept = messages.filter((m) => m.role !== 'system' && objects.includes(m));
    assert.ok(kept.length >= 2, 'the tail holds some tool results');
    for (const m of kept) assert.deepStrictEqual(m, pristine[objects.indexOf(m)]);
  });

  for (const name of ['ledger.anthropic', 'ledger.openai', 'admin-web-zh.anthropic']) {
    test(`${name}: the transcript fits the cap (caps from 200 to 2600)`, async () => {
      for (const cap of [200, 300, 500, 800, 1000, 1500, 2600]) {
        const { prompt, report } = await compactWithCap(name, cap);
        assert.equal(report.compacted, true);
        const t = transcriptOf(prompt);
        const tokens = estimateTokens(t, { profile: PROFILE });
        assert.ok(tokens <= cap, `cap ${cap}: the transcript is ${tokens} tokens (${report.transcript.omittedMessages} omitted)`);
      }
    });
  }

  test('a very small cap keeps the first request, leaves out the oldest messages after it, says so, and still succeeds', async () => {
    const { report, prompt, messages } = await compactWithCap('ledger.anthropic', 300);
    assert.equal(report.compacted, true);
    assert.ok(report.transcript.omittedMessages > 0);
    const firstRequest = load('ledger.anthropic').find((m) => m.role === 'user').content;
    assert.match(transcriptOf(prompt), new RegExp(`^\\[user\\]\\n${firstRequest.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^]*?\\n\\n\\[${report.transcript.omittedMessages} earlier messages omitted\\]`));
    assert.ok(prompt.includes('Done: the delimiter now comes from'), 'the newest middle message is in the prompt');
    assert.deepStrictEqual(validate(messages).problems, []);
    assert.ok(messages[1].content.startsWith(MARK));
  });

  test('report.transcript.chars is the length of the transcript in code points', async () => {
    const { report, prompt } = await compactWithCap('admin-web-zh.anthropic', 60_000);
    assert.equal(report.transcript.chars, codePoints(transcriptOf(prompt)));
  });

  test('a result already micro-truncated keeps its original size in the prompt (no marker of a marker)', async () => {
    // keepRecent 3: micro-compaction truncates the old results first; the cap then shrinks more.
    const { prompt } = await compactWithCap('ledger.anthropic', 800, { keepRecent: 3 });
    const sizes = new Set(anthropicResults(load('ledger.anthropic')).map((r) => `${r.name} result, ${codePoints(r.text)} chars`));
    const markers = prompt.match(/\[truncated: [^\]]*\]/g) || [];
    assert.ok(markers.length > 0);
    for (const m of markers) assert.ok(sizes.has(m.slice('[truncated: '.length, -1)), `${m} names no original result's size`);
  });

  test('an already micro-truncated result is not counted as shrunk by the cap', async () => {
    const messages = load('ledger.anthropic');
    const report = await new Compactor({ summarize: recorder(), keepTail: { tokens: 0 }, keepRecent: 3, maxTranscriptTokens: 800, profile: PROFILE })
      .compact(messages, { force: true });
    const resultsInMiddle = anthropicResults(load('ledger.anthropic')).length;
    assert.ok(report.micro.cleared > 0);
    assert.ok(report.transcript.shrunkResults <= resultsInMiddle - report.micro.cleared,
      `shrunkResults ${report.transcript.shrunkResults} includes ${report.micro.cleared} results micro-compaction had already cleared`);
  });
});

/** Tool results in a list of messages (Anthropic blocks or OpenAI tool messages). */
const resultCount = (messages) => messages.reduce((n, m) => n + (m.role === 'tool' ? 1
  : Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result').length : 0), 0);

describe("the transcript cap under each profile, the Compactor's default ('safe') included", () => {
  const names = ['ledger.anthropic', 'ledger.openai', 'admin-web-zh.anthropic'];

  for (const profile of ['bareagent', 'safe']) {
    test(`${profile}: messages are left out of the transcript only once every tool result has shrunk`, async () => {
        for (const name of names) {
          for (let cap = 200; cap <= 5000; cap += 100) {
            const { report, removed } = await compactWithCap(name, cap, { profile });
            if (report.transcript.omittedMessages > 0)
              assert.equal(report.transcript.shrunkResults, resultCount(removed), `${name}, cap ${cap}: ${report.transcript.omittedMessages} left out`);
          }
        }
      });
  }

  test('safe: the transcript fits the cap (caps from 200 to 2600)', async () => {
    for (const name of names) {
      for (const cap of [200, 300, 500, 800, 1000, 1500, 2600]) {
        const { prompt } = await compactWithCap(name, cap, { profile: 'safe' });
        const tokens = estimateTokens(transcriptOf(prompt), { profile: 'safe' });
        assert.ok(tokens <= cap, `${name}, cap ${cap}: the transcript is ${tokens} tokens`);
      }
    }
  });
});
