// Compactor: when it compacts, where it cuts, and the shape of the rebuilt conversation
// (issue 3). Fixtures: tests/fixtures/compactor/ (written by its build.mjs).
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';

import { init, Compactor, validate, estimateTokens, serialize } from '../../js/hosts/node.js';
import {
  load, loadShared, recorder, headCount, splitPrompt, cjkCount, alnumCount, codePoints,
  FORMATS, MARK, ACK_ZH,
} from '../fixtures/compactor/lib.mjs';

before(async () => { await init(); });

// The Compactor's default estimator profile: its reports, thresholds and tail budgets are in
// these tokens, so the estimates these tests compare them with use it too.
const SAFE = { profile: 'safe' };

/** A message's text, string or text blocks. */
const textOf = (m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => b.text).join(''));

/**
 * The acknowledgement as a fold writes it where everything kept is plain text: carrying the format
 * (detectFormat would otherwise read OpenAI Chat), as an Anthropic text block or with AI SDK providerOptions.
 */
function acknowledgement(format, text) {
  if (format === 'anthropic') return { role: 'assistant', content: [{ type: 'text', text, citations: null }] };
  if (format === 'ai-sdk') return { role: 'assistant', content: text, providerOptions: { midfold: { acknowledgement: true } } };
  return { role: 'assistant', content: text };
}

const resultMessages = (messages) => messages.filter((m) =>
  m.role === 'tool' || (m.role === 'user' && Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result')));

describe('below the threshold', () => {
  test("reports 'below-threshold' and never calls the summarizer", async () => {
    const messages = load('ledger.anthropic');
    const summarize = recorder();
    const report = await new Compactor({ summarize, threshold: 1_000_000 }).compact(messages);
    assert.equal(report.compacted, false);
    assert.equal(report.reason, 'below-threshold');
    assert.equal(summarize.calls.length, 0);
  });

  test('applies micro-compaction: old tool results become one-line markers with their original size', async () => {
    const messages = load('ledger.anthropic');
    const original = load('ledger.anthropic');
    // 'every-turn': micro-compaction on every call (the default waits for microTrigger).
    await new Compactor({ summarize: recorder(), threshold: 1_000_000, policy: 'every-turn' }).compact(messages);
    const first = original[3].content[0].content; // the failing `npm test` output
    assert.equal(messages[3].content[0].content, `[truncated: bash result, ${codePoints(first)} chars]`);
  });

  test('micro-compaction keeps the last keepRecent tool-result messages whole', async () => {
    const messages = load('ledger.anthropic');
    const original = load('ledger.anthropic');
    await new Compactor({ summarize: recorder(), threshold: 1_000_000, keepRecent: 2, policy: 'every-turn' }).compact(messages);
    const after = resultMessages(messages);
    const before = resultMessages(original);
    assert.deepStrictEqual(after.slice(-2), before.slice(-2));
    assert.match(after.at(-3).content[0].content, /^\[truncated: /);
  });

  test('nothing is summarized: same length, no summary message, user and assistant text untouched', async () => {
    const messages = load('ledger.openai');
    const original = load('ledger.openai');
    await new Compactor({ summarize: recorder(), threshold: 1_000_000 }).compact(messages);
    assert.equal(messages.length, original.length);
    assert.ok(!messages.some((m) => typeof m.content === 'string' && m.content.startsWith(MARK)));
    for (let i = 0; i < messages.length; i++) {
      if (messages[i].role !== 'tool') assert.deepStrictEqual(messages[i], original[i]);
    }
  });

  test('the threshold is compared with the estimate after micro-compaction', async () => {
    const probe = load('ledger.anthropic');
    const report = await new Compactor({ summarize: recorder(), threshold: 1_000_000, policy: 'every-turn' }).compact(probe);
    const afterMicro = report.tokensAfter;
    assert.ok(afterMicro < report.tokensBefore);

    const atLimit = recorder();
    assert.equal((await new Compactor({ summarize: atLimit, threshold: afterMicro, policy: 'every-turn' }).compact(load('ledger.anthropic'))).reason, 'below-threshold');
    const over = recorder();
    const r = await new Compactor({ summarize: over, threshold: afterMicro - 1, policy: 'every-turn' }).compact(load('ledger.anthropic'));
    assert.equal(r.reason, 'compacted');
    assert.equal(over.calls.length, 1);
  });

  test('force compacts even far below the threshold', async () => {
    const summarize = recorder();
    const report = await new Compactor({ summarize, keepTail: { tokens: 0 } }).compact(load('ledger.anthropic'), { force: true });
    assert.equal(report.compacted, true);
    assert.equal(summarize.calls.length, 1);
  });
});

describe('the seed scenario with keepTail {tokens: 0}', () => {
  for (const format of FORMATS) {
    test(`${format}: system, summary, acknowledgement, the pending user message (same object)`, async () => {
      const messages = load(`ledger.${format}`);
      const system = messages[0];
      const pending = messages.at(-1);
      const report = await new Compactor({ summarize: recorder('The CSV export keeps refunds now.'), keepTail: { tokens: 0 } })
        .compact(messages, { force: true });
      assert.equal(report.compacted, true);
      assert.equal(messages.length, 4);
      assert.equal(messages[0], system);
      assert.deepStrictEqual(messages[1], { role: 'user', content: `${MARK}\nThe CSV export keeps refunds now.` });
      assert.ok(textOf(messages[2]).length > 0);
      // (the pending message and the summary are plain text: the acknowledgement carries the format)
      assert.deepStrictEqual(messages[2], acknowledgement(format, textOf(messages[2])));
      assert.equal(messages[3], pending);
      assert.equal(report.summarizedMessages, load(`ledger.${format}`).length - 2);
    });

    test(`${format}: the rebuilt conversation validates`, async () => {
      const messages = load(`ledger.${format}`);
      await new Compactor({ summarize: recorder(), keepTail: { tokens: 0 } }).compact(messages, { force: true });
      assert.deepStrictEqual(validate(messages, { format }).problems, []);
      assert.equal(validate(messages).ok, true);
    });
  }

  test('the English acknowledgement is English', async () => {
    const messages = load('ledger.anthropic');
    await new Compactor({ summarize: recorder(), keepTail: { tokens: 0 } }).compact(messages, { force: true });
    assert.equal(cjkCount(textOf(messages[2])), 0);
    assert.match(textOf(messages[2]), /[A-Za-z]{3,}/);
  });

  test('tokensAfter is the estimate of the rebuilt conversation, smaller than tokensBefore', async () => {
    const messages = load('ledger.anthropic');
    const report = await new Compactor({ summarize: recorder(), keepTail: { tokens: 0 } }).compact(messages, { force: true });
    assert.equal(report.tokensAfter, estimateTokens(messages, SAFE));
    assert.ok(report.tokensAfter < report.tokensBefore);
  });

  test('the shared seed example (tool call pending its result): the one request before the call is as short as a summary, so nothing changes', async (t) => {
    const messages = loadShared('seed-example.anthropic');
    if (!messages) return t.skip('tests/fixtures/seed-example.anthropic.json is not there');
    const objects = messages.slice();
    const report = await new Compactor({ summarize: recorder('S'), keepTail: { tokens: 0 } }).compact(messages, { force: true });
    assert.equal(report.reason, 'no-gain');
    assert.deepStrictEqual(messages, loadShared('seed-example.anthropic'));
    assert.ok(messages.every((m, i) => m === objects[i]));
  });

  test('the shared seed example with a longer request before the call: the fold keeps the call and its result', async (t) => {
    const messages = loadShared('seed-example.anthropic');
    if (!messages) return t.skip('tests/fixtures/seed-example.anthropic.json is not there');
    messages[0].content = 'Please read the config file and tell me which provider it names, whether the key is read from the environment, and what the retry settings are.';
    const [first, call, result] = messages;
    const report = await new Compactor({ summarize: recorder('S'), keepTail: { tokens: 0 } }).compact(messages, { force: true });
    assert.equal(report.compacted, true);
    assert.equal(messages.length, 3);
    assert.deepStrictEqual(messages[0], { role: 'user', content: `${MARK}\nS` });
    assert.equal(messages[1], call);
    assert.equal(messages[2], result);
    assert.ok(!messages.includes(first));
    assert.equal(validate(messages).ok, true);
  });
});

describe('the tail budget', () => {
  /** The kept tail of a rebuilt conversation: the original objects after the summary (and acknowledgement). */
  const keptTail = (messages, objects) => messages.filter((m) => m.role !== 'system' && objects.includes(m));

  test('the tail never exceeds keepTail.tokens, unless it is only the pending turn', async () => {
    const pendingCost = estimateTokens([load('ledger.anthropic').at(-1)], SAFE);
    for (let budget = 0; budget <= 2000; budget += 50) {
      const messages = load('ledger.anthropic');
      const objects = messages.slice();
      const report = await new Compactor({ summarize: recorder(), keepTail: { tokens: budget }, keepRecent: 100 }).compact(messages, { force: true });
      assert.equal(report.compacted, true, `budget ${budget}: ${report.reason}`);
      const tail = keptTail(messages, objects);
      assert.ok(estimateTokens(tail, SAFE) <= Math.max(budget, pendingCost), `budget ${budget}: tail ${estimateTokens(tail, SAFE)}`);
    }
  });

  test('the default keepTail is a fifth of the threshold', async () => {
    // threshold 5000: the tail holds up to 1000 tokens; the whole ledger (4,900 with keepRecent 100) does not fit it.
    const messages = load('ledger.anthropic');
    const objects = messages.slice();
    const report = await new Compactor({ summarize: recorder(), threshold: 5000, keepRecent: 100 }).compact(messages, { force: true });
    assert.equal(report.compacted, true);
    const tail = keptTail(messages, objects);
    assert.ok(tail.length > 1);
    assert.ok(estimateTokens(tail, SAFE) <= 1000);
    const same = load('ledger.anthropic');
    await new Compactor({ summarize: recorder(), threshold: 5000, keepTail: { tokens: 1000 }, keepRecent: 100 }).compact(same, { force: true });
    assert.equal(same.length, messages.length);
  });

  test('/compact on a conversation that fits the tail still folds its older part: the tail shrinks to at most half, and the report says so', async () => {
    const summarize = recorder();
    const messages = load('ledger.anthropic');
    const before = estimateTokens(messages, { profile: 'safe' });
    const report = await new Compactor({ summarize, keepRecent: 100 }).compact(messages, { force: true }); // keepTail 10,000 > the whole ledger
    assert.equal(report.compacted, true);
    assert.equal(report.tailShrunk, true);
    assert.equal(summarize.calls.length, 1);
    assert.ok(report.summarizedMessages > 0);
    const at = messages.findIndex((m) => typeof m.content === 'string' && m.content.startsWith(MARK));
    const original = load('ledger.anthropic');
    // The tail is what follows the summary (and its acknowledgement, when there is one): the original's last messages.
    const tailStart = messages[at + 1].role === 'assistant' && original.length >= messages.length - at - 1
      && JSON.stringify(messages[at + 1]) !== JSON.stringify(original[original.length - (messages.length - at - 1)]) ? at + 2 : at + 1;
    const tail = messages.slice(tailStart);
    assert.ok(tail.length > 0);
    assert.ok(estimateTokens(tail, { profile: 'safe' }) <= Math.ceil(before / 2), 'the kept tail is at most half the conversation');
    assert.deepStrictEqual(tail, original.slice(-tail.length), 'the tail is kept verbatim');
  });

  test('without force, a conversation under the threshold is not compacted and the tail is not shrunk', async () => {
    const summarize = recorder();
    const messages = load('ledger.anthropic');
    const report = await new Compactor({ summarize }).compact(messages);
    assert.equal(report.compacted, false);
    assert.equal(report.reason, 'below-threshold');
    assert.equal(report.tailShrunk, undefined);
    assert.equal(summarize.calls.length, 0);
  });

  test("a lone pending user message has nothing to summarize", async () => {
    const messages = [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'Hello?' }];
    const copy = structuredClone(messages);
    const report = await new Compactor({ summarize: recorder(), keepTail: { tokens: 0 } }).compact(messages, { force: true });
    assert.equal(report.reason, 'nothing-to-summarize');
    assert.deepStrictEqual(messages, copy);
  });
});

describe('the summary request', () => {
  test('holds a system prompt, maxTokens = maxSummaryTokens, and the serialized middle in the prompt', async () => {
    const messages = load('ledger.anthropic');
    const summarize = recorder();
    let removed;
    await new Compactor({ summarize, keepTail: { tokens: 0 }, keepRecent: 100, maxSummaryTokens: 345, onArchive: (r) => { removed = r; } })
      .compact(messages, { force: true });
    const [request] = summarize.calls;
    assert.equal(typeof request.system, 'string');
    assert.ok(request.system.length > 20);
    assert.equal(request.maxTokens, 345);
    assert.ok(request.prompt.includes(serialize(removed, { format: 'anthropic' })));
  });

  test('the prompt asks to keep decisions, open bugs, progress, goals and exact identifiers, and to drop dead ends', async () => {
    const summarize = recorder();
    await new Compactor({ summarize, keepTail: { tokens: 0 } }).compact(load('ledger.anthropic'), { force: true });
    const { instructions } = splitPrompt(summarize.calls[0].prompt);
    for (const word of [/decision/i, /bug|blocker/i, /test/i, /goal/i, /path/i, /dead end|tried/i])
      assert.match(instructions, word);
  });

  test('the prompt names the summary length', async () => {
    const summarize = recorder();
    await new Compactor({ summarize, maxSummaryTokens: 1234, keepTail: { tokens: 0 } }).compact(load('ledger.anthropic'), { force: true });
    assert.match(splitPrompt(summarize.calls[0].prompt).instructions, /1234/);
  });

  test('the summarizer is given the abort signal of the compaction', async () => {
    const summarize = recorder();
    await new Compactor({ summarize, keepTail: { tokens: 0 } }).compact(load('ledger.anthropic'), { force: true });
    assert.ok(summarize.calls[0].signal instanceof AbortSignal);
  });

  test('the pending user turn is not in the transcript', async () => {
    const summarize = recorder();
    const messages = load('ledger.anthropic');
    await new Compactor({ summarize, keepTail: { tokens: 0 } }).compact(messages, { force: true });
    assert.ok(!summarize.calls[0].prompt.includes('add a CHANGELOG entry under 2.4.0'));
    assert.ok(summarize.calls[0].prompt.includes('npm test has been failing on main since PR #412'));
  });
});

describe('mid-tool-loop: the conversation ends with tool results', () => {
  for (const format of FORMATS) {
    test(`${format}: the tail keeps the assistant call message and every result, and no acknowledgement is added`, async () => {
      const messages = load(`ledger-loop.${format}`);
      const original = messages.slice();
      // The call message is the last assistant message; its results follow it.
      const callAt = original.findLastIndex((m) => m.role === 'assistant');
      const tail = original.slice(callAt);
      const report = await new Compactor({ summarize: recorder('S'), keepTail: { tokens: 0 } }).compact(messages, { force: true });
      assert.equal(report.compacted, true);
      const h = headCount(messages);
      // An AI SDK tail whose messages all have array content gets the summary as a text part.
      const summaryContent = format === 'ai-sdk' ? [{ type: 'text', text: `${MARK}\nS` }] : `${MARK}\nS`;
      assert.deepStrictEqual(messages[h], { role: 'user', content: summaryContent });
      assert.equal(messages.length, h + 1 + tail.length);
      tail.forEach((m, i) => assert.equal(messages[h + 1 + i], m));
      assert.equal(messages[h + 1].role, 'assistant');
    });

    test(`${format}: the result validates`, async () => {
      const messages = load(`ledger-loop.${format}`);
      await new Compactor({ summarize: recorder(), keepTail: { tokens: 0 } }).compact(messages, { force: true });
      assert.deepStrictEqual(validate(messages, { format }).problems, []);
    });

    test(`${format}: with the default keepTail it still validates and ends with the same results`, async () => {
      const messages = load(`ledger-loop.${format}`);
      const last = messages.at(-1);
      await new Compactor({ summarize: recorder(), keepTail: { tokens: 400 } }).compact(messages, { force: true });
      assert.equal(messages.at(-1), last);
      assert.deepStrictEqual(validate(messages, { format }).problems, []);
    });
  }

  test('with the default keepRecent, the pending results reach the model whole', async () => {
    const messages = load('ledger-loop.anthropic');
    const original = load('ledger-loop.anthropic');
    await new Compactor({ summarize: recorder(), keepTail: { tokens: 0 } }).compact(messages, { force: true });
    assert.deepStrictEqual(messages.at(-1), original.at(-1));
    assert.deepStrictEqual(messages.at(-2), original.at(-2));
  });
});

describe('cuts never separate a tool call from its result', () => {
  for (const name of ['ledger.anthropic', 'ledger.openai', 'ledger.ai-sdk', 'ledger-loop.openai', 'admin-web-zh.openai']) {
    test(`${name}: for every keepTail budget the head, the folded middle and the tail partition the original list`, async () => {
      const total = estimateTokens(load(name), SAFE);
      for (let budget = 0; budget <= total + 100; budget += 37) {
        const messages = load(name);
        const original = messages.slice();
        let removed = [];
        const report = await new Compactor({ summarize: recorder('S'), keepTail: { tokens: budget }, onArchive: (r) => { removed = r; } })
          .compact(messages, { force: true });
        if (!report.compacted) {
          assert.equal(report.reason, 'nothing-to-summarize', `budget ${budget}`);
          continue;
        }
        const h = headCount(messages);
        const tailFrom = original.includes(messages[h + 1]) ? h + 1 : h + 2; // after the acknowledgement, if any
        const kept = [...messages.slice(0, h), ...removed, ...messages.slice(tailFrom)];
        assert.deepStrictEqual(kept.map((m) => original.indexOf(m)), original.map((_, i) => i), `budget ${budget}`);
        assert.deepStrictEqual(validate(messages).problems, [], `budget ${budget}`);
      }
    });
  }

  test('parallel calls: an assistant message with three tool calls and its results are folded or kept together', async () => {
    const original = load('ledger.anthropic');
    const parallelAt = original.findIndex((m) => m.role === 'assistant' && m.content.filter((b) => b.type === 'tool_use').length === 3);
    assert.ok(parallelAt > 0);
    const total = estimateTokens(original, SAFE);
    let sawFolded = false, sawKept = false;
    for (let budget = 0; budget <= total; budget += 23) {
      const messages = load('ledger.anthropic');
      const objects = messages.slice();
      await new Compactor({ summarize: recorder(), keepTail: { tokens: budget }, keepRecent: 100 }).compact(messages, { force: true });
      const callKept = messages.includes(objects[parallelAt]);
      const resultsKept = messages.includes(objects[parallelAt + 1]);
      assert.equal(callKept, resultsKept, `budget ${budget}`);
      if (callKept) sawKept = true; else sawFolded = true;
    }
    assert.ok(sawFolded && sawKept, 'the sweep covered both sides of the parallel calls');
  });

  test('OpenAI parallel calls: the assistant message and all its tool messages stay on one side', async () => {
    const original = load('ledger.openai');
    const parallelAt = original.findIndex((m) => m.tool_calls && m.tool_calls.length === 3);
    const total = estimateTokens(original, SAFE);
    for (let budget = 0; budget <= total; budget += 23) {
      const messages = load('ledger.openai');
      const objects = messages.slice();
      await new Compactor({ summarize: recorder(), keepTail: { tokens: budget }, keepRecent: 100 }).compact(messages, { force: true });
      const sides = [0, 1, 2, 3].map((k) => messages.includes(objects[parallelAt + k]));
      assert.ok(sides.every((s) => s === sides[0]), `budget ${budget}: ${sides}`);
    }
  });
});

describe('system messages', () => {
  for (const format of ['anthropic', 'openai']) {
    test(`${format}: a system message in the middle of the list is kept, after the first, before the summary`, async () => {
      const messages = load(`ledger-midsystem.${format}`);
      const systems = messages.filter((m) => m.role === 'system');
      assert.equal(systems.length, 2);
      assert.ok(messages.indexOf(systems[1]) > 5);
      await new Compactor({ summarize: recorder(), keepTail: { tokens: 0 } }).compact(messages, { force: true });
      assert.equal(messages[0], systems[0]);
      assert.equal(messages[1], systems[1]);
      assert.ok(messages[2].content.startsWith(MARK));
      assert.deepStrictEqual(validate(messages, { format }).problems, []);
    });

    test(`${format}: system messages are not summarized (not in the transcript)`, async () => {
      const messages = load(`ledger-midsystem.${format}`);
      const [a, b] = messages.filter((m) => m.role === 'system').map((m) => m.content);
      const summarize = recorder();
      await new Compactor({ summarize, keepTail: { tokens: 0 } }).compact(messages, { force: true });
      const { prompt } = summarize.calls[0];
      assert.ok(!prompt.includes(b), 'the mid-list system message is in the prompt');
      assert.ok(!prompt.includes(a.slice(0, 40)), 'the first system message is in the prompt');
      assert.ok(!prompt.includes('[system]'));
    });

    test(`${format}: system messages are never edited`, async () => {
      const messages = load(`ledger-midsystem.${format}`);
      const before = structuredClone(messages.filter((m) => m.role === 'system'));
      await new Compactor({ summarize: recorder(), keepTail: { tokens: 0 } }).compact(messages, { force: true });
      assert.deepStrictEqual(messages.filter((m) => m.role === 'system'), before);
    });
  }

  test('the archive never receives a system message', async () => {
    let removed;
    await new Compactor({ summarize: recorder(), keepTail: { tokens: 0 }, onArchive: (r) => { removed = r; } })
      .compact(load('ledger-midsystem.openai'), { force: true });
    assert.ok(removed.length > 0);
    assert.ok(removed.every((m) => m.role !== 'system'));
  });
});

describe('language', () => {
  for (const format of ['anthropic', 'openai']) {
    test(`${format}: a Chinese conversation gets the Chinese acknowledgement`, async () => {
      const messages = load(`admin-web-zh.${format}`);
      const report = await new Compactor({ summarize: recorder('摘要'), keepTail: { tokens: 0 } }).compact(messages, { force: true });
      assert.equal(report.compacted, true);
      assert.deepStrictEqual(messages[2], acknowledgement(format, ACK_ZH));
    });

    test(`${format}: a Chinese conversation gets Chinese instructions and a Chinese system prompt`, async () => {
      const summarize = recorder();
      await new Compactor({ summarize, keepTail: { tokens: 0 } }).compact(load(`admin-web-zh.${format}`), { force: true });
      const { system, prompt } = summarize.calls[0];
      const { instructions } = splitPrompt(prompt);
      assert.ok(cjkCount(instructions) > 3 * alnumCount(instructions), instructions);
      assert.ok(cjkCount(system) > 3 * alnumCount(system), system);
      assert.ok(!/\bSummarize\b|\bKeep\b/.test(instructions));
    });
  }

  test("language: 'en' forces English on a Chinese conversation", async () => {
    const messages = load('admin-web-zh.anthropic');
    const summarize = recorder();
    const report = await new Compactor({ summarize, language: 'en', keepTail: { tokens: 0 } }).compact(messages, { force: true });
    assert.equal(report.language, 'en');
    assert.equal(cjkCount(summarize.calls[0].system), 0);
    assert.equal(cjkCount(splitPrompt(summarize.calls[0].prompt).instructions), 0);
    assert.equal(messages[2].role, 'assistant');
    assert.equal(cjkCount(messages[2].content), 0);
  });

  test("language: 'zh' forces Chinese on an English conversation", async () => {
    const messages = load('ledger.anthropic');
    await new Compactor({ summarize: recorder(), language: 'zh', keepTail: { tokens: 0 } }).compact(messages, { force: true });
    assert.equal(textOf(messages[2]), ACK_ZH);
  });

  test("language: 'zh-CN' counts as Chinese", async () => {
    const messages = load('ledger.openai');
    await new Compactor({ summarize: recorder(), language: 'zh-CN', keepTail: { tokens: 0 } }).compact(messages, { force: true });
    assert.equal(messages[2].content, ACK_ZH);
  });

  test("another language code ('fr') is passed to the summarizer in the instructions", async () => {
    const summarize = recorder();
    await new Compactor({ summarize, language: 'fr', keepTail: { tokens: 0 } }).compact(load('ledger.anthropic'), { force: true });
    assert.match(splitPrompt(summarize.calls[0].prompt).instructions, /\bfr\b/);
  });

  test('the language is the user\'s: Chinese tool output under English requests stays English', async () => {
    const messages = load('locales-en-user.anthropic');
    const summarize = recorder();
    const report = await new Compactor({ summarize, keepTail: { tokens: 0 } }).compact(messages, { force: true });
    assert.ok(cjkCount(summarize.calls[0].prompt) > alnumCount(messages.at(-1).content), 'the fixture has Chinese tool output');
    assert.equal(report.language, 'en');
    assert.equal(cjkCount(messages[2].content), 0);
    assert.equal(cjkCount(splitPrompt(summarize.calls[0].prompt).instructions), 0);
  });

  test('the language is the user\'s: a Codex rollout\'s English AGENTS.md and <environment_context> leave a Chinese user\'s summary Chinese', async () => {
    const say = (role, text) => ({ type: 'message', role, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }] });
    const agents = '## Build\n- Run `pytest tests/unit` and `mypy etl` before every commit; both must be clean.\n' +
      '## Conventions\n- Complete type annotations everywhere; no bare except clauses; log with structlog, never print.\n';
    const messages = [
      say('developer', '<permissions instructions>\nThe sandbox permits reading files and editing files in cwd.\n</permissions instructions>'),
      say('user', `# AGENTS.md instructions for /data/work/orders-etl\n\n<INSTRUCTIONS>\n${agents.repeat(3)}</INSTRUCTIONS>`),
      say('user', '<environment_context>\n  <cwd>/data/work/orders-etl</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <shell>bash</shell>\n</environment_context>'),
      say('user', '把每日订单同步到 ClickHouse 的 ETL 写完，按天抽取。'),
      say('assistant', '好的，先看 etl/extract.py。'),
      say('user', '继续'),
    ];
    const summarize = recorder();
    const report = await new Compactor({ summarize, keepTail: { tokens: 0 } }).compact(messages, { force: true });
    assert.equal(report.language, 'zh');
    assert.ok(cjkCount(splitPrompt(summarize.calls[0].prompt).instructions) > 0);
  });

  test("report.language is 'zh' for the Chinese conversation", async () => {
    const report = await new Compactor({ keepTail: { tokens: 0 }, summarize: recorder() }).compact(load('admin-web-zh.openai'), { force: true });
    assert.equal(report.language, 'zh');
  });
});

describe('instructions (a focus)', () => {
  test('the constructor option appears in the prompt, before the transcript', async () => {
    const summarize = recorder();
    const focus = 'the exact environment variable names of the export config';
    await new Compactor({ keepTail: { tokens: 0 }, summarize, instructions: focus }).compact(load('ledger.anthropic'), { force: true });
    assert.ok(splitPrompt(summarize.calls[0].prompt).instructions.includes(focus));
  });

  test('compact(messages, {instructions}) appears in the prompt, before the transcript', async () => {
    const summarize = recorder();
    const focus = 'what remains to do before the 2.4.0 release';
    await new Compactor({ keepTail: { tokens: 0 }, summarize }).compact(load('ledger.anthropic'), { force: true, instructions: focus });
    assert.ok(splitPrompt(summarize.calls[0].prompt).instructions.includes(focus));
  });

  test('both appear when both are given', async () => {
    const summarize = recorder();
    await new Compactor({ keepTail: { tokens: 0 }, summarize, instructions: 'FOCUS-ONE' }).compact(load('ledger.anthropic'), { force: true, instructions: 'FOCUS-TWO' });
    const { instructions } = splitPrompt(summarize.calls[0].prompt);
    assert.ok(instructions.includes('FOCUS-ONE') && instructions.includes('FOCUS-TWO'));
  });

  test('a per-call focus does not stick to later compactions', async () => {
    const summarize = recorder();
    const c = new Compactor({ keepTail: { tokens: 0 }, summarize });
    await c.compact(load('ledger.anthropic'), { force: true, instructions: 'ONLY-THIS-TIME' });
    await c.compact(load('ledger.anthropic'), { force: true });
    assert.ok(!summarize.calls[1].prompt.includes('ONLY-THIS-TIME'));
  });

  test('a Chinese focus in a Chinese conversation is passed as written', async () => {
    const summarize = recorder();
    await new Compactor({ keepTail: { tokens: 0 }, summarize }).compact(load('admin-web-zh.anthropic'), { force: true, instructions: '重点保留时区相关的改动' });
    assert.ok(splitPrompt(summarize.calls[0].prompt).instructions.includes('重点保留时区相关的改动'));
  });
});

describe('three compactions in a row', () => {
  /** New turns, as a host would append them after the model answered the pending message. */
  function nextTurns(format, n) {
    const id = `${format === 'anthropic' ? 'toolu' : 'call'}_round${n}`;
    const say = `Round ${n}: CHANGELOG updated and lint is clean.`;
    const ask = `Round ${n}: now bump the version to 2.4.${n}.`;
    const cmd = { command: `npm version 2.4.${n} --no-git-tag-version` };
    const out = `v2.4.${n}`;
    if (format === 'anthropic') {
      return [
        { role: 'assistant', content: [{ type: 'text', text: say }, { type: 'tool_use', id, name: 'bash', input: cmd }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: out }] },
        { role: 'assistant', content: [{ type: 'text', text: `Version is ${out}.` }] },
        { role: 'user', content: ask },
      ];
    }
    if (format === 'openai') {
      return [
        { role: 'assistant', content: say, tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: JSON.stringify(cmd) } }] },
        { role: 'tool', tool_call_id: id, content: out },
        { role: 'assistant', content: `Version is ${out}.` },
        { role: 'user', content: ask },
      ];
    }
    return [
      { role: 'assistant', content: [{ type: 'text', text: say }, { type: 'tool-call', toolCallId: id, toolName: 'bash', input: cmd }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'bash', output: { type: 'text', value: out } }] },
      { role: 'assistant', content: [{ type: 'text', text: `Version is ${out}.` }] },
      { role: 'user', content: ask },
    ];
  }

  for (const format of FORMATS) {
    test(`${format}: each transcript holds the previous summary; the result validates and stays bounded`, async () => {
      const messages = load(`ledger.${format}`);
      const summarize = recorder((req, n) => `SUMMARY-${n}: the export keeps refunds; delimiter configurable.`);
      const c = new Compactor({ summarize, keepTail: { tokens: 0 } });
      for (let round = 1; round <= 3; round++) {
        if (round > 1) messages.push(...nextTurns(format, round));
        const report = await c.compact(messages, { force: true });
        assert.equal(report.compacted, true, `round ${round}`);
        assert.equal(messages.length, 4, `round ${round}`);
        assert.deepStrictEqual(validate(messages, { format }).problems, [], `round ${round}`);
        assert.equal(messages[1].content, `${MARK}\nSUMMARY-${round}: the export keeps refunds; delimiter configurable.`);
        if (round > 1) {
          const { transcript } = splitPrompt(summarize.calls[round - 1].prompt);
          assert.ok(transcript.includes(`${MARK}\nSUMMARY-${round - 1}:`), `round ${round}: the earlier summary is not in the transcript`);
          assert.ok(transcript.includes(`Round ${round}: CHANGELOG updated`));
        }
      }
      assert.equal(summarize.calls.length, 3);
    });
  }

  test('the earlier summary does not count as the user\'s language', async () => {
    // An English conversation whose earlier summary is Chinese (written by a zh-forced compaction) stays English.
    const messages = load('ledger.anthropic');
    await new Compactor({ summarize: recorder('之前的工作：修复了导出 CSV 时丢失退款记录的问题，分隔符改为可配置。'.repeat(8)), language: 'zh', keepTail: { tokens: 0 } })
      .compact(messages, { force: true });
    messages.push(...nextTurns('anthropic', 2));
    const report = await new Compactor({ summarize: recorder(), keepTail: { tokens: 0 } }).compact(messages, { force: true });
    assert.equal(report.language, 'en');
  });

  test('a compaction right after another, with nothing new, has nothing to summarize and changes nothing', async () => {
    const messages = load('ledger.anthropic');
    const summarize = recorder();
    const c = new Compactor({ summarize, keepTail: { tokens: 0 } });
    await c.compact(messages, { force: true });
    const after = messages.slice();
    const report = await c.compact(messages, { force: true });
    assert.equal(report.compacted, false);
    assert.equal(report.reason, 'nothing-to-summarize');
    assert.equal(summarize.calls.length, 1);
    assert.deepStrictEqual(messages, after);
  });
});

describe('onArchive', () => {
  test('receives the original message objects that were folded, in order, and the summary', async () => {
    const messages = load('ledger.anthropic');
    const original = messages.slice();
    const calls = [];
    await new Compactor({ summarize: recorder('THE SUMMARY'), keepTail: { tokens: 0 }, onArchive: (...args) => calls.push(args) })
      .compact(messages, { force: true });
    assert.equal(calls.length, 1);
    const [removed, summary] = calls[0];
    assert.equal(summary, 'THE SUMMARY');
    assert.equal(removed.length, original.length - 2);
    removed.forEach((m, i) => assert.equal(m, original[i + 1]));
  });

  test('the archived tool results are whole, not micro-truncated', async () => {
    const messages = load('ledger.anthropic');
    const pristine = load('ledger.anthropic');
    let removed;
    await new Compactor({ summarize: recorder(), keepTail: { tokens: 0 }, onArchive: (r) => { removed = r; } }).compact(messages, { force: true });
    assert.deepStrictEqual(removed, pristine.slice(1, -1));
    assert.ok(!JSON.stringify(removed).includes('[truncated:'));
  });

  test('is not called when nothing was compacted', async () => {
    let called = 0;
    await new Compactor({ summarize: recorder(), threshold: 1_000_000, onArchive: () => { called++; } }).compact(load('ledger.anthropic'));
    await new Compactor({ keepTail: { tokens: 0 }, summarize: recorder(''), onArchive: () => { called++; } }).compact(load('ledger.anthropic'), { force: true });
    assert.equal(called, 0);
  });

  test('an onArchive that throws does not undo the compaction; onWarn hears of it', async () => {
    const messages = load('ledger.anthropic');
    const warnings = [];
    const report = await new Compactor({
      summarize: recorder(), keepTail: { tokens: 0 },
      onArchive: () => { throw new Error('disk full'); }, onWarn: (m, e) => warnings.push([m, e]),
    }).compact(messages, { force: true });
    assert.equal(report.compacted, true);
    assert.equal(messages.length, 4);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0][1].message, 'disk full');
  });
});

test('excludeTools: the Compactor\'s micro-compaction never clears those tools\' results, as microCompact\'s', async () => {
  const messages = load('ledger.anthropic');
  const tools = new Set();
  for (const m of messages) if (Array.isArray(m.content)) for (const b of m.content) if (b.type === 'tool_use') tools.add(b.name);
  const [kept] = [...tools];
  const options = { summarize: recorder(), threshold: 1_000_000, microTrigger: 1, clearAtLeast: 1, keepRecent: 0 };
  const all = await new Compactor(options).compact(structuredClone(messages));
  const some = await new Compactor({ ...options, excludeTools: [kept] }).compact(messages);
  assert.ok(all.micro.edits.some((e) => e.tool === kept), `${kept} results are cleared without the option`);
  assert.ok(some.micro.cleared > 0 && some.micro.edits.every((e) => e.tool !== kept));
});

describe('observeUsage', () => {
  test("a later compact's tokensBefore is inputTokens plus the estimate of the messages appended since", async () => {
    const messages = load('ledger.anthropic');
    const c = new Compactor({ summarize: recorder(), threshold: 1_000_000, keepRecent: 100 });
    c.observeUsage({ inputTokens: 41_873, messages });
    const appended = [
      { role: 'assistant', content: [{ type: 'text', text: 'CHANGELOG entry added under 2.4.0; eslint reports no problems.' }] },
      { role: 'user', content: 'Thanks. Commit it as "Keep refunds in the CSV export; configurable delimiter".' },
    ];
    messages.push(...appended);
    const report = await c.compact(messages);
    assert.equal(report.tokensBefore, 41_873 + estimateTokens(appended, { ...SAFE, format: 'anthropic' }));
  });

  test('with nothing appended, tokensBefore is exactly the provider\'s count', async () => {
    const messages = load('ledger.openai');
    const c = new Compactor({ summarize: recorder(), threshold: 1_000_000, keepRecent: 100 });
    c.observeUsage({ inputTokens: 7777, messages });
    assert.equal((await c.compact(messages)).tokensBefore, 7777);
  });

  test('the provider\'s count decides the threshold: over it, the conversation is compacted', async () => {
    const messages = load('ledger.anthropic');
    const summarize = recorder();
    const c = new Compactor({ summarize, threshold: 50_000, keepRecent: 100, keepTail: { tokens: 0 } });
    assert.equal((await c.compact(load('ledger.anthropic'))).reason, 'below-threshold');
    c.observeUsage({ inputTokens: 61_000, messages });
    const report = await c.compact(messages);
    assert.equal(report.compacted, true);
    assert.equal(summarize.calls.length, 1);
  });

  test('observeUsage({count}): only the first count messages were sent; the rest is estimated', async () => {
    const messages = load('ledger.anthropic');
    const c = new Compactor({ summarize: recorder(), threshold: 1_000_000, keepRecent: 100 });
    c.observeUsage({ inputTokens: 5000, messages, count: messages.length - 1 });
    assert.equal((await c.compact(messages)).tokensBefore, 5000 + estimateTokens([messages.at(-1)], { ...SAFE, format: 'anthropic' }));
  });

  test('after a compaction the old provider count no longer applies', async () => {
    const messages = load('ledger.anthropic');
    const c = new Compactor({ summarize: recorder(), keepTail: { tokens: 0 }, threshold: 1_000_000 });
    c.observeUsage({ inputTokens: 90_000, messages });
    assert.equal((await c.compact(messages, { force: true })).compacted, true);
    const report = await c.compact(messages);
    assert.equal(report.tokensBefore, estimateTokens(messages, SAFE));
  });

  test('compact(messages, {usage}): the count is this call\'s alone, whatever other conversations one Compactor serves meanwhile', async () => {
    const c = new Compactor({ summarize: recorder(), threshold: 50_000, keepRecent: 100, keepTail: { tokens: 0 } });
    const long = load('ledger.anthropic');
    const short = load('ledger.openai');
    // Started together (a server's two requests): observeUsage before each would let the second replace the first.
    const [a, b] = await Promise.all([
      c.compact(long, { usage: { inputTokens: 61_000 } }),
      c.compact(short, { usage: { inputTokens: 2_000, count: short.length - 1 } }),
    ]);
    assert.equal(a.tokensBefore, 61_000);
    assert.equal(a.compacted, true);
    assert.equal(b.tokensBefore, 2_000 + estimateTokens([short.at(-1)], { ...SAFE, format: 'openai' }));
    assert.equal(b.compacted, false);
    await assert.rejects(c.compact(short, { usage: { inputTokens: -1 } }), (e) => e.code === 'invalid-option');
    await assert.rejects(c.compact(short, { usage: { inputTokens: 5, count: short.length + 1 } }), (e) => e.code === 'invalid-option');
  });

  test('a clearing under a provider count below the estimate leaves its share of that count, never 0', async () => {
    // The savings are measured by the estimator: scaled to the provider's count as the tail budget is. Subtracting
    // them as they were gave 0 tokens after a clearing when the provider counted less than the estimate.
    const messages = load('ledger.anthropic');
    const estimated = estimateTokens(messages, SAFE);
    const c = new Compactor({ summarize: recorder(), threshold: 1_000_000, keepRecent: 1, microTrigger: 1, clearAtLeast: 1 });
    const inputTokens = Math.floor(estimated / 3);
    c.observeUsage({ inputTokens, messages });
    const report = await c.compact(messages);
    assert.ok(report.micro.cleared > 0);
    assert.equal(report.tokensBefore, inputTokens);
    const share = report.micro.tokensAfter / report.micro.tokensBefore;
    assert.ok(Math.abs(report.tokensAfter - inputTokens * share) <= 1, `${report.tokensAfter} of ${inputTokens}, the clearing left ${share.toFixed(3)} of the estimate`);
  });

  test('once the observed prefix was changed by the host, the heuristic estimate is used again', async () => {
    const messages = load('ledger.anthropic');
    const c = new Compactor({ summarize: recorder(), threshold: 1_000_000, keepRecent: 100 });
    c.observeUsage({ inputTokens: 99_999, messages });
    messages[messages.length - 1] = { role: 'user', content: 'Actually, skip the changelog.' };
    const report = await c.compact(messages);
    assert.equal(report.tokensBefore, estimateTokens(messages, SAFE));
  });

  test('the observation applies only to the array it was made for', async () => {
    const messages = load('ledger.anthropic');
    const other = load('ledger.anthropic');
    const c = new Compactor({ summarize: recorder(), threshold: 1_000_000, keepRecent: 100 });
    c.observeUsage({ inputTokens: 99_999, messages });
    assert.equal((await c.compact(other)).tokensBefore, estimateTokens(other, SAFE));
  });

  test('a sub-agent\'s Compactor never touches the parent\'s messages or its usage record', async () => {
    const parent = load('ledger.anthropic');
    const parentCopy = structuredClone(parent);
    const parentObjects = parent.slice();
    const parentCompactor = new Compactor({ summarize: recorder(), threshold: 1_000_000, keepRecent: 100 });
    parentCompactor.observeUsage({ inputTokens: 12_345, messages: parent });

    const child = load('admin-web-zh.openai');
    const childSummarize = recorder('子任务摘要');
    const childCompactor = new Compactor({ summarize: childSummarize, keepTail: { tokens: 0 }, instructions: 'CHILD-FOCUS', keepRecent: 0 });
    const childReport = await childCompactor.compact(child, { force: true });
    assert.equal(childReport.compacted, true);

    assert.deepStrictEqual(parent, parentCopy);
    parent.forEach((m, i) => assert.equal(m, parentObjects[i]));
    assert.equal((await parentCompactor.compact(parent)).tokensBefore, 12_345);
  });
});

describe('the estimator profile', () => {
  test("the default is 'safe': reports are in its tokens, which exceed the reference profile's here", async () => {
    const report = await new Compactor({ summarize: recorder(), threshold: 1_000_000, keepRecent: 100 }).compact(load('ledger.anthropic'));
    assert.equal(report.tokensBefore, estimateTokens(load('ledger.anthropic'), SAFE));
    assert.ok(report.tokensBefore > estimateTokens(load('ledger.anthropic'), { profile: 'bareagent' }));
  });

  test('an explicit profile is used for the reports, the threshold and the rebuilt estimate', async () => {
    for (const profile of ['bareagent', 'o200k', 'claude']) {
      const messages = load('ledger.anthropic');
      const before = estimateTokens(messages, { profile });
      const report = await new Compactor({ summarize: recorder(), profile, keepTail: { tokens: 0 } }).compact(messages, { force: true });
      assert.equal(report.tokensBefore, before, profile);
      assert.equal(report.tokensAfter, estimateTokens(messages, { profile }), profile);
    }
  });

  test('the threshold is compared in the profile in use: between the two estimates, only the default compacts', async () => {
    // 'every-turn' so that micro-compaction runs the same below and above the threshold.
    const afterMicro = async (profile) =>
      (await new Compactor({ summarize: recorder(), threshold: 1_000_000, profile, policy: 'every-turn' }).compact(load('ledger.anthropic'))).tokensAfter;
    const reference = await afterMicro('bareagent');
    const safe = await afterMicro('safe');
    assert.ok(reference < safe);
    const threshold = reference;
    const byDefault = await new Compactor({ summarize: recorder(), threshold, policy: 'every-turn' }).compact(load('ledger.anthropic'));
    const byReference = await new Compactor({ summarize: recorder(), threshold, profile: 'bareagent', policy: 'every-turn' }).compact(load('ledger.anthropic'));
    assert.equal(byDefault.reason, 'compacted');
    assert.equal(byReference.reason, 'below-threshold');
  });
});

describe('the shared fixtures (tests/fixtures/*.json)', () => {
  const names = readdirSync(new URL('../fixtures/', import.meta.url)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
  for (const name of names) {
    test(`${name}: a valid conversation stays valid after a forced compaction, keeping its system messages first`, async () => {
      const messages = loadShared(name);
      if (!Array.isArray(messages) || !validate(messages).ok) return; // not a valid conversation to begin with
      const systems = messages.filter((m) => m.role === 'system');
      for (const budget of [0, 200, 1000]) {
        const copy = loadShared(name);
        const report = await new Compactor({ summarize: recorder('S'), keepTail: { tokens: budget } }).compact(copy, { force: true });
        if (!report.compacted) {
          // (a middle shorter than its summary is not folded: no-gain, nothing changed)
          assert.ok(['nothing-to-summarize', 'no-gain'].includes(report.reason), report.reason);
          if (report.reason === 'no-gain') assert.deepStrictEqual(copy, loadShared(name));
          continue;
        }
        assert.deepStrictEqual(validate(copy).problems, [], `keepTail ${budget}`);
        assert.deepStrictEqual(copy.slice(0, systems.length), systems);
        assert.equal(copy[systems.length].content, `${MARK}\nS`);
      }
    });
  }
});

describe('a fold leaves the conversation in its format, at any size', async () => {
  const { detectFormat } = await import('../../js/hosts/node.js');
  const { modelMessageSchema } = await import('ai');
  const sig = (n) => `EqQBCkgIARABGAIiQ${n}L2vX3c9Zk1mWq8pR`;
  const ANSWER_1 = 'Take a snapshot of orders first, run the migration inside a transaction per batch of 10,000 rows, and keep the old column until the backfill is verified; to roll back, stop the workers, restore the column from the snapshot and redeploy the previous release.';
  const ANSWER_2 = 'Then the backfill marks its last committed batch in migration_state: resume from there, or restore the untouched batches from the snapshot and drop the new column. Never run both directions at once.';
  const SUMMARY = 'Rollback plan for the orders migration: snapshot, batched backfill, restore from the snapshot.';
  // Short real-life conversations whose format shows only in the part a fold takes away.
  const CASES = {
    'anthropic (thinking only)': [
      { role: 'user', content: 'Draft a rollback plan for the orders table migration.' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'A plan needs a snapshot, batches and a way back.', signature: sig(1) }, { type: 'text', text: ANSWER_1 }] },
      { role: 'user', content: 'What if the backfill is half done when it fails?' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'Partial state: resume or restore.', signature: sig(2) }, { type: 'text', text: ANSWER_2 }] },
      { role: 'user', content: 'OK. Write it as a checklist.' },
    ],
    'anthropic (a tool loop, Chinese)': [
      { role: 'user', content: '帮我看看 orders 表迁移脚本有没有回滚步骤。' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01A', name: 'read_file', input: { path: 'migrations/0042_orders.sql' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A', content: 'ALTER TABLE orders ADD COLUMN total_cents bigint;\nUPDATE orders SET total_cents = round(total * 100);\n-- no down migration' }] },
      { role: 'assistant', content: '脚本只有升级步骤，没有回滚：需要补一个 down 迁移，先恢复 total 列再删除 total_cents。' },
      { role: 'user', content: '那就补上吧。' },
    ],
    'ai-sdk': [
      { role: 'user', content: 'Draft a rollback plan for the orders table migration.' },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'A plan needs a snapshot, batches and a way back.', providerOptions: { anthropic: { signature: sig(1) } } }, { type: 'text', text: ANSWER_1 }] },
      { role: 'user', content: 'What if the backfill is half done when it fails?' },
      { role: 'assistant', content: [{ type: 'text', text: ANSWER_2 }] },
      { role: 'user', content: 'OK. Write it as a checklist.' },
    ],
    'openai-responses': [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Draft a rollback plan for the orders table migration.' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: ANSWER_1, annotations: [] }] },
      { role: 'user', content: 'What if the backfill is half done when it fails?' },
      { role: 'assistant', content: ANSWER_2 },
      { role: 'user', content: 'OK. Write it as a checklist.' },
    ],
    'ai-sdk-ui': [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Draft a rollback plan for the orders table migration.' }] },
      { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: ANSWER_1 }] },
      { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'What if the backfill is half done when it fails?' }] },
      { id: 'a2', role: 'assistant', parts: [{ type: 'text', text: ANSWER_2 }] },
      { id: 'u3', role: 'user', parts: [{ type: 'text', text: 'OK. Write it as a checklist.' }] },
    ],
    openai: [
      { role: 'user', content: 'Draft a rollback plan for the orders table migration.' },
      { role: 'assistant', content: ANSWER_1 },
      { role: 'user', content: 'What if the backfill is half done when it fails?' },
      { role: 'assistant', content: ANSWER_2 },
      { role: 'user', content: 'OK. Write it as a checklist.' },
    ],
  };
  for (const [name, conversation] of Object.entries(CASES)) {
    const expected = name.split(' ')[0];
    for (const keepTail of [0, 60, 400]) {
      test(`${name}, keepTail ${keepTail} tokens: a forced fold keeps detectFormat's answer`, async () => {
        const messages = structuredClone(conversation);
        assert.equal(detectFormat(messages), expected);
        const report = await new Compactor({ summarize: async () => SUMMARY, keepTail: { tokens: keepTail } }).compact(messages, { force: true });
        assert.equal(report.compacted, true, report.reason);
        assert.equal(detectFormat(messages), expected);
        assert.deepStrictEqual(validate(messages).problems, []);
        assert.equal(report.tokensAfter, estimateTokens(messages, SAFE));
        if (expected === 'ai-sdk') assert.ok(modelMessageSchema.array().safeParse(messages).success);
        // The next fold reads it in that format too, and keeps it there.
        messages.push({ role: 'assistant', content: 'Checklist: 1. snapshot 2. batches 3. verify 4. restore.' }, { role: 'user', content: 'Thanks.' });
        if (expected === 'ai-sdk-ui') messages.splice(-2, 2, { id: 'a3', role: 'assistant', parts: [{ type: 'text', text: 'Checklist: 1. snapshot.' }] }, { id: 'u4', role: 'user', parts: [{ type: 'text', text: 'Thanks.' }] });
        assert.equal(detectFormat(messages), expected);
      });
    }
  }
});

describe('a fold that would not reduce the conversation is not applied', () => {
  // A short chat: whatever summary replaces its first turns costs at least what they did.
  const shortChat = () => [
    { role: 'system', content: 'You are a coding agent working in the ledger repository.' },
    { role: 'user', content: 'Fix the date test.' },
    { role: 'assistant', content: [{ type: 'text', text: 'On it.' }] },
    { role: 'user', content: 'Use UTC everywhere.' },
    { role: 'assistant', content: [{ type: 'text', text: 'Done: UTC in src/date.js.' }] },
    { role: 'user', content: 'Thanks, commit it.' },
  ];

  test("a forced fold whose digest is longer than what it replaces: reason 'no-gain', the array and its objects as they were", async () => {
    const { digestSummarizer } = await import('../../js/hosts/node.js');
    const messages = shortChat();
    const objects = messages.slice();
    const warnings = [];
    const archived = [];
    const report = await new Compactor({ summarize: digestSummarizer(), keepTail: { tokens: 0 }, onWarn: (m) => warnings.push(m), onArchive: (r) => archived.push(r) })
      .compact(messages, { force: true });
    assert.equal(report.compacted, false);
    assert.equal(report.reason, 'no-gain');
    assert.deepStrictEqual(messages, shortChat());
    assert.ok(messages.length === objects.length && messages.every((m, i) => m === objects[i]));
    assert.equal(report.tokensAfter, report.tokensBefore);
    assert.equal(report.tokensBefore, estimateTokens(messages, SAFE));
    assert.equal(archived.length, 0);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /no-gain/);
  });

  test('over the threshold, a summary longer than the middle it replaces is not applied', async () => {
    // The window is full of one long pending result; the turns before it are short.
    const log = Array.from({ length: 400 }, (_, i) => `✓ test/ledger.test.ts > totals > region ${i} sums rows in cents`).join('\n');
    const messages = [
      { role: 'user', content: 'Run the whole suite.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'npm test' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: log }] },
    ];
    const copy = structuredClone(messages);
    const rambling = async () => 'The user asked to run the whole test suite of the ledger repository, so the assistant ran npm test with the bash tool and is now waiting for its output, which is the long list of passing region tests that follows.';
    const report = await new Compactor({ summarize: rambling, threshold: 1000, keepTail: { tokens: 0 } }).compact(messages);
    assert.equal(report.reason, 'no-gain');
    assert.deepStrictEqual(messages, copy);
  });

  test('a fold that frees even a little is applied, and its tokensAfter is below tokensBefore', async () => {
    const messages = shortChat();
    messages[1].content = 'Fix the date test: it fails at UTC midnight because the helper adds the local offset twice; keep the public API as it is and add a regression test for 00:00 in three time zones.';
    const report = await new Compactor({ summarize: async () => 'Fix the double offset in src/date.js.', keepTail: { tokens: 0 } }).compact(messages, { force: true });
    assert.equal(report.compacted, true);
    assert.ok(report.tokensAfter < report.tokensBefore);
    assert.equal(report.tokensAfter, estimateTokens(messages, SAFE));
  });

  test('messages appended while the summary is written count on both sides: the fold is measured against the conversation as it is then', async () => {
    const messages = shortChat();
    messages[1].content = 'Fix the date test: it fails at UTC midnight because the helper adds the local offset twice; keep the public API as it is and add a regression test for 00:00 in three time zones.';
    const appended = Array.from({ length: 6 }, (_, i) => ({ role: i % 2 ? 'user' : 'assistant', content: `Step ${i}: ${'checked the offsets in src/date.js and the tests; '.repeat(8)}` }));
    const summarize = async () => { messages.push(...appended); return 'Fix the double offset in src/date.js.'; };
    const report = await new Compactor({ summarize, keepTail: { tokens: 0 } }).compact(messages, { force: true });
    assert.equal(report.compacted, true, report.reason);
    assert.deepStrictEqual(messages.slice(-6), appended);
    assert.equal(report.tokensAfter, estimateTokens(messages, SAFE));
  });
});
