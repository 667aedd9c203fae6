// Compactor + summarizer adapters end to end, over real HTTP, against the mock LLM server
// on 127.0.0.1 (tests/helpers/mock-llm.mjs): what the server receives, where its answer
// ends up, and that every failing answer leaves the conversation unchanged (issue 3).
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';

import { init, Compactor, openAISummarizer, anthropicSummarizer, SummarizerError, validate } from '../../js/hosts/node.js';
import { startMockLLM } from '../helpers/mock-llm.mjs';
import { load, recorder, snapshot, assertUntouched, MARK, ACK_ZH } from '../fixtures/compactor/lib.mjs';

let llm;
before(async () => { await init(); llm = await startMockLLM(); });
after(async () => { await llm.close(); });
beforeEach(() => { llm.reset(); });

const ADAPTERS = [
  {
    name: 'openAISummarizer',
    make: (o = {}) => openAISummarizer({ baseURL: `${llm.url}/v1`, model: 'm', apiKey: 'k', ...o }),
    path: '/v1/chat/completions',
    /** {system, prompt, maxTokens} of a recorded request body. */
    read: (body) => ({ system: body.messages[0].content, prompt: body.messages[1].content, maxTokens: body.max_tokens }),
  },
  {
    name: 'anthropicSummarizer',
    make: (o = {}) => anthropicSummarizer({ baseURL: llm.url, model: 'claude-m', apiKey: 'k', ...o }),
    path: '/v1/messages',
    read: (body) => ({ system: body.system, prompt: body.messages[0].content, maxTokens: body.max_tokens }),
  },
];

/** What the Compactor asks a summarizer for this fixture, recorded without HTTP. */
async function expectedRequest(name, options) {
  const summarize = recorder();
  await new Compactor({ summarize, ...options }).compact(load(name), { force: true });
  const { system, prompt, maxTokens } = summarize.calls[0];
  return { system, prompt, maxTokens };
}

const until = async (check, ms = 2000) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  return check();
};

for (const a of ADAPTERS) {
  describe(`Compactor with ${a.name} over HTTP`, () => {
    const options = { keepTail: { tokens: 0 }, maxSummaryTokens: 777 };

    test('the request body holds the system prompt, the prompt with the transcript, and max_tokens = maxSummaryTokens', async () => {
      llm.respondWith({ text: 'Refund rows are exported again.' });
      const messages = load('ledger.anthropic');
      await new Compactor({ summarize: a.make(), ...options }).compact(messages, { force: true });
      assert.equal(llm.requests.length, 1);
      const r = llm.requests[0];
      assert.equal(r.method, 'POST');
      assert.equal(r.path, a.path);
      const sent = a.read(r.body);
      assert.deepStrictEqual(sent, await expectedRequest('ledger.anthropic', options));
      assert.equal(sent.maxTokens, 777);
      assert.ok(sent.prompt.includes('[tool_use:read_file] {"file_path": "src/export/csv.js"}'));
      assert.ok(sent.prompt.includes('npm test has been failing on main since PR #412'));
    });

    test('the summary from the server ends up in the rebuilt message', async () => {
      llm.respondWith({ text: '  ## Goal\n- Keep refunds in the CSV export (src/export/csv.js).\n' });
      const messages = load('ledger.openai');
      const system = messages[0];
      const pending = messages.at(-1);
      const report = await new Compactor({ summarize: a.make(), ...options }).compact(messages, { force: true });
      assert.equal(report.compacted, true);
      assert.equal(messages.length, 4);
      assert.equal(messages[0], system);
      assert.deepStrictEqual(messages[1], { role: 'user', content: `${MARK}\n## Goal\n- Keep refunds in the CSV export (src/export/csv.js).` });
      assert.equal(messages[3], pending);
      assert.deepStrictEqual(validate(messages, { format: 'openai' }).problems, []);
    });

    test('a Chinese conversation: Chinese system prompt sent, Chinese acknowledgement', async () => {
      llm.respondWith({ text: '修复了 CI 构建：文件名大小写问题。' });
      const messages = load('admin-web-zh.anthropic');
      await new Compactor({ summarize: a.make(), ...options }).compact(messages, { force: true });
      const sent = a.read(llm.requests[0].body);
      assert.deepStrictEqual(sent, await expectedRequest('admin-web-zh.anthropic', options));
      assert.equal(messages[1].content, `${MARK}\n修复了 CI 构建：文件名大小写问题。`);
      // (all that is kept is plain text: the acknowledgement carries the Anthropic format, as a text block)
      assert.deepStrictEqual(messages[2], { role: 'assistant', content: [{ type: 'text', text: ACK_ZH, citations: null }] });
    });

    const FAILING = [
      ['HTTP 500', { status: 500 }, 'summarizer-error', 500],
      ['HTTP 429', { status: 429, headers: { 'retry-after': '20' } }, 'summarizer-error', 429],
      ['a malformed body', { malformed: true }, 'summarizer-error', 200],
      ['an empty answer', { empty: true }, 'empty-summary', 200], // (the adapter's SummarizerError code 'empty')
      ['a dropped connection', { destroy: true }, 'summarizer-error', 0],
    ];
    for (const [what, spec, reason, status] of FAILING) {
      test(`${what} leaves the messages unchanged and reports why`, async () => {
        llm.respondWith(spec);
        const messages = load('ledger.anthropic');
        const snap = snapshot(messages);
        const warnings = [];
        const report = await new Compactor({ summarize: a.make(), ...options, onWarn: (m, e) => warnings.push(e) }).compact(messages, { force: true });
        assertUntouched(messages, snap);
        assert.equal(report.compacted, false);
        assert.equal(report.reason, reason);
        assert.ok(report.error instanceof SummarizerError, String(report.error));
        assert.equal(report.error.status, status);
        assert.deepStrictEqual(warnings, [report.error]);
        assert.equal(llm.requests.length, 1);
      });
    }

    test('a slow server and timeoutMs: reason "timeout", messages unchanged, the request is abandoned', async () => {
      llm.respondWith({ delay: 5000, text: 'too late' });
      const messages = load('ledger.anthropic');
      const snap = snapshot(messages);
      const started = Date.now();
      const report = await new Compactor({ summarize: a.make(), ...options, timeoutMs: 150 }).compact(messages, { force: true });
      assert.ok(Date.now() - started < 3000);
      assert.equal(report.reason, 'timeout');
      assertUntouched(messages, snap);
      assert.ok(await until(() => llm.requests[0] && llm.requests[0].aborted), 'the HTTP request was not cancelled');
    });

    test('a body that arrives too slowly also times out', async () => {
      llm.respondWith({ bodyDelay: 5000, text: 'too late' });
      const messages = load('ledger.anthropic');
      const snap = snapshot(messages);
      const report = await new Compactor({ summarize: a.make(), ...options, timeoutMs: 150 }).compact(messages, { force: true });
      assert.equal(report.reason, 'timeout');
      assertUntouched(messages, snap);
    });

    test('an abort while the server hangs: reason "aborted", the request is cancelled', async () => {
      llm.respondWith({ hang: true });
      const messages = load('ledger.anthropic');
      const snap = snapshot(messages);
      const controller = new AbortController();
      const run = new Compactor({ summarize: a.make(), ...options }).compact(messages, { force: true, signal: controller.signal });
      assert.ok(await until(() => llm.requests.length === 1));
      controller.abort();
      const report = await run;
      assert.equal(report.reason, 'aborted');
      assertUntouched(messages, snap);
      assert.ok(await until(() => llm.requests[0].aborted));
    });

    test("HTTP 500 with fallback: 'digest' compacts with the digest", async () => {
      llm.respondWith({ status: 503 });
      const messages = load('ledger.anthropic');
      const report = await new Compactor({ summarize: a.make(), ...options, fallback: 'digest' }).compact(messages, { force: true });
      assert.equal(report.reason, 'compacted-with-digest');
      assert.match(messages[1].content, /src\/export\/csv\.js/);
      assert.deepStrictEqual(validate(messages).problems, []);
    });

    test('a 429 then a 200: the next compaction succeeds', async () => {
      llm.enqueue({ status: 429 }, { text: 'second time lucky' });
      const messages = load('ledger.anthropic');
      const c = new Compactor({ summarize: a.make(), ...options });
      assert.equal((await c.compact(messages, { force: true })).reason, 'summarizer-error');
      assert.equal((await c.compact(messages, { force: true })).reason, 'compacted');
      assert.equal(messages[1].content, `${MARK}\nsecond time lucky`);
      assert.equal(llm.requests.length, 2);
      assert.deepStrictEqual(llm.requests[0].body, llm.requests[1].body, 'the retry sent the same request');
    });
  });
}

test('anthropicSummarizer sends the API key and version headers the compaction needs', async () => {
  llm.respondWith({ text: 'ok' });
  await new Compactor({ summarize: ADAPTERS[1].make(), keepTail: { tokens: 0 } }).compact(load('ledger.anthropic'), { force: true });
  const h = llm.requests[0].headers;
  assert.equal(h['x-api-key'], 'k');
  assert.ok(h['anthropic-version']);
  assert.equal(llm.requests[0].body.model, 'claude-m');
});

test('openAISummarizer sends the bearer key and the model', async () => {
  llm.respondWith({ text: 'ok' });
  await new Compactor({ summarize: ADAPTERS[0].make(), keepTail: { tokens: 0 } }).compact(load('ledger.anthropic'), { force: true });
  assert.equal(llm.requests[0].headers.authorization, 'Bearer k');
  assert.equal(llm.requests[0].body.model, 'm');
});

test('the default mock answer (a digest of the prompt) is used verbatim as the summary', async () => {
  const messages = load('ledger.ai-sdk');
  const report = await new Compactor({ summarize: ADAPTERS[0].make(), keepTail: { tokens: 0 } }).compact(messages, { force: true });
  assert.equal(report.compacted, true);
  assert.match(messages[1].content, /^\[Context Compressed\]\n\[mock summary [0-9a-f]{8}\]/);
  assert.deepStrictEqual(validate(messages, { format: 'ai-sdk' }).problems, []);
});
