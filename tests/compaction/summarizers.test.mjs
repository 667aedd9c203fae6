// Tests for js/compaction/summarizers.js against the mock LLM server, over real HTTP on 127.0.0.1.
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';

import { openAISummarizer, anthropicSummarizer, SummarizerError } from '../../js/compaction/summarizers.js';
import { startMockLLM, defaultSummary } from '../helpers/mock-llm.mjs';

const KEY = 'sk-test-SECRET-0123456789abcdef';
const REQ = { system: 'You write summaries.', prompt: 'Summarize this transcript:\n[user]\nhello', maxTokens: 321 };

let llm;
before(async () => { llm = await startMockLLM(); });
after(async () => { await llm.close(); });
beforeEach(() => { llm.reset(); });

/** Awaits a rejection and returns the error (fails if the promise resolves). */
async function rejection(promise) {
  try {
    const value = await promise;
    assert.fail(`expected a rejection, got ${JSON.stringify(value)}`);
  } catch (error) {
    if (error instanceof assert.AssertionError) throw error;
    return error;
  }
}

function assertNoKey(error) {
  const all = [error.message, String(error), error.stack ?? ''].join('\n');
  assert.ok(!all.includes(KEY), `the API key leaked into: ${error.message}`);
  assert.ok(!all.includes(KEY.slice(3, 20)), `part of the API key leaked into: ${error.message}`);
}

// The two adapters, described so that the shared tests below can run against each.
const adapters = [
  {
    name: 'openAISummarizer',
    label: 'OpenAI-compatible summarizer',
    make: (o = {}) => openAISummarizer({ baseURL: `${llm.url}/v1`, apiKey: KEY, model: 'gpt-mock', ...o }),
    path: '/v1/chat/completions',
    textOf: (text) => ({ json: { choices: [{ index: 0, message: { role: 'assistant', content: text } }] } }),
  },
  {
    name: 'anthropicSummarizer',
    label: 'Anthropic summarizer',
    make: (o = {}) => anthropicSummarizer({ baseURL: llm.url, apiKey: KEY, model: 'claude-mock', ...o }),
    path: '/v1/messages',
    textOf: (text) => ({ json: { type: 'message', content: [{ type: 'text', text }] } }),
  },
];

describe('openAISummarizer', () => {
  test('200: returns the text and sends the documented request', async () => {
    llm.respondWith({ text: '  The user said hello.\n' });
    const s = openAISummarizer({ baseURL: `${llm.url}/v1`, apiKey: KEY, model: 'gpt-mock' });
    const out = await s(REQ);
    assert.equal(out, 'The user said hello.');
    assert.equal(llm.requests.length, 1);
    const r = llm.requests[0];
    assert.equal(r.method, 'POST');
    assert.equal(r.path, '/v1/chat/completions');
    assert.equal(r.api, 'openai');
    assert.equal(r.headers.authorization, `Bearer ${KEY}`);
    assert.match(r.headers['content-type'], /^application\/json/);
    assert.equal(r.headers['x-api-key'], undefined);
    assert.deepEqual(r.body, {
      model: 'gpt-mock',
      messages: [{ role: 'system', content: REQ.system }, { role: 'user', content: REQ.prompt }],
      max_tokens: 321,
      stream: false,
    });
    assert.equal('temperature' in r.body, false);
  });

  test('temperature is sent only when given; maxTokensParam switches the field', async () => {
    llm.respondWith({ text: 'ok' });
    await openAISummarizer({ baseURL: `${llm.url}/v1`, model: 'm', temperature: 0 })(REQ);
    assert.equal(llm.requests[0].body.temperature, 0);
    await openAISummarizer({ baseURL: `${llm.url}/v1`, model: 'm', maxTokensParam: 'max_completion_tokens' })(REQ);
    assert.equal(llm.requests[1].body.max_completion_tokens, 321);
    assert.equal('max_tokens' in llm.requests[1].body, false);
  });

  test('no apiKey (local server): no authorization header, /chat/completions without /v1', async () => {
    llm.respondWith({ text: 'local summary' });
    const s = openAISummarizer({ baseURL: llm.url, model: 'local' });
    assert.equal(await s(REQ), 'local summary');
    assert.equal(llm.requests[0].path, '/chat/completions');
    assert.equal(llm.requests[0].headers.authorization, undefined);
  });

  test('the default answer of the mock is a digest of the prompt', async () => {
    const s = openAISummarizer({ baseURL: `${llm.url}/v1`, model: 'm' });
    assert.equal(await s(REQ), defaultSummary({ system: REQ.system, prompt: REQ.prompt }).trim());
  });

  test('content as an array of parts is joined', async () => {
    llm.respondWith({ json: { choices: [{ message: { role: 'assistant', content: [
      { type: 'text', text: 'part one, ' }, { type: 'refusal', refusal: 'x' }, { type: 'text', text: 'part two' }] } }] } });
    assert.equal(await adapters[0].make()(REQ), 'part one, part two');
  });

  test('an empty system prompt sends only the user message', async () => {
    llm.respondWith({ text: 'ok' });
    await adapters[0].make()({ ...REQ, system: '' });
    assert.deepEqual(llm.requests[0].body.messages, [{ role: 'user', content: REQ.prompt }]);
  });

  test('a 200 whose choices are missing is "empty"', async () => {
    llm.respondWith({ json: { error: { message: 'odd server' } } });
    const e = await rejection(adapters[0].make()(REQ));
    assert.equal(e.code, 'empty');
    assert.equal(e.status, 200);
    assert.match(e.message, /odd server/);
  });
});

describe('anthropicSummarizer', () => {
  test('200: returns the concatenated text blocks and sends the documented request', async () => {
    llm.respondWith({ json: { type: 'message', role: 'assistant', content: [
      { type: 'thinking', thinking: 'hmm' },
      { type: 'text', text: 'First half. ' },
      { type: 'tool_use', id: 't', name: 'x', input: {} },
      { type: 'text', text: 'Second half.' },
    ] } });
    const s = anthropicSummarizer({ apiKey: KEY, model: 'claude-mock', baseURL: llm.url });
    assert.equal(await s(REQ), 'First half. Second half.');
    const r = llm.requests[0];
    assert.equal(r.method, 'POST');
    assert.equal(r.path, '/v1/messages');
    assert.equal(r.api, 'anthropic');
    assert.equal(r.headers['x-api-key'], KEY);
    assert.equal(r.headers['anthropic-version'], '2023-06-01');
    assert.match(r.headers['content-type'], /^application\/json/);
    assert.equal(r.headers.authorization, undefined);
    assert.equal(r.headers['anthropic-dangerous-direct-browser-access'], undefined);
    assert.deepEqual(r.body, {
      model: 'claude-mock',
      max_tokens: 321,
      system: REQ.system,
      messages: [{ role: 'user', content: REQ.prompt }],
    });
  });

  test('the mock\'s text spec and default answer in the Anthropic shape', async () => {
    const s = adapters[1].make();
    llm.enqueue({ text: 'queued' });
    assert.equal(await s(REQ), 'queued');
    assert.equal(await s(REQ), defaultSummary({ system: REQ.system, prompt: REQ.prompt }).trim());
  });

  test('version is overridable; browser: true adds the direct-browser-access header', async () => {
    llm.respondWith({ text: 'ok' });
    await adapters[1].make({ version: '2099-01-01', browser: true })(REQ);
    const h = llm.requests[0].headers;
    assert.equal(h['anthropic-version'], '2099-01-01');
    assert.equal(h['anthropic-dangerous-direct-browser-access'], 'true');
  });

  test('529 overloaded is code "http"', async () => {
    llm.respondWith({ status: 529 });
    const e = await rejection(adapters[1].make()(REQ));
    assert.ok(e instanceof SummarizerError);
    assert.equal(e.status, 529);
    assert.equal(e.code, 'http');
    assert.match(e.message, /^Anthropic summarizer: HTTP 529: \{"type":"error","error":\{"type":"overloaded_error"/);
  });

  test('only non-text blocks is "empty"', async () => {
    llm.respondWith({ json: { type: 'message', content: [{ type: 'tool_use', id: 't', name: 'x', input: {} }] } });
    const e = await rejection(adapters[1].make()(REQ));
    assert.equal(e.code, 'empty');
  });

  test('no apiKey: no x-api-key header (a proxy may add it)', async () => {
    llm.respondWith({ text: 'ok' });
    await anthropicSummarizer({ model: 'm', baseURL: llm.url })(REQ);
    assert.equal(llm.requests[0].headers['x-api-key'], undefined);
  });
});

for (const a of adapters) {
  describe(`${a.name} (shared behaviour)`, () => {
    test('429: SummarizerError with status 429, code "http", status and body excerpt in the message', async () => {
      llm.respondWith({ status: 429, headers: { 'retry-after': '7' } });
      const e = await rejection(a.make()(REQ));
      assert.ok(e instanceof SummarizerError);
      assert.ok(e instanceof Error);
      assert.equal(e.name, 'SummarizerError');
      assert.equal(e.status, 429);
      assert.equal(e.code, 'http');
      assert.ok(e.message.startsWith(`${a.label}: HTTP 429: {`), e.message);
      assert.match(e.message, /rate_limit_error/);
      assertNoKey(e);
    });

    test('500: code "http", status 500', async () => {
      llm.respondWith({ status: 500 });
      const e = await rejection(a.make()(REQ));
      assert.equal(e.status, 500);
      assert.equal(e.code, 'http');
      assert.ok(e.message.startsWith(`${a.label}: HTTP 500: `), e.message);
    });

    test('other non-2xx (400, 404 from a wrong path) are code "http"', async () => {
      llm.respondWith({ status: 400, error: 'bad request here' });
      const e = await rejection(a.make()(REQ));
      assert.equal(e.status, 400);
      assert.equal(e.code, 'http');
      assert.match(e.message, /bad request here/);
      const wrong = a.name === 'openAISummarizer'
        ? openAISummarizer({ baseURL: `${llm.url}/nope`, model: 'm' })
        : anthropicSummarizer({ baseURL: `${llm.url}/nope`, model: 'm' });
      const e2 = await rejection(wrong(REQ));
      assert.equal(e2.status, 404);
      assert.equal(e2.code, 'http');
    });

    test('the body excerpt in the message is at most 200 characters', async () => {
      llm.respondWith({ status: 503, raw: 'x'.repeat(5000) + 'TAIL' });
      const e = await rejection(a.make()(REQ));
      assert.equal(e.code, 'http');
      const excerpt = e.message.slice(`${a.label}: HTTP 503: `.length);
      assert.ok(excerpt.length <= 200, `excerpt has ${excerpt.length} chars`);
      assert.ok(excerpt.length >= 100);
      assert.ok(!e.message.includes('TAIL'));
    });

    test('malformed JSON body: code "bad-json"', async () => {
      llm.respondWith({ malformed: true });
      const e = await rejection(a.make()(REQ));
      assert.ok(e instanceof SummarizerError);
      assert.equal(e.code, 'bad-json');
      assert.equal(e.status, 200);
      assert.match(e.message, /not valid JSON/);
      assert.match(e.message, /unterminated/);
      assert.ok(e.cause instanceof SyntaxError);
    });

    test('empty content: code "empty"', async () => {
      llm.respondWith({ empty: true });
      const e = await rejection(a.make()(REQ));
      assert.equal(e.code, 'empty');
      assert.equal(e.status, 200);
    });

    test('whitespace-only text: code "empty"', async () => {
      llm.respondWith(a.textOf(' \n\t '));
      const e = await rejection(a.make()(REQ));
      assert.equal(e.code, 'empty');
    });

    test('slow server + AbortController: rejects promptly, recognizable as AbortError', { timeout: 5000 }, async () => {
      llm.respondWith({ delay: 10_000, text: 'too late' });
      const ac = new AbortController();
      const t0 = Date.now();
      const p = a.make()({ ...REQ, signal: ac.signal });
      setTimeout(() => ac.abort(), 50);
      const e = await rejection(p);
      const elapsed = Date.now() - t0;
      assert.ok(elapsed < 2000, `took ${elapsed} ms`);
      assert.equal(e.name, 'AbortError');
      assert.ok(e instanceof SummarizerError);
      assert.equal(e.code, 'aborted');
      assert.equal(e.status, 0);
      assert.equal(e.cause, ac.signal.reason);
      assert.equal(e.cause.name, 'AbortError');
      assertNoKey(e);
      // The server saw the request, and the client went away before the answer.
      assert.equal(llm.requests.length, 1);
      for (let i = 0; i < 100 && !llm.requests[0].aborted; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(llm.requests[0].aborted, true);
    });

    test('abort with a custom reason still gives name AbortError, reason kept as cause', { timeout: 5000 }, async () => {
      llm.respondWith({ hang: true });
      const ac = new AbortController();
      const p = a.make()({ ...REQ, signal: ac.signal });
      setTimeout(() => ac.abort('user pressed stop'), 30);
      const e = await rejection(p);
      assert.equal(e.name, 'AbortError');
      assert.equal(e.code, 'aborted');
      assert.equal(e.cause, 'user pressed stop');
    });

    test('abort while the body is being received', { timeout: 5000 }, async () => {
      llm.respondWith({ bodyDelay: 10_000, text: 'late body' });
      const ac = new AbortController();
      const p = a.make()({ ...REQ, signal: ac.signal });
      setTimeout(() => ac.abort(), 100);
      const t0 = Date.now();
      const e = await rejection(p);
      assert.ok(Date.now() - t0 < 2000);
      assert.equal(e.name, 'AbortError');
      assert.equal(e.code, 'aborted');
    });

    test('slow server + AbortSignal.timeout: rejects promptly, code "aborted", cause TimeoutError', { timeout: 5000 }, async () => {
      llm.respondWith({ delay: 10_000 });
      const t0 = Date.now();
      const e = await rejection(a.make()({ ...REQ, signal: AbortSignal.timeout(100) }));
      const elapsed = Date.now() - t0;
      assert.ok(elapsed >= 50 && elapsed < 2000, `took ${elapsed} ms`);
      assert.equal(e.name, 'AbortError');
      assert.equal(e.code, 'aborted');
      assert.equal(e.cause.name, 'TimeoutError');
      assert.match(e.message, /timed out/);
    });

    test('an already-aborted signal rejects without sending anything', async () => {
      const e = await rejection(a.make()({ ...REQ, signal: AbortSignal.abort() }));
      assert.equal(e.name, 'AbortError');
      assert.equal(e.code, 'aborted');
      assert.equal(llm.requests.length, 0);
    });

    test('a custom fetch that ignores the signal is still abandoned promptly on abort', { timeout: 5000 }, async () => {
      let called = 0;
      const stubborn = () => { called++; return new Promise(() => {}); };
      const ac = new AbortController();
      const p = a.make({ fetch: stubborn })({ ...REQ, signal: ac.signal });
      setTimeout(() => ac.abort(), 20);
      const e = await rejection(p);
      assert.equal(called, 1);
      assert.equal(e.name, 'AbortError');
    });

    test('network failure (server closed): code "network", status 0, cause kept', async () => {
      const gone = await startMockLLM();
      const url = gone.url;
      await gone.close();
      const s = a.name === 'openAISummarizer'
        ? openAISummarizer({ baseURL: `${url}/v1`, apiKey: KEY, model: 'm' })
        : anthropicSummarizer({ baseURL: url, apiKey: KEY, model: 'm' });
      const e = await rejection(s(REQ));
      assert.ok(e instanceof SummarizerError);
      assert.equal(e.name, 'SummarizerError');
      assert.equal(e.code, 'network');
      assert.equal(e.status, 0);
      assert.ok(e.cause instanceof Error);
      assert.ok(e.message.startsWith(`${a.label}: network error:`), e.message);
      assertNoKey(e);
    });

    test('network failure (connection dropped mid-request): code "network"', async () => {
      llm.respondWith({ destroy: true });
      const e = await rejection(a.make()(REQ));
      assert.equal(e.code, 'network');
      assert.equal(e.status, 0);
    });

    test('a rejecting custom fetch: code "network" with the original as cause', async () => {
      const boom = new Error('boom');
      const e = await rejection(a.make({ fetch: async () => { throw boom; } })(REQ));
      assert.equal(e.code, 'network');
      assert.equal(e.cause, boom);
      assert.match(e.message, /boom/);
    });

    test('the apiKey never appears in any error message, even when the server echoes it', async () => {
      const s = a.make();
      const specs = [
        (req) => ({ status: 401, raw: `invalid key ${req.headers.authorization ?? req.headers['x-api-key']} here` }),
        (req) => ({ status: 200, raw: `not json ${JSON.stringify(req.headers)}` }),
        (req) => ({ json: { echo: req.headers } }),
        { status: 429 },
      ];
      for (const spec of specs) {
        llm.respondWith(spec);
        const e = await rejection(s(REQ));
        assert.ok(e instanceof SummarizerError);
        assertNoKey(e);
      }
      const e = await rejection(a.make({ fetch: async () => { throw new Error(`failed with ${KEY}`); } })(REQ));
      assertNoKey(e);
      assert.match(e.message, /\[redacted\]/);
      const ac = new AbortController();
      ac.abort(new Error(`reason ${KEY}`));
      assertNoKey(await rejection(s({ ...REQ, signal: ac.signal })));
    });

    test('custom headers are sent (plain object, Headers, pairs) and may override defaults', async () => {
      llm.respondWith({ text: 'ok' });
      await a.make({ headers: { 'X-Trace': 'abc', 'HTTP-Referer': 'https://midfold.test' } })(REQ);
      assert.equal(llm.requests[0].headers['x-trace'], 'abc');
      assert.equal(llm.requests[0].headers['http-referer'], 'https://midfold.test');
      await a.make({ headers: new Headers({ 'x-from-headers': '1' }) })(REQ);
      assert.equal(llm.requests[1].headers['x-from-headers'], '1');
      await a.make({ headers: [['x-pair', '2']] })(REQ);
      assert.equal(llm.requests[2].headers['x-pair'], '2');
      await a.make({ headers: { 'Content-Type': 'application/json; charset=utf-8' } })(REQ);
      assert.equal(llm.requests[3].headers['content-type'], 'application/json; charset=utf-8');
    });

    test('the headers object is kept by reference and read at each call', async () => {
      llm.respondWith({ text: 'ok' });
      const headers = { 'x-turn': '1' };
      const s = a.make({ headers });
      await s(REQ);
      headers['x-turn'] = '2';
      await s(REQ);
      assert.equal(llm.requests[0].headers['x-turn'], '1');
      assert.equal(llm.requests[1].headers['x-turn'], '2');
    });

    test('baseURL trailing slashes are trimmed', async () => {
      llm.respondWith({ text: 'ok' });
      const base = a.name === 'openAISummarizer' ? `${llm.url}/v1` : llm.url;
      await a.make({ baseURL: `${base}/` })(REQ);
      await a.make({ baseURL: `${base}///` })(REQ);
      await a.make({ baseURL: new URL(`${base}/`) })(REQ);
      assert.deepEqual(llm.requests.map((r) => r.path), [a.path, a.path, a.path]);
    });

    test('a custom fetch is used and receives url, method, headers, body and signal', async () => {
      llm.respondWith({ text: 'via custom fetch' });
      const seen = [];
      const myFetch = (url, init) => { seen.push({ url, init }); return fetch(url, init); };
      const ac = new AbortController();
      assert.equal(await a.make({ fetch: myFetch })({ ...REQ, signal: ac.signal }), 'via custom fetch');
      assert.equal(seen.length, 1);
      assert.equal(seen[0].url, `${llm.url}${a.path}`);
      assert.equal(seen[0].init.method, 'POST');
      assert.equal(seen[0].init.signal, ac.signal);
      assert.equal(typeof seen[0].init.body, 'string');
    });

    test('globalThis.fetch is looked up at call time when no fetch is given', async () => {
      const s = a.make();
      const original = globalThis.fetch;
      let calls = 0;
      globalThis.fetch = (...args) => { calls++; return original(...args); };
      try {
        llm.respondWith({ text: 'ok' });
        assert.equal(await s(REQ), 'ok');
      } finally {
        globalThis.fetch = original;
      }
      assert.equal(calls, 1);
    });

    test('option validation throws TypeError eagerly with a clear message', () => {
      const make = a.name === 'openAISummarizer' ? openAISummarizer : anthropicSummarizer;
      assert.throws(() => make(), { name: 'TypeError', message: /options must be an object/ });
      assert.throws(() => make({}), { name: 'TypeError', message: /"model" is required/ });
      assert.throws(() => make({ model: '' }), { name: 'TypeError', message: /"model" is required/ });
      assert.throws(() => make({ model: 42 }), { name: 'TypeError', message: /"model"/ });
      assert.throws(() => make({ model: 'm', fetch: 'nope' }), { name: 'TypeError', message: /"fetch" must be a function/ });
      assert.throws(() => make({ model: 'm', baseURL: 'api.example.com' }), { name: 'TypeError', message: /baseURL/ });
      assert.throws(() => make({ model: 'm', headers: 'x: y' }), { name: 'TypeError', message: /"headers"/ });
      assert.throws(() => make({ model: 'm', apiKey: 12345 }), { name: 'TypeError', message: /"apiKey" must be a string/ });
      assert.throws(() => make({ model: 'm', apiKey: `${KEY}\u2019` }), (e) => {
        assert.equal(e.name, 'TypeError');
        assert.match(e.message, /apiKey/);
        assertNoKey(e);
        return true;
      });
      if (a.name === 'openAISummarizer') {
        assert.throws(() => make({ model: 'm', temperature: '0.2' }), { name: 'TypeError', message: /temperature/ });
        assert.throws(() => make({ model: 'm', maxTokensParam: 'tokens' }), { name: 'TypeError', message: /maxTokensParam/ });
      } else {
        assert.throws(() => make({ model: 'm', version: 20230601 }), { name: 'TypeError', message: /version/ });
        assert.throws(() => make({ model: 'm', browser: 'yes' }), { name: 'TypeError', message: /browser/ });
      }
      // No fetch anywhere.
      const original = globalThis.fetch;
      globalThis.fetch = undefined;
      try {
        assert.throws(() => make({ model: 'm' }), { name: 'TypeError', message: /no fetch implementation available/ });
        assert.equal(typeof make({ model: 'm', fetch: original }), 'function');
      } finally {
        globalThis.fetch = original;
      }
    });

    test('an apiKey with a trailing newline is trimmed', async () => {
      llm.respondWith({ text: 'ok' });
      await a.make({ apiKey: `${KEY}\n` })(REQ);
      const h = llm.requests[0].headers;
      assert.equal(a.name === 'openAISummarizer' ? h.authorization : h['x-api-key'],
        a.name === 'openAISummarizer' ? `Bearer ${KEY}` : KEY);
    });

    test('a malformed request rejects with TypeError and sends nothing', async () => {
      const s = a.make();
      await assert.rejects(s(), { name: 'TypeError', message: /request must be an object/ });
      await assert.rejects(s({ ...REQ, prompt: 3 }), { name: 'TypeError', message: /prompt/ });
      await assert.rejects(s({ ...REQ, maxTokens: 0 }), { name: 'TypeError', message: /maxTokens/ });
      await assert.rejects(s({ ...REQ, maxTokens: 1.5 }), { name: 'TypeError', message: /maxTokens/ });
      await assert.rejects(s({ ...REQ, signal: {} }), { name: 'TypeError', message: /signal/ });
      assert.equal(llm.requests.length, 0);
    });

    test('resolves to a string usable as the Compactor\'s summary', async () => {
      llm.respondWith({ text: 'ok' });
      const out = await a.make()(REQ);
      assert.equal(typeof out, 'string');
    });
  });
}

describe('mock LLM server', () => {
  test('queue first, then the standing responder, then the default; functions see the request', async () => {
    const m = await startMockLLM({ respond: (req) => ({ text: `model was ${req.body.model}` }), queue: [{ text: 'first' }] });
    try {
      const s = openAISummarizer({ baseURL: m.url, model: 'qq' });
      assert.equal(await s(REQ), 'first');
      assert.equal(await s(REQ), 'model was qq');
      m.respondWith(null);
      assert.match(await s(REQ), /^\[mock summary [0-9a-f]{8}\]/);
      assert.equal(m.requests.length, 3);
    } finally {
      await m.close();
    }
  });

  test('unknown paths get 404, non-POST gets 405, invalid request JSON gets 400', async () => {
    const m = await startMockLLM();
    try {
      assert.equal((await fetch(`${m.url}/v2/whatever`, { method: 'POST', body: '{}' })).status, 404);
      assert.equal((await fetch(`${m.url}/v1/messages`)).status, 405);
      assert.equal((await fetch(`${m.url}/v1/messages`, { method: 'POST', body: '{oops' })).status, 400);
      assert.equal(m.requests.length, 3);
      assert.equal(m.requests[2].rawBody, '{oops');
      assert.equal(m.requests[2].body, null);
    } finally {
      await m.close();
    }
  });

  test('close() destroys open sockets, including a hanging request and idle keep-alive ones', { timeout: 5000 }, async () => {
    const m = await startMockLLM();
    const s = openAISummarizer({ baseURL: m.url, model: 'm' });
    await s(REQ); // leaves an idle keep-alive connection behind
    m.respondWith({ hang: true });
    const pending = s(REQ);
    for (let i = 0; i < 100 && m.requests.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(m.requests.length, 2);
    assert.ok(m.openSockets() >= 1);
    const t0 = Date.now();
    await m.close();
    assert.ok(Date.now() - t0 < 1000);
    assert.equal(m.openSockets(), 0);
    const e = await rejection(pending);
    assert.equal(e.code, 'network');
    await m.close(); // idempotent
  });
});
