// digestSummarizer(): the model-free summary (issue 3): deterministic, built from what the
// folded messages say (requests, tool activity with counts and errors, files, latest
// conclusions), within maxSummaryTokens, in the conversation's language.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';

import { init, Compactor, digestSummarizer, estimateTokens, validate, MidfoldError } from '../../js/hosts/node.js';
import { load, FORMATS, MARK, cjkCount } from '../fixtures/compactor/lib.mjs';

before(async () => { await init(); });

/** The digest the Compactor writes for a fixture (keepTail 0: everything but the pending turn is folded). */
async function digestOf(name, extra = {}) {
  const messages = load(name);
  const report = await new Compactor({ summarize: digestSummarizer(), keepTail: { tokens: 0 }, ...extra }).compact(messages, { force: true });
  assert.equal(report.compacted, true, `${name}: ${report.reason}`);
  return { summary: report.summary, messages, report };
}

/** The middle of a ledger fixture, as the Compactor would pass it: all but the system and pending messages. */
const middleOf = (name) => load(name).slice(1, -1);

/** The tool's line in the "Tool activity" section (the errors section names tools too). */
const toolLine = (summary, name) => {
  const lines = summary.split('\n');
  const from = lines.findIndex((l) => /^## (Tool activity|工具调用)/.test(l));
  return lines.slice(from + 1).find((l) => new RegExp(`^\\W*${name}\\b`).test(l));
};

const LEDGER_TOOLS = { bash: 5, read_file: 4, edit_file: 4, grep: 1 };
const LEDGER_FILES = ['src/export/csv.js', 'test/export/csv.test.js', 'src/lib/money.js', 'src/config/export.js'];

describe('digestSummarizer()', () => {
  test('as the Compactor\'s summarizer: compacts, and the result validates', async () => {
    for (const format of FORMATS) {
      const { messages, report } = await digestOf(`ledger.${format}`);
      assert.equal(report.reason, 'compacted');
      assert.ok(messages[1].content.startsWith(`${MARK}\n`));
      assert.deepStrictEqual(validate(messages, { format }).problems, []);
    }
  });

  test('is deterministic: the same conversation gives the same text', async () => {
    const a = await digestOf('ledger.anthropic');
    const b = await digestOf('ledger.anthropic');
    assert.equal(a.summary, b.summary);
    const s = digestSummarizer();
    const request = { messages: middleOf('ledger.openai'), maxTokens: 800, language: 'en', system: '', prompt: '' };
    assert.equal(await s(request), await s({ ...request, messages: middleOf('ledger.openai') }));
  });

  test('mentions the user\'s requests', async () => {
    for (const format of FORMATS) {
      const { summary } = await digestOf(`ledger.${format}`);
      assert.ok(summary.includes('npm test has been failing on main since PR #412'), format);
      assert.ok(summary.includes('German accounting team needs a semicolon delimiter'), format);
    }
  });

  test('names each tool with its number of calls', async () => {
    for (const format of FORMATS) {
      const { summary } = await digestOf(`ledger.${format}`);
      for (const [tool, calls] of Object.entries(LEDGER_TOOLS)) {
        const line = toolLine(summary, tool);
        assert.ok(line, `${format}: no line for ${tool}`);
        assert.match(line, new RegExp(`^\\W*${tool}\\D*\\b${calls}\\b`), `${format}: ${line}`);
      }
    }
  });

  test('lists the file paths from the tool arguments (OpenAI arguments are JSON strings)', async () => {
    for (const format of FORMATS) {
      const { summary } = await digestOf(`ledger.${format}`);
      for (const file of LEDGER_FILES) assert.ok(summary.includes(file), `${format}: ${file}`);
    }
  });

  test('counts the errors per tool: flagged (Anthropic is_error, AI SDK error-text) or read from the result (OpenAI has no flag)', async () => {
    for (const format of FORMATS) {
      const { summary } = await digestOf(`ledger.${format}`);
      assert.match(toolLine(summary, 'edit_file'), /\b1\b[^\n]*error/i, format);
      assert.doesNotMatch(toolLine(summary, 'bash').replace(/:.*$/, ''), /error/i, format);
    }
  });

  test('keeps the latest assistant conclusion', async () => {
    const { summary } = await digestOf('ledger.anthropic');
    assert.ok(summary.includes('the delimiter now comes from `loadExportConfig()`'));
  });

  test('leaves raw tool output out', async () => {
    const { summary } = await digestOf('ledger.anthropic');
    assert.ok(!summary.includes('expect(received).toEqual(expected)'));
    assert.ok(!summary.includes('Test Suites: 1 failed'));
    assert.ok(!summary.includes("const { formatMoney } = require('../lib/money');"));
  });

  test('stays within maxSummaryTokens', async () => {
    const s = digestSummarizer();
    for (const name of ['ledger.anthropic', 'ledger.openai', 'ledger.ai-sdk', 'admin-web-zh.anthropic']) {
      for (const maxTokens of [30, 60, 100, 150, 250, 400, 2000]) {
        const text = await s({ messages: load(name).slice(1, -1), maxTokens, language: 'auto', system: '', prompt: '' });
        assert.ok(estimateTokens(text) <= maxTokens, `${name}, maxTokens ${maxTokens}: ${estimateTokens(text)} tokens`);
      }
    }
  });

  test('a Compactor\'s maxSummaryTokens bounds the digest it writes', async () => {
    // In the Compactor's tokens: given the reference profile here, which digestSummarizer()
    // prices with too (its request carries no profile); the default profile is the next test.
    for (const max of [120, 250, 500]) {
      const { summary } = await digestOf('ledger.anthropic', { maxSummaryTokens: max, profile: 'bareagent' });
      const tokens = estimateTokens(summary, { profile: 'bareagent' });
      assert.ok(tokens <= max, `${max}: ${tokens}`);
    }
  });

  test('a Compactor\'s maxSummaryTokens bounds the digest it writes, in its default profile\'s tokens', async () => {
    for (const max of [120, 250, 500]) {
      const { summary } = await digestOf('ledger.anthropic', { maxSummaryTokens: max });
      const tokens = estimateTokens(summary, { profile: 'safe' });
      assert.ok(tokens <= max, `${max}: ${tokens}`);
    }
  });

  test('digestSummarizer({maxTokens}) caps below the request\'s maxTokens', async () => {
    const text = await digestSummarizer({ maxTokens: 90 })({ messages: middleOf('ledger.anthropic'), maxTokens: 2000, system: '', prompt: '' });
    assert.ok(text.length > 0);
    assert.ok(estimateTokens(text) <= 90);
  });

  test('a shorter budget keeps the user\'s first request', async () => {
    const text = await digestSummarizer()({ messages: middleOf('ledger.anthropic'), maxTokens: 200, system: '', prompt: '' });
    assert.ok(text.includes('npm test has been failing'), text);
  });

  test('a Chinese conversation gets Chinese headings', async () => {
    const { summary } = await digestOf('admin-web-zh.anthropic');
    const headings = summary.split('\n').filter((l) => l.startsWith('#'));
    assert.ok(headings.length >= 2);
    for (const h of headings) {
      assert.ok(cjkCount(h) > 0, h);
      assert.doesNotMatch(h, /[A-Za-z]{3,}/, h);
    }
    assert.ok(summary.includes('src/utils/date.ts'));
    assert.ok(summary.includes('CI 上的 `pnpm build` 从昨天下午开始一直失败'));
  });

  test('an English conversation gets English headings', async () => {
    const { summary } = await digestOf('ledger.openai');
    const headings = summary.split('\n').filter((l) => l.startsWith('#'));
    assert.ok(headings.length >= 2);
    for (const h of headings) assert.equal(cjkCount(h), 0, h);
  });

  test('Chinese tool output under English requests: English headings', async () => {
    const { summary } = await digestOf('locales-en-user.anthropic');
    for (const h of summary.split('\n').filter((l) => l.startsWith('#'))) assert.equal(cjkCount(h), 0, h);
  });

  test('an earlier summary folded into the next digest keeps its facts', async () => {
    const messages = load('ledger.anthropic');
    const c = new Compactor({ summarize: digestSummarizer(), keepTail: { tokens: 0 } });
    await c.compact(messages, { force: true });
    // (a turn with tool output to fold with it: a digest of the summary alone would not be shorter)
    const lint = Array.from({ length: 40 }, (_, i) => `src/config/export.js:${10 + i}:5  warning  prefer-const  'row${i}' is never reassigned`).join('\n');
    messages.push(
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_lint', name: 'bash', input: { command: 'npm run lint' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_lint', content: lint }] },
      { role: 'assistant', content: [{ type: 'text', text: 'CHANGELOG entry written; lint is clean.' }] },
      { role: 'user', content: 'Commit and open the pull request.' },
    );
    const report = await c.compact(messages, { force: true });
    assert.equal(report.compacted, true);
    assert.ok(report.summary.includes('src/config/export.js'), 'a file only the earlier summary named is gone');
    assert.ok(report.summary.includes('CHANGELOG entry written'));
    assert.equal(messages.length, 4);
  });

  test('needs no network', async () => {
    const realFetch = globalThis.fetch;
    globalThis.fetch = () => { throw new Error('no network in this test'); };
    try {
      const { report } = await digestOf('ledger.ai-sdk');
      assert.equal(report.reason, 'compacted');
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  test('without request.messages it rejects with a MidfoldError', async () => {
    await assert.rejects(digestSummarizer()({ system: '', prompt: 'x', maxTokens: 100 }), MidfoldError);
  });
});
