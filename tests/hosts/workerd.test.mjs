// The edge worker (web-demo/edge/worker.js) and the package's `workerd` entry, run in real workerd
// (npm `workerd`), with the upstream played by the mock LLM server. Everything listens on 127.0.0.1, and
// the workers' outbound traffic is restricted by workerd itself to 127.0.0.1 (checked below).

import test, { after, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { defaultSummary, startMockLLM } from '../helpers/mock-llm.mjs';
import { COMPAT_DATE, ROOT, capnpString, localModules, startWorkerd, workerConfig, workerdBinary, workerdEntryFiles } from '../helpers/workerd.mjs';
import { longSession } from '../helpers/long-session.mjs';
import { init, Compactor, estimateTokens, microCompact, validate } from '../../js/hosts/node.js';
import { pricingOf } from '../../web-demo/edge/pricing.js';
import { docSnippet } from '../helpers/doc-snippets.mjs';

const WASM = path.join(ROOT, 'wasm/midfold.wasm');
const WORKER = path.join(ROOT, 'web-demo/edge/worker.js');
const SHIPPED_CONFIG = path.join(ROOT, 'web-demo/edge/config.capnp');
const THRESHOLD = 3000;
const UPSTREAM_KEY = 'test-key-123';
// The edge worker's client tokens: each test that must start without remembered state uses its own.
const TOKENS = ['tok-main-7f3a', 'tok-fail-91c2', 'tok-other-44d0'];
const AUTH = { authorization: `Bearer ${TOKENS[0]}` };
const SMALL_LIMIT = 64 * 1024;
const SESSION_THRESHOLD = 8000;
const SESSION_TOKEN = 'tok-session-5b1e';
// Where micro-compaction alone clears a tool loop of 8 results of 3,000 characters under the threshold.
const OPEN_THRESHOLD = 8000;
const CAP_TOKENS = ['tok-cap-count-19aa', 'tok-cap-bytes-83f0'];
const TTL_TOKEN = 'tok-ttl-60c4';
// The worker's Compactor runs with the Compactor's default profile unless PROFILE says
// otherwise; its x-midfold-tokens-* figures are in that profile's tokens.
const SAFE = { profile: 'safe' };

// ---------------------------------------------------------------------------------------------------------
// Conversations

/** Deterministic tool output of about `chars` characters: code-like lines. */
function toolOutput(seed, chars) {
  const words = ['parse', 'format', 'offset', 'timezone', 'locale', 'calendar', 'interval', 'epoch', 'week', 'month'];
  const lines = [];
  let size = 0;
  for (let j = 0; size < chars; j++) {
    const w = words[(seed * 7 + j * 3) % words.length];
    const line = `${j + 1}: export function ${w}${seed}_${j}(value, options = {}) { return value.${w}(${j}, options.${words[j % words.length]} ?? ${seed * 31 + j}); }`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/**
 * An OpenAI-format agent loop: system, the task, then `turns` tool calls each answered by a tool
 * result of `chars` characters, then a conclusion and the pending user turn.
 */
function toolLoop(turns, chars) {
  const messages = [
    { role: 'system', content: 'You are a careful coding agent. Use the tools to inspect the repository.' },
    { role: 'user', content: 'The date tests fail after the timezone refactor. Find out why and fix src/dates.js.' },
  ];
  for (let i = 0; i < turns; i++) {
    const name = i % 3 === 2 ? 'bash' : 'read_file';
    const args = name === 'bash' ? { command: `npm test -- --grep "suite ${i}"` } : { file_path: `src/module${i}.js` };
    messages.push({
      role: 'assistant',
      content: `Step ${i + 1}: checking ${name === 'bash' ? 'the test run' : `src/module${i}.js`}.`,
      tool_calls: [{ id: `call_${i}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    });
    messages.push({ role: 'tool', tool_call_id: `call_${i}`, content: toolOutput(i, chars) });
  }
  messages.push({ role: 'assistant', content: 'The offset is applied twice in parseDate: once in module3 and again in module7.' });
  messages.push({ role: 'user', content: 'Good. Remove the second offset and tell me which tests to rerun.' });
  return messages;
}

const clone = (v) => JSON.parse(JSON.stringify(v));

// ---------------------------------------------------------------------------------------------------------
// Fixtures: the mock upstream, a decoy on another loopback address, workerd with five workers

let llm;
let decoy;
let decoyConnections = 0;
let wd;
let tmp;
let sse;

/** The README's "Cloudflare Worker" snippet, verbatim. */
function readmeSnippet() {
  return `${docSnippet('cloudflare-worker')}\n`;
}

// A worker that loads midfold from the package's wasm export, and first tries bytes (which workerd refuses).
const EXPLICIT_WORKER = `
import { init, estimateTokens } from 'midfold';
import wasm from 'midfold/midfold.wasm';
import bytes from 'wasm-bytes.bin';

let first = null;
export default {
  async fetch(request) {
    if (first === null) {
      try { await init(bytes); first = { loaded: true }; }
      catch (e) { first = { loaded: false, name: e.name, code: e.code, message: e.message }; }
    }
    await init(wasm);
    return Response.json({ first, isModule: wasm instanceof WebAssembly.Module, tokens: estimateTokens(await request.text()) });
  },
};
`;

// ---------------------------------------------------------------------------------------------------------
// A streaming upstream: answers `stream: true` with server-sent events in several chunks, each sent only
// once the test has seen the previous one arrive through the proxy (so a proxy that buffers would hang).

const SSE_CHUNKS = [
  'data: {"id":"chatcmpl-s1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}\n\n',
  'data: {"id":"chatcmpl-s1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"The offset "}}]}\n\n',
  'data: {"id":"chatcmpl-s1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"is applied twice — 时区偏移重复了。"}}]}\n\n',
  'data: {"id":"chatcmpl-s1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
  'data: [DONE]\n\n',
];

function startSSE() {
  const sse = { requests: [], sent: 0, release: [] };
  sse.server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      sse.requests.push({ headers: req.headers, raw, body: JSON.parse(raw) });
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const script = sse.script ?? SSE_CHUNKS; // a test may set its own chunks for one request
      for (let i = 0; i < script.length; i++) {
        if (i > 0) await new Promise((resolve) => sse.release.push(resolve)); // the test lets the next one go
        res.write(script[i]);
        sse.sent = i + 1;
      }
      res.end();
    });
  });
  return new Promise((resolve) => sse.server.listen(0, '127.0.0.1', () => resolve(sse)));
}

before(async () => {
  assert.ok(existsSync(WASM), 'wasm/midfold.wasm is missing: run `make wasm` first');
  await init();
  llm = await startMockLLM();

  // Something real to connect to on 127.0.0.2: workerd must refuse to, whatever listens there.
  decoy = http.createServer((req, res) => res.end('decoy'));
  decoy.on('connection', () => { decoyConnections++; });
  await new Promise((resolve, reject) => decoy.once('error', reject).listen(0, '127.0.0.2', resolve));

  sse = await startSSE();

  tmp = await mkdtemp(path.join(os.tmpdir(), 'midfold-edge-'));
  await writeFile(path.join(tmp, 'readme-worker.js'), readmeSnippet());
  await writeFile(path.join(tmp, 'explicit-worker.js'), EXPLICIT_WORKER);
  const upstream = `${llm.url}/v1`;
  const keyed = [['UPSTREAM_KEY', UPSTREAM_KEY], ['CLIENT_TOKEN', TOKENS.join(', ')]];
  const edgeBindings = [['UPSTREAM_URL', upstream], ...keyed, ['THRESHOLD', String(THRESHOLD)]];
  const sessionBindings = [['UPSTREAM_URL', upstream], ['UPSTREAM_KEY', UPSTREAM_KEY], ['CLIENT_TOKEN', SESSION_TOKEN],
    ['THRESHOLD', String(SESSION_THRESHOLD)]];
  const config = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "edge", worker = .edge),
    (name = "edge-decoy", worker = .edgeDecoy),
    (name = "edge-o200k", worker = .edgeO200k),
    (name = "edge-bad-profile", worker = .edgeBadProfile),
    (name = "edge-default", worker = .edgeDefault),
    (name = "edge-deepseek", worker = .edgeDeepseek),
    (name = "edge-bad-pricing", worker = .edgeBadPricing),
    (name = "edge-bad-threshold", worker = .edgeBadThreshold),
    (name = "edge-open", worker = .edgeOpen),
    (name = "edge-token-only", worker = .edgeTokenOnly),
    (name = "edge-small", worker = .edgeSmall),
    (name = "edge-bad-limit", worker = .edgeBadLimit),
    (name = "edge-sse", worker = .edgeSse),
    (name = "edge-session", worker = .edgeSession),
    (name = "edge-stateless", worker = .edgeStateless),
    (name = "edge-open-state", worker = .edgeOpenState),
    (name = "edge-capped", worker = .edgeCapped),
    (name = "edge-expiring", worker = .edgeExpiring),
    (name = "edge-bad-state-limit", worker = .edgeBadStateLimit),
    (name = "readme", worker = .readme),
    (name = "explicit", worker = .explicit),
    (name = "loopback", network = (allow = ["127.0.0.1/32"])),
    (name = "session-disk", disk = (path = ${capnpString(path.join(tmp, 'sessions'))}, writable = true)),
  ],
  sockets = [
    (name = "edge", address = "127.0.0.1:0", http = (), service = "edge"),
    (name = "edge-decoy", address = "127.0.0.1:0", http = (), service = "edge-decoy"),
    (name = "edge-o200k", address = "127.0.0.1:0", http = (), service = "edge-o200k"),
    (name = "edge-bad-profile", address = "127.0.0.1:0", http = (), service = "edge-bad-profile"),
    (name = "edge-default", address = "127.0.0.1:0", http = (), service = "edge-default"),
    (name = "edge-deepseek", address = "127.0.0.1:0", http = (), service = "edge-deepseek"),
    (name = "edge-bad-pricing", address = "127.0.0.1:0", http = (), service = "edge-bad-pricing"),
    (name = "edge-bad-threshold", address = "127.0.0.1:0", http = (), service = "edge-bad-threshold"),
    (name = "edge-open", address = "127.0.0.1:0", http = (), service = "edge-open"),
    (name = "edge-token-only", address = "127.0.0.1:0", http = (), service = "edge-token-only"),
    (name = "edge-small", address = "127.0.0.1:0", http = (), service = "edge-small"),
    (name = "edge-bad-limit", address = "127.0.0.1:0", http = (), service = "edge-bad-limit"),
    (name = "edge-sse", address = "127.0.0.1:0", http = (), service = "edge-sse"),
    (name = "edge-session", address = "127.0.0.1:0", http = (), service = "edge-session"),
    (name = "edge-stateless", address = "127.0.0.1:0", http = (), service = "edge-stateless"),
    (name = "edge-open-state", address = "127.0.0.1:0", http = (), service = "edge-open-state"),
    (name = "edge-capped", address = "127.0.0.1:0", http = (), service = "edge-capped"),
    (name = "edge-expiring", address = "127.0.0.1:0", http = (), service = "edge-expiring"),
    (name = "edge-bad-state-limit", address = "127.0.0.1:0", http = (), service = "edge-bad-state-limit"),
    (name = "readme", address = "127.0.0.1:0", http = (), service = "readme"),
    (name = "explicit", address = "127.0.0.1:0", http = (), service = "explicit"),
  ],
);

${workerConfig('edge', WORKER, tmp, edgeBindings, [], { sessions: 'disk' })}
${workerConfig('edgeDecoy', WORKER, tmp, [['UPSTREAM_URL', `http://127.0.0.2:${decoy.address().port}/v1`]])}
${workerConfig('edgeO200k', WORKER, tmp, [...edgeBindings, ['PROFILE', 'o200k']])}
${workerConfig('edgeBadProfile', WORKER, tmp, [...edgeBindings, ['PROFILE', 'gpt-17']])}
${workerConfig('edgeDefault', WORKER, tmp, [['UPSTREAM_URL', upstream], ...keyed])}
${workerConfig('edgeDeepseek', WORKER, tmp, [['UPSTREAM_URL', upstream], ...keyed, ['PRICING', 'deepseek']])}
${workerConfig('edgeBadPricing', WORKER, tmp, [['UPSTREAM_URL', upstream], ...keyed, ['PRICING', 'deepseak']])}
${workerConfig('edgeBadThreshold', WORKER, tmp, [['UPSTREAM_URL', upstream], ...keyed, ['THRESHOLD', '50k']])}
${workerConfig('edgeOpen', WORKER, tmp, [['UPSTREAM_URL', upstream], ['UPSTREAM_KEY', UPSTREAM_KEY]])}
${workerConfig('edgeTokenOnly', WORKER, tmp, [['UPSTREAM_URL', upstream], ['CLIENT_TOKEN', TOKENS[0]]])}
${workerConfig('edgeSmall', WORKER, tmp, [...edgeBindings, ['MAX_BODY_BYTES', String(SMALL_LIMIT)]], [], { sessions: true })}
${workerConfig('edgeBadLimit', WORKER, tmp, [...edgeBindings, ['MAX_BODY_BYTES', '16MB']])}
${workerConfig('edgeSse', WORKER, tmp, [['UPSTREAM_URL', `http://127.0.0.1:${sse.server.address().port}/v1`], ...keyed])}
${workerConfig('edgeSession', WORKER, tmp, sessionBindings, [], { sessions: true })}
${workerConfig('edgeStateless', WORKER, tmp, sessionBindings)}
${workerConfig('edgeOpenState', WORKER, tmp, [['UPSTREAM_URL', upstream], ['THRESHOLD', String(OPEN_THRESHOLD)]], [], { sessions: 'disk' })}
${workerConfig('edgeCapped', WORKER, tmp, [['UPSTREAM_URL', upstream], ['UPSTREAM_KEY', UPSTREAM_KEY], ['CLIENT_TOKEN', CAP_TOKENS.join(',')],
    ['THRESHOLD', String(OPEN_THRESHOLD)], ['STATE_MAX_CONVERSATIONS', '3'], ['STATE_MAX_BYTES', String(128 * 1024)]], [], { sessions: 'disk' })}
${workerConfig('edgeExpiring', WORKER, tmp, [['UPSTREAM_URL', upstream], ['UPSTREAM_KEY', UPSTREAM_KEY], ['CLIENT_TOKEN', TTL_TOKEN],
    ['THRESHOLD', String(OPEN_THRESHOLD)], ['STATE_TTL_SECONDS', '2']], [], { sessions: 'disk' })}
${workerConfig('edgeBadStateLimit', WORKER, tmp, [...edgeBindings, ['STATE_MAX_CONVERSATIONS', 'lots']], [], { sessions: true })}
${workerConfig('readme', path.join(tmp, 'readme-worker.js'), tmp)}
${workerConfig('explicit', path.join(tmp, 'explicit-worker.js'), tmp, [],
    [`(name = "wasm-bytes.bin", data = embed ${capnpString(path.relative(tmp, WASM))})`])}
`;
  await mkdir(path.join(tmp, 'sessions'));
  await writeFile(path.join(tmp, 'config.capnp'), config);
  wd = await startWorkerd({ config: path.join(tmp, 'config.capnp') });
});

after(async () => {
  if (wd) await wd.stop();
  if (llm) await llm.close();
  if (decoy) await new Promise((resolve) => decoy.close(resolve));
  if (sse) { sse.server.closeAllConnections(); await new Promise((resolve) => sse.server.close(resolve)); }
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

beforeEach(() => llm.reset());

function post(url, body, headers = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...AUTH, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(30000),
  });
}

const edgeURL = () => `${wd.url('edge')}/v1/chat/completions`;

function figures(res) {
  return {
    before: Number(res.headers.get('x-midfold-tokens-before')),
    after: Number(res.headers.get('x-midfold-tokens-after')),
    compacted: res.headers.get('x-midfold-compacted'),
    reason: res.headers.get('x-midfold-reason'),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The edge worker

test('a small request is forwarded byte for byte, with figures and no compaction', async () => {
  const body = {
    model: 'gpt-test', temperature: 0.2,
    messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'What is 2 + 2?' }],
  };
  const text = JSON.stringify(body, null, 2);
  const res = await post(edgeURL(), text);
  assert.equal(res.status, 200);
  const answer = await res.json();
  assert.equal(answer.object, 'chat.completion');
  assert.equal(typeof answer.choices[0].message.content, 'string');

  const f = figures(res);
  assert.equal(f.compacted, 'false');
  assert.equal(f.reason, 'below-threshold');
  assert.equal(f.before, estimateTokens(body.messages, SAFE));
  assert.equal(f.after, f.before);

  assert.equal(llm.requests.length, 1, 'no summarization request');
  const [forwarded] = llm.requests;
  assert.equal(forwarded.path, '/v1/chat/completions');
  assert.equal(forwarded.rawBody, text, 'the body reaches the upstream unchanged');
  assert.equal(forwarded.headers.authorization, `Bearer ${UPSTREAM_KEY}`);
});

test('below the threshold the request goes on as the Compactor leaves it: too little to clear, so unchanged', async () => {
  // The Compactor's default is batched: below the threshold it clears old tool results only
  // when 40 % of the threshold can go, so a prompt cache is not rewritten for a small gain.
  const messages = toolLoop(6, 900);
  const body = { model: 'gpt-test', messages };
  const res = await post(edgeURL(), body);
  assert.equal(res.status, 200);
  await res.arrayBuffer();

  const expected = clone(messages);
  const report = await new Compactor({ summarize: () => { throw new Error('no summary expected'); }, threshold: THRESHOLD }).compact(expected);
  assert.equal(report.reason, 'below-threshold');
  assert.ok(microCompact(clone(messages), { keepRecent: 3, ...SAFE }).cleared > 0, 'there are old results that could go');
  assert.deepEqual(expected, messages, 'but too few to repay the rewrite');

  const f = figures(res);
  assert.equal(f.compacted, 'false');
  assert.equal(f.before, estimateTokens(messages, SAFE));
  assert.equal(f.after, f.before);

  assert.equal(llm.requests.length, 1, 'no summarization request');
  assert.deepEqual(llm.requests[0].body, { model: 'gpt-test', messages: expected });
});

test('a large request is compacted: the upstream summarizes first, then gets the shorter conversation', async () => {
  const messages = toolLoop(14, 5000);
  const body = { model: 'gpt-test', max_tokens: 256, messages };
  const summary = 'The agent read modules 0-13; parseDate applies the timezone offset twice (module3 and module7).';
  llm.enqueue({ text: summary });
  const res = await post(edgeURL(), body);
  assert.equal(res.status, 200);
  const answer = await res.json();
  assert.equal(answer.object, 'chat.completion');

  assert.equal(llm.requests.length, 2, 'one summarization request, then the forwarded one');
  const [summarization, forwarded] = llm.requests;

  // The summary was written by the same upstream, with the request's model and the worker's key.
  assert.equal(summarization.path, '/v1/chat/completions');
  assert.equal(summarization.headers.authorization, `Bearer ${UPSTREAM_KEY}`);
  assert.equal(summarization.body.model, 'gpt-test');
  assert.equal(summarization.body.messages[0].role, 'system');
  assert.equal(summarization.body.messages.at(-1).role, 'user');
  assert.match(summarization.body.messages.at(-1).content, /\[tool_use:read_file\]/);

  const sent = forwarded.body.messages;
  assert.equal(forwarded.body.model, 'gpt-test');
  assert.equal(forwarded.body.max_tokens, 256);
  assert.ok(sent.length < messages.length, `${sent.length} messages forwarded of ${messages.length}`);
  assert.deepEqual(sent[0], messages[0], 'the system message comes first, unchanged');
  assert.deepEqual(sent[1], { role: 'user', content: `[Context Compressed]\n${summary}` });
  assert.deepEqual(sent.at(-1), messages.at(-1), 'the pending user turn is kept verbatim');
  assert.equal(validate(sent).ok, true, 'the compacted conversation is valid for the provider');

  const f = figures(res);
  assert.equal(f.compacted, 'true');
  assert.equal(f.reason, 'compacted');
  assert.equal(f.before, estimateTokens(messages, SAFE));
  assert.equal(f.after, estimateTokens(sent, SAFE));
  assert.ok(f.after < f.before / 4, `${f.after} tokens after, ${f.before} before`);
});

test('PROFILE chooses the profile: the figures and the threshold are in its tokens', async () => {
  // toolLoop(6, 900) is under THRESHOLD in o200k tokens (over it in safe ones); what is
  // forwarded is what the Compactor in that profile makes of it (with its batched default,
  // nothing: too little can go to repay a prompt-cache rewrite).
  const messages = toolLoop(6, 900);
  const res = await post(`${wd.url('edge-o200k')}/v1/chat/completions`, { model: 'gpt-test', messages });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  const expected = clone(messages);
  await new Compactor({ summarize: () => { throw new Error('no summary expected'); }, threshold: THRESHOLD, profile: 'o200k' }).compact(expected);
  const f = figures(res);
  assert.equal(f.reason, 'below-threshold');
  assert.equal(f.before, estimateTokens(messages, { profile: 'o200k' }));
  assert.equal(f.after, estimateTokens(expected, { profile: 'o200k' }));
  assert.notEqual(f.before, estimateTokens(messages, SAFE));
  assert.deepEqual(llm.requests[0].body.messages, expected);
});

test('PRICING sets the default threshold: a 70k-token loop is forwarded whole to a DeepSeek upstream (150,000), cleared by default (50,000)', async () => {
  const messages = toolLoop(40, 6000);
  const tokens = estimateTokens(messages, SAFE);
  assert.ok(tokens > 60000 && tokens < 110000, `${tokens} tokens: over 50,000, under DeepSeek's micro trigger (120,000)`);
  const auth = { authorization: `Bearer ${TOKENS[0]}` };
  let res = await post(`${wd.url('edge-deepseek')}/v1/chat/completions`, { model: 'deepseek-v4-flash', messages }, auth);
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  assert.deepEqual([figures(res).reason, figures(res).before, figures(res).after], ['below-threshold', tokens, tokens]);
  assert.deepEqual(llm.requests[0].body.messages, messages, 'forwarded as it came: the cached prefix holds');
  res = await post(`${wd.url('edge-default')}/v1/chat/completions`, { model: 'gpt-test', messages }, auth);
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  assert.ok(figures(res).after < tokens / 2, `cleared at the default: ${figures(res).after} of ${tokens}`);
  assert.notDeepEqual(llm.requests.at(-1).body.messages, messages);
});

test("unset, PRICING is read from the upstream's host: the providers' own API hosts only", () => {
  assert.equal(pricingOf({ UPSTREAM_URL: 'https://api.deepseek.com' }), 'deepseek');
  assert.equal(pricingOf({ UPSTREAM_URL: 'https://api.deepseek.com/v1/' }), 'deepseek');
  assert.equal(pricingOf({ UPSTREAM_URL: 'https://api.openai.com/v1' }), 'openai');
  assert.equal(pricingOf({ UPSTREAM_URL: 'https://api.deepseek.com/anthropic' }), 'deepseek', "DeepSeek's Anthropic API");
  assert.equal(pricingOf({ UPSTREAM_URL: 'https://api.anthropic.com/v1' }), 'anthropic');
  assert.equal(pricingOf({ UPSTREAM_URL: 'https://api.deepseek.com', PRICING: null }), 'deepseek');
  assert.equal(pricingOf({ UPSTREAM_URL: 'https://api.deepseek.com', PRICING: ' openai ' }), 'openai');
  assert.equal(pricingOf({ UPSTREAM_URL: 'http://127.0.0.1:8080/v1' }), undefined);
  assert.equal(pricingOf({ UPSTREAM_URL: 'https://api.deepseek.com.example.net/v1' }), undefined);
  assert.equal(pricingOf({}), undefined);
});

test('an unknown PRICING, or a THRESHOLD that is no whole number, is a 500 saying so, and nothing reaches the upstream', async () => {
  for (const [service, reason] of [['edge-bad-pricing', /pricing must be one of 'anthropic', 'openai', 'deepseek'/],
    ['edge-bad-threshold', /threshold must be a whole number/]]) {
    const res = await post(`${wd.url(service)}/v1/chat/completions`, { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] },
      { authorization: `Bearer ${TOKENS[0]}` });
    assert.equal(res.status, 500);
    const { error } = await res.json();
    assert.equal(error.type, 'server_error');
    assert.match(error.message, /^the worker is misconfigured: /);
    assert.match(error.message, reason);
  }
  assert.equal(llm.requests.length, 0);
});

test('an unknown PROFILE is a 500 naming the known profiles, and nothing reaches the upstream', async () => {
  const res = await post(`${wd.url('edge-bad-profile')}/v1/chat/completions`, { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(res.status, 500);
  const { error } = await res.json();
  assert.equal(error.type, 'server_error');
  assert.match(error.message, /unknown profile "gpt-17"; known: .*\bsafe\b/);
  assert.equal(llm.requests.length, 0);
});

test('a failed summary leaves the request as it was (compaction is never a reason to fail)', async () => {
  const messages = toolLoop(14, 5000);
  llm.enqueue({ status: 500 });
  const text = JSON.stringify({ model: 'gpt-test', messages });
  const res = await post(edgeURL(), text, { authorization: `Bearer ${TOKENS[1]}` });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  const f = figures(res);
  assert.equal(f.compacted, 'false');
  assert.equal(f.reason, 'summarizer-error');
  assert.equal(llm.requests.length, 2);
  assert.equal(llm.requests[1].rawBody, text, 'forwarded as it came');
});

test('upstream failures pass through: status, body and headers', async () => {
  const body = { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] };
  llm.enqueue({ status: 500, error: 'the model crashed' });
  let res = await post(edgeURL(), body);
  assert.equal(res.status, 500);
  assert.deepEqual(await res.json(), {
    error: { message: 'the model crashed', type: 'api_error', param: null, code: null },
  });
  assert.equal(res.headers.get('x-midfold-compacted'), 'false');

  llm.enqueue({ status: 429, headers: { 'retry-after': '7' } });
  res = await post(edgeURL(), body);
  assert.equal(res.status, 429);
  assert.equal(res.headers.get('retry-after'), '7');
  assert.equal((await res.json()).error.type, 'rate_limit_error');
});

test('bad requests get a 4xx JSON error and never reach the upstream', async () => {
  const cases = [
    ['{"model": "gpt-test", "messages": [', 400],
    ['[1, 2, 3]', 400],
    [JSON.stringify({ model: 'gpt-test' }), 400],
    [JSON.stringify({ model: 'gpt-test', messages: 'hello' }), 400],
    [JSON.stringify({ model: 'gpt-test', messages: [42] }), 400],
  ];
  for (const [text, status] of cases) {
    const res = await post(edgeURL(), text);
    assert.equal(res.status, status, text);
    assert.match(res.headers.get('content-type'), /^application\/json/);
    const { error } = await res.json();
    assert.equal(typeof error.message, 'string');
    assert.equal(error.type, 'invalid_request_error');
  }

  let res = await fetch(`${wd.url('edge')}/v1/models`, { headers: AUTH, signal: AbortSignal.timeout(30000) });
  assert.equal(res.status, 404);
  assert.equal((await res.json()).error.type, 'not_found');
  res = await fetch(edgeURL(), { headers: AUTH, signal: AbortSignal.timeout(30000) });
  assert.equal(res.status, 405);
  assert.equal(res.headers.get('allow'), 'POST');
  await res.arrayBuffer();

  assert.equal(llm.requests.length, 0);
});

test('messages nested 10,000 deep are a 400 naming where ("too-deep"), in the opening or later, and never reach the upstream', async () => {
  // As a client's JSON arrives: text (JSON.stringify itself would overflow the stack here).
  const deep = `${'['.repeat(10_000)}"leaf"${']'.repeat(10_000)}`;
  const opening = `{"model":"gpt-test","messages":[{"role":"system","content":"You review pull requests."},` +
    `{"role":"user","content":"Review the AST below.","metadata":{"ast":${deep}}}]}`;
  const later = `{"model":"gpt-test","messages":${JSON.stringify(toolLoop(3, 400)).slice(0, -1)},` +
    `{"role":"user","content":"And this one?","metadata":{"ast":${deep}}}]}`;
  for (const text of [opening, later]) {
    const res = await post(edgeURL(), text);
    assert.equal(res.status, 400);
    const { error } = await res.json();
    assert.equal(error.type, 'invalid_request_error');
    assert.match(error.message, /^'messages' cannot be read: nesting deeper than 512 levels at input\[\d+\]\.metadata\.ast\[0\]/);
  }
  assert.equal(llm.requests.length, 0);
});

test('workerd lets the worker reach 127.0.0.1 only: another address is refused before any connection', async () => {
  const res = await post(`${wd.url('edge-decoy')}/v1/chat/completions`,
    { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(res.status, 502);
  assert.equal((await res.json()).error.type, 'upstream_error');
  assert.equal(decoyConnections, 0, 'nothing connected to 127.0.0.2');
  // workerd logs the refusal on its own schedule: give its stderr a moment to arrive.
  const refused = /connecting to 127\.0\.0\.2:\d+ is not allowed/;
  for (let i = 0; i < 50 && !refused.test(wd.stderr()); i++) await new Promise((r) => setTimeout(r, 100));
  assert.match(wd.stderr(), refused);
});

// ---------------------------------------------------------------------------------------------------------
// Who may use the proxy, and how much it reads

/** POST with exactly these headers (no default token). */
function send(url, body, headers = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(30000),
  });
}

/** True when `secret` appears anywhere in what the upstream received. */
function leaked(secret) {
  return llm.requests.some((r) => JSON.stringify(r.headers).includes(secret) || r.rawBody.includes(secret));
}

test('CLIENT_TOKEN: a missing or wrong token is a 401, and the upstream is never called', async () => {
  const body = { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] };
  const t = TOKENS[0];
  const wrong = [undefined, '', 'Bearer', 'Bearer ', `Bearer ${t}x`, `Bearer ${t.slice(0, -1)}`, `Bearer ${t.toUpperCase()}`,
    `Basic ${btoa(`user:${t}`)}`, t, `Bearer ${TOKENS.join(',')}`, `Bearer ${t} ${t}`, `Bearer  ${UPSTREAM_KEY}`];
  for (const authorization of wrong) {
    const res = await send(edgeURL(), body, authorization === undefined ? {} : { authorization });
    assert.equal(res.status, 401, String(authorization));
    assert.equal(res.headers.get('www-authenticate'), 'Bearer');
    const { error } = await res.json();
    assert.equal(error.type, 'authentication_error');
    assert.doesNotMatch(error.message, new RegExp(t));
  }
  // Refused before anything else: an unknown route or a GET says no more than 401 either.
  assert.equal((await fetch(`${wd.url('edge')}/v1/models`, { signal: AbortSignal.timeout(30000) })).status, 401);
  assert.equal(llm.requests.length, 0, 'nothing reached the upstream');
});

test('CLIENT_TOKEN: every listed token is accepted, and none reaches the upstream (summary requests included)', async () => {
  for (const [i, token] of TOKENS.entries()) {
    const scheme = i === 1 ? 'bearer' : 'Bearer';
    const res = await send(edgeURL(), { model: 'gpt-test', messages: [{ role: 'user', content: `hi ${i}` }] }, { authorization: `${scheme} ${token}` });
    assert.equal(res.status, 200, token);
    await res.arrayBuffer();
  }
  llm.enqueue({ text: 'The agent read modules 0-13 and found the doubled offset.' });
  const res = await send(edgeURL(), { model: 'gpt-test', messages: toolLoop(14, 5000) }, { authorization: `Bearer ${TOKENS[2]}` });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  assert.equal(res.headers.get('x-midfold-compacted'), 'true');
  assert.equal(llm.requests.length, 5);
  for (const r of llm.requests) assert.equal(r.headers.authorization, `Bearer ${UPSTREAM_KEY}`);
  for (const token of TOKENS) assert.equal(leaked(token), false, `${token} never goes upstream`);
});

test('UPSTREAM_KEY without CLIENT_TOKEN fails closed: every request is a 500 saying the worker is misconfigured', async () => {
  const url = wd.url('edge-open');
  const attempts = [
    send(`${url}/v1/chat/completions`, { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }),
    send(`${url}/v1/chat/completions`, { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }, AUTH),
    fetch(`${url}/v1/models`, { signal: AbortSignal.timeout(30000) }),
  ];
  for (const res of await Promise.all(attempts)) {
    assert.equal(res.status, 500);
    const { error } = await res.json();
    assert.equal(error.type, 'server_error');
    assert.match(error.message, /the worker is misconfigured: UPSTREAM_KEY is set but CLIENT_TOKEN is not/);
  }
  assert.equal(llm.requests.length, 0);
});

test('CLIENT_TOKEN without UPSTREAM_KEY: the upstream gets no authorization at all', async () => {
  const res = await send(`${wd.url('edge-token-only')}/v1/chat/completions`, { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }, AUTH);
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  assert.equal(llm.requests.length, 1);
  assert.equal(llm.requests[0].headers.authorization, undefined);
  assert.equal(leaked(TOKENS[0]), false);
});

/** A JSON request body of exactly `bytes` bytes (padded with spaces, which JSON allows). */
function bodyOfSize(bytes) {
  const text = JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: '请检查日志。' }] });
  const size = new TextEncoder().encode(text).length;
  assert.ok(bytes >= size);
  return text + ' '.repeat(bytes - size);
}

/**
 * POSTs `chunks` over a plain socket the way curl does: it reads while it writes, so an answer that
 * comes before the whole body was sent (a 413) is read even when the server then closes the
 * connection under the writes (which fetch and node:http report as EPIPE instead). `contentLength`
 * sets the header; without it the body goes chunked. Resolves to {status, json}.
 */
function rawPost(url, chunks, { contentLength } = {}) {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    let done = false;
    const finish = () => {
      if (done) return;
      const text = received.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
      if (end < 0 || !length || Buffer.byteLength(text.slice(end + 4)) < Number(length[1])) return;
      done = true;
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)[1]), json: JSON.parse(text.slice(end + 4)) });
    };
    socket.on('data', (d) => { received = Buffer.concat([received, d]); finish(); });
    socket.on('error', () => {}); // EPIPE / ECONNRESET once the server has answered and closed
    socket.on('close', () => { if (!done) reject(new Error(`no complete answer: ${received.toString('utf8').slice(0, 200)}`)); });
    socket.on('connect', async () => {
      const framing = contentLength === undefined ? 'transfer-encoding: chunked' : `content-length: ${contentLength}`;
      socket.write(`POST ${pathname} HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\n` +
        `authorization: ${AUTH.authorization}\r\n${framing}\r\n\r\n`);
      for (const chunk of chunks) {
        if (done || socket.destroyed) return;
        const framed = contentLength === undefined ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
        if (!socket.write(framed)) await new Promise((r) => { socket.once('drain', r); socket.once('close', r); });
      }
      if (!done && !socket.destroyed) socket.write(contentLength === undefined ? '0\r\n\r\n' : '');
    });
  });
}

/** `total` bytes of a JSON-looking body in 4 KiB pieces. */
function* pieces(total) {
  const head = Buffer.from('{"model":"gpt-test","messages":[');
  for (let sent = 0; sent < total; sent += 4096) {
    const n = Math.min(4096, total - sent);
    yield sent === 0 ? Buffer.concat([head, Buffer.alloc(n - head.length, 0x20)]) : Buffer.alloc(n, 0x20);
  }
}

test('MAX_BODY_BYTES: larger bodies get 413 before they are parsed, declared or chunked; the worker keeps serving', async () => {
  const url = `${wd.url('edge-small')}/v1/chat/completions`;
  let res = await post(url, bodyOfSize(SMALL_LIMIT));
  assert.equal(res.status, 200, 'a body of exactly the limit is served');
  await res.arrayBuffer();

  res = await post(url, bodyOfSize(SMALL_LIMIT + 1));
  assert.equal(res.status, 413);
  assert.match((await res.json()).error.message, new RegExp(`larger than ${SMALL_LIMIT} bytes`));

  // Somewhat too large, declared or chunked: read to the end and dropped, so even fetch (which writes
  // the whole body before it reads) gets the 413.
  res = await fetch(url, {
    method: 'POST', headers: { 'content-type': 'application/json', ...AUTH }, duplex: 'half',
    body: new Blob([bodyOfSize(SMALL_LIMIT + 1000)]).stream(), signal: AbortSignal.timeout(30000),
  });
  assert.equal(res.status, 413);
  await res.arrayBuffer();

  // Far too large (4x the limit), chunked or declared: answered without reading the rest, and the
  // connection goes down with it. TCP may then lose the answer under the client's unsent writes (a reset
  // discards what the client had not read yet), so the fact checked is that nothing was parsed or sent
  // on: a 413 when the answer arrives, a closed connection otherwise.
  for (const options of [{}, { contentLength: 4 * SMALL_LIMIT }]) {
    const answer = await rawPost(url, pieces(4 * SMALL_LIMIT), options).catch((e) => ({ closed: e.message }));
    if (!answer.closed) {
      assert.equal(answer.status, 413);
      assert.equal(answer.json.error.type, 'invalid_request_error');
    }
  }

  res = await post(url, { model: 'gpt-test', messages: [{ role: 'user', content: 'still there?' }] });
  assert.equal(res.status, 200, 'the worker keeps serving');
  await res.arrayBuffer();
  assert.equal(llm.requests.length, 2, 'only the two bodies within the limit reached the upstream');
});

test('a MAX_BODY_BYTES that is not a whole number is a 500 (misconfigured), not a guessed limit', async () => {
  const res = await post(`${wd.url('edge-bad-limit')}/v1/chat/completions`, { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(res.status, 500);
  assert.match((await res.json()).error.message, /misconfigured: MAX_BODY_BYTES must be a whole number/);
  assert.equal(llm.requests.length, 0);
});

test('the default limit is 16 MiB: a 17 MiB body gets 413, declared or chunked', async () => {
  const big = bodyOfSize(17 * 1024 * 1024);
  let res = await post(edgeURL(), big);
  assert.equal(res.status, 413);
  assert.match((await res.json()).error.message, /larger than 16777216 bytes/);
  res = await fetch(edgeURL(), {
    method: 'POST', headers: { 'content-type': 'application/json', ...AUTH }, duplex: 'half',
    body: new Blob([big]).stream(), signal: AbortSignal.timeout(30000),
  });
  assert.equal(res.status, 413);
  await res.arrayBuffer();
  const ok = await post(edgeURL(), { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(ok.status, 200);
  await ok.arrayBuffer();
  assert.equal(llm.requests.length, 1);
});

/** Lets the SSE upstream send its next chunk, once it is waiting to. */
async function releaseNext() {
  for (let i = 0; i < 500 && sse.release.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(sse.release.length > 0, 'the upstream is waiting to send');
  sse.release.shift()();
}

test('stream: true passes the upstream\'s server-sent events through unchanged, as they come', async () => {
  const body = { model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'Why do the date tests fail?' }] };
  const res = await post(`${wd.url('edge-sse')}/v1/chat/completions`, body, { accept: 'text/event-stream' });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /^text\/event-stream/);
  assert.equal(res.headers.get('x-midfold-compacted'), 'false');
  const reader = res.body.getReader();
  const received = [];
  let bytes = 0;
  const encoded = SSE_CHUNKS.map((c) => new TextEncoder().encode(c));
  for (let i = 0; i < SSE_CHUNKS.length; i++) {
    const want = encoded.slice(0, i + 1).reduce((n, c) => n + c.length, 0);
    while (bytes < want) {
      const { done, value } = await reader.read();
      assert.equal(done, false);
      received.push(value);
      bytes += value.length;
      assert.equal(sse.sent, i + 1, `chunk ${i + 1} arrived while the upstream held chunk ${i + 2} back`);
    }
    if (i + 1 < SSE_CHUNKS.length) await releaseNext();
  }
  assert.equal((await reader.read()).done, true);
  assert.equal(Buffer.concat(received).toString('utf8'), SSE_CHUNKS.join(''), 'the same bytes, unchanged');
  assert.equal(sse.requests.at(-1).body.stream, true);
  assert.equal(sse.requests.at(-1).headers.authorization, `Bearer ${UPSTREAM_KEY}`);
  assert.equal(sse.requests.at(-1).headers.accept, 'text/event-stream');
});

test("the upstream's cookies, hop-by-hop headers and account headers are not relayed; its request id and rate limits are", async () => {
  llm.enqueue({ text: 'The offset is applied twice.', headers: {
    'set-cookie': ['__cf_bm=Qk3x.operator-session; path=/; expires=Sun, 06-Dec-26 22:30:00 GMT; domain=.api.openai.com; HttpOnly; Secure; SameSite=None',
      '_cfuvid=operator.0.1-604800000; path=/; domain=.api.openai.com; HttpOnly; Secure; SameSite=None'],
    'openai-organization': 'org-operator-7731', 'openai-project': 'proj_operator_4410', 'anthropic-organization-id': '6f0c7e2a-operator',
    'alt-svc': 'h3=":443"; ma=86400', 'proxy-authenticate': 'Basic realm="egress"', 'connection': 'keep-alive, x-upstream-hop',
    'x-upstream-hop': 'edge-lb-3', 'x-request-id': 'req_8f2c1d', 'x-ratelimit-remaining-requests': '499', 'openai-processing-ms': '412',
  } });
  const res = await post(edgeURL(), { model: 'gpt-test', messages: [{ role: 'user', content: 'Why do the date tests fail?' }] });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  for (const name of ['set-cookie', 'openai-organization', 'openai-project', 'anthropic-organization-id', 'alt-svc', 'proxy-authenticate', 'x-upstream-hop'])
    assert.equal(res.headers.get(name), null, `${name} is not relayed`);
  assert.deepEqual(res.headers.getSetCookie(), []);
  assert.equal(res.headers.get('x-request-id'), 'req_8f2c1d');
  assert.equal(res.headers.get('x-ratelimit-remaining-requests'), '499');
  assert.equal(res.headers.get('openai-processing-ms'), '412');
});

test('an upstream error that echoes UPSTREAM_KEY reaches the client without it, still valid JSON', async () => {
  const message = `Incorrect API key provided: ${UPSTREAM_KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`;
  llm.enqueue({ status: 401, json: { error: { message, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } } });
  const res = await post(edgeURL(), { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(res.status, 401);
  const text = await res.text();
  assert.equal(text.includes(UPSTREAM_KEY), false, text);
  const { error } = JSON.parse(text);
  assert.equal(error.code, 'invalid_api_key');
  assert.equal(error.message, message.replace(UPSTREAM_KEY, '[redacted]'));
});

test('a streamed answer that echoes UPSTREAM_KEY, split across chunks, arrives without it and event by event', async () => {
  const split = UPSTREAM_KEY.length >> 1;
  const event = (delta) => `data: ${JSON.stringify({ id: 'chatcmpl-s2', object: 'chat.completion.chunk', choices: [{ index: 0, delta }] })}\n\n`;
  const whole = event({ role: 'assistant', content: 'Your gateway logged the key ' }) + event({ content: `${UPSTREAM_KEY} — 请轮换它。` }) + 'data: [DONE]\n\n';
  const at = whole.indexOf(UPSTREAM_KEY) + split;
  sse.script = [whole.slice(0, at), whole.slice(at)]; // the key cut in two
  try {
    const body = { model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'What did the gateway log?' }] };
    const res = await post(`${wd.url('edge-sse')}/v1/chat/completions`, body, { accept: 'text/event-stream' });
    assert.equal(res.status, 200);
    const reader = res.body.getReader();
    const received = [];
    const first = whole.slice(0, whole.indexOf(UPSTREAM_KEY)); // what can go before the key is known whole
    while (Buffer.concat(received).toString('utf8').length < first.length) {
      const { done, value } = await reader.read();
      assert.equal(done, false);
      received.push(value);
      assert.equal(sse.sent, 1, 'the first event arrived while the upstream held the rest back');
    }
    await releaseNext();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received.push(value);
    }
    assert.equal(Buffer.concat(received).toString('utf8'), whole.replace(UPSTREAM_KEY, '[redacted]'));
  } finally {
    sse.script = undefined;
  }
});

// ---------------------------------------------------------------------------------------------------------
// The stateful proxy: clients re-send their whole history every turn

/** Longest common prefix of two strings, in UTF-16 units. */
function commonPrefix(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * Replays `calls` through the proxy at `url` (the whole history each time, re-serialized as a client
 * does) and, alongside, through a stateful Compactor in Node whose summaries are the mock upstream's own
 * (the same deterministic answer for the same request).
 */
async function replayProxy(url, calls, token, threshold) {
  const digestLike = (r) => defaultSummary(r);
  let statefulSummaries = 0;
  const stateful = new Compactor({ threshold, profile: 'safe', summarize: (r) => { statefulSummaries++; return digestLike(r); } });
  const held = [];
  const history = [];
  const out = { calls: 0, summaries: 0, statefulSummaries: 0, same: 0, reuse: [], statefulReuse: [], states: [], forwarded: [] };
  let previous = null;
  let previousHeld = null;
  for (const added of calls) {
    held.push(...clone(added));
    history.push(...clone(added));
    await stateful.compact(held);
    const seen = llm.requests.length;
    const res = await send(url, JSON.stringify({ model: 'gpt-test', messages: history }), { authorization: `Bearer ${token}` });
    assert.equal(res.status, 200);
    await res.arrayBuffer();
    const fresh = llm.requests.slice(seen);
    out.summaries += fresh.length - 1; // every request before the forwarded one wrote a summary
    const forwarded = fresh.at(-1);
    if (JSON.stringify(forwarded.body.messages) === JSON.stringify(held)) out.same++;
    const heldBody = JSON.stringify({ model: 'gpt-test', messages: held });
    if (previous) {
      out.reuse.push(commonPrefix(previous, forwarded.rawBody) / previous.length);
      out.statefulReuse.push(commonPrefix(previousHeld, heldBody) / previousHeld.length);
    }
    previous = forwarded.rawBody;
    previousHeld = heldBody;
    out.states.push(res.headers.get('x-midfold-state'));
    out.forwarded.push(forwarded.body.messages);
    out.calls++;
  }
  out.statefulSummaries = statefulSummaries;
  return out;
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

test('stateful proxy (Durable Object): the stateful Compactor\'s array forwarded every turn, as many summaries, stable prefixes', async (t) => {
  const { calls } = longSession({ turns: 40, format: 'openai', seed: 21 });
  const after = await replayProxy(`${wd.url('edge-session')}/v1/chat/completions`, calls, SESSION_TOKEN, SESSION_THRESHOLD);
  llm.reset();
  const before = await replayProxy(`${wd.url('edge-stateless')}/v1/chat/completions`, calls, SESSION_TOKEN, SESSION_THRESHOLD);

  t.diagnostic(`summaries: proxy ${after.summaries}, stateful ${after.statefulSummaries}, stateless proxy ${before.summaries}; ` +
    `prefix reused: ${mean(after.reuse).toFixed(3)} with state, ${mean(before.reuse).toFixed(3)} without, ` +
    `${mean(after.statefulReuse).toFixed(3)} by the stateful Compactor`);
  assert.ok(after.statefulSummaries >= 3, `${after.statefulSummaries} summaries by the stateful Compactor`);
  assert.ok(after.summaries <= after.statefulSummaries + 1, `${after.summaries} summaries by the proxy, ${after.statefulSummaries} stateful`);
  assert.equal(after.same, after.calls, 'every forwarded conversation is the stateful Compactor\'s array');
  // Until the first edit there is nothing to remember (a fresh plan gives the same); from then on, every
  // call continues the remembered prefix.
  const first = after.states.indexOf('continued');
  assert.ok(first > 0 && after.states.slice(first).every((s) => s === 'continued'), after.states.join(' '));
  assert.ok(before.summaries > 3 * after.summaries, `without state: ${before.summaries} summaries`);
  assert.ok(before.states.every((s) => s === 'off'));
  // What the provider can cache is what the stateful Compactor leaves stable (its micro-compaction
  // clears the results that leave the kept window each turn), far more than without state.
  assert.ok(Math.abs(mean(after.reuse) - mean(after.statefulReuse)) < 0.01);
  assert.ok(mean(after.reuse) > mean(before.reuse) + 0.15);
  // Between compactions, the conversation's opening (system, summary) is never rewritten.
  for (let i = 1; i < after.forwarded.length; i++) {
    if (after.forwarded[i].length > after.forwarded[i - 1].length)
      assert.equal(JSON.stringify(after.forwarded[i].slice(0, 2)), JSON.stringify(after.forwarded[i - 1].slice(0, 2)));
  }
  for (const m of after.forwarded) assert.equal(validate(m).ok, true);
});

test('stateful proxy: state is scoped per client token, and what it stores holds no token', async () => {
  const { calls } = longSession({ turns: 14, format: 'openai', seed: 22 });
  const url = edgeURL();
  const history = calls.flat();
  let res = await post(url, { model: 'gpt-test', messages: history.slice(0, -2) });
  await res.arrayBuffer();
  res = await post(url, { model: 'gpt-test', messages: history });
  await res.arrayBuffer();
  assert.equal(res.headers.get('x-midfold-state'), 'continued');
  // The same conversation from another client starts afresh: its state is not shared.
  res = await post(url, { model: 'gpt-test', messages: history }, { authorization: `Bearer ${TOKENS[2]}` });
  await res.arrayBuffer();
  assert.equal(res.headers.get('x-midfold-state'), 'fresh');
  assert.equal(res.headers.get('x-midfold-reused-messages'), '0');

  // What the Durable Object wrote to disk: the state (index ranges, cleared markers), never a token.
  const files = (await readdir(path.join(tmp, 'sessions'), { recursive: true, withFileTypes: true })).filter((d) => d.isFile());
  const stored = Buffer.concat(await Promise.all(files.map((d) => readFile(path.join(d.parentPath ?? d.path, d.name)))));
  // What midfold wrote there: a cleared result or a summary (batched clearing may not have run yet).
  assert.ok(stored.includes('"snapshots"') && (stored.includes('[truncated:') || stored.includes('[Context Compressed]')), 'the state is stored there');
  for (const token of TOKENS) assert.equal(stored.includes(token), false, `${token} is not stored`);
  assert.equal(stored.includes(UPSTREAM_KEY), false);
});

/**
 * Every value the Durable Objects of the edge worker `worker` (the id of its workerConfig) hold on disk (workerd's localDisk keeps each object in a SQLite
 * file, its values serialized as Cloudflare stores them), as {key, value: Buffer}: what Cloudflare's 128 KiB cap
 * of a key-value Durable Object's value applies to.
 */
async function storedValues(worker = 'edge') {
  const dir = path.join(tmp, 'sessions', `midfold-test-${worker}`);
  if (!existsSync(dir)) return [];
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile() && d.name.endsWith('.sqlite') && d.name !== 'metadata.sqlite');
  const values = [];
  for (const d of files) values.push(...await readValues(path.join(d.parentPath ?? d.path, d.name)));
  return values;
}

/**
 * The _cf_KV rows of one object's SQLite file. workerd may be writing it (an alarm deleting what expired): a
 * read then waits for the lock (busy timeout), and a read that still finds it locked is tried again.
 */
async function readValues(file) {
  for (let attempt = 1; ; attempt++) {
    if (!existsSync(file)) return []; // (deleted with its object's storage meanwhile)
    const db = new DatabaseSync(file, { readOnly: true, timeout: 5000 });
    try {
      // (an object that was only read has a file, and no table yet)
      const kv = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_cf_KV'").get();
      return kv ? db.prepare('SELECT key, value FROM _cf_KV').all().map((row) => ({ key: row.key, value: Buffer.from(row.value) })) : [];
    } catch (e) {
      if (!(e && e.errcode === 5) || attempt === 10) throw e; // SQLITE_BUSY
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      db.close();
    }
  }
}

/** Whether `bytes` holds `ascii`, as UTF-8 or as a UTF-16 string would store it. */
const holds = (bytes, ascii) => bytes.includes(Buffer.from(ascii, 'utf8')) || bytes.includes(Buffer.from(ascii, 'utf16le'));
const DO_VALUE_LIMIT = 128 * 1024; // Cloudflare's limit of a key-value Durable Object's value

test('stateful proxy: a fold whose state alone is over 120 KiB is forwarded but not stored, and says so; nothing on disk passes 128 KiB', async () => {
  const marker = 'ROLLBACK-LOG-7731';
  const summary = `${marker}\n${Array.from({ length: 2600 }, (_, i) => `- step ${i}: read src/module${i % 14}.js, the offset is applied twice`).join('\n')}`;
  assert.ok(Buffer.byteLength(summary) > 150_000);
  llm.enqueue({ text: summary });
  // (a fold must leave less than it folds, or it is skipped as no-gain: the middle is larger than the summary)
  const messages = [{ role: 'system', content: 'You are a release engineer rolling back a bad deploy.' }, ...toolLoop(60, 5000).slice(1)];
  const res = await post(edgeURL(), { model: 'gpt-test', messages }, { authorization: `Bearer ${TOKENS[1]}` });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  assert.equal(res.headers.get('x-midfold-compacted'), 'true');
  assert.equal(res.headers.get('x-midfold-state-saved'), 'too-large');
  assert.ok(llm.requests.at(-1).rawBody.includes(marker), 'the fold was forwarded');
  const values = await storedValues();
  for (const { key, value } of values) assert.ok(value.length <= DO_VALUE_LIMIT, `${key}: ${value.length} bytes stored`);
  assert.equal(values.some(({ value }) => holds(value, marker)), false, 'the oversized state is not stored');
});

test('stateful proxy: a state of Chinese and English under 120 KiB of UTF-8 is stored within 128 KiB on disk, and continues', async () => {
  const marker = 'REFUND-AUDIT-5120';
  // 70,000 characters, one in ten Chinese: 84 KB of UTF-8, but 140 KB as a JavaScript string holding them.
  const line = (i) => `- refund ${String(i).padStart(4, '0')}: amount rounds half-cent up, 退款已核对完 ok\n`;
  const summary = `${marker}\n${Array.from({ length: 1400 }, (_, i) => line(i)).join('')}`;
  assert.ok(Buffer.byteLength(summary) < 100_000 && 2 * summary.length > DO_VALUE_LIMIT);
  llm.enqueue({ text: summary });
  const messages = [{ role: 'system', content: 'You audit refunds in the payments service.' }, ...toolLoop(40, 5000).slice(1)];
  let res = await post(edgeURL(), { model: 'gpt-test', messages }, { authorization: `Bearer ${TOKENS[1]}` });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  assert.equal(res.headers.get('x-midfold-compacted'), 'true');
  assert.equal(res.headers.get('x-midfold-state-saved'), 'true');
  const mine = (await storedValues()).filter(({ value }) => holds(value, marker));
  assert.equal(mine.length, 1);
  assert.ok(mine[0].value.length <= DO_VALUE_LIMIT, `${mine[0].value.length} bytes stored`);
  const next = [...messages, { role: 'assistant', content: 'Half-cent refunds now round to even.' }, { role: 'user', content: '好的，再跑一遍测试。' }];
  res = await post(edgeURL(), { model: 'gpt-test', messages: next }, { authorization: `Bearer ${TOKENS[1]}` });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  assert.equal(res.headers.get('x-midfold-state'), 'continued');
  assert.equal(res.headers.get('x-midfold-reused-messages'), String(messages.length));
});

/** A tool loop of 8 results of 3,000 characters (micro-compaction alone clears it under OPEN_THRESHOLD), opening with `task`. */
function clearedLoop(task) {
  const messages = toolLoop(8, 3000);
  messages[1] = { role: 'user', content: task };
  return messages;
}

/** The conversation keys a worker's Durable Objects hold state for (its index and other bookkeeping left out). */
const storedConversations = async (worker) => (await storedValues(worker)).map(({ key }) => key).filter((k) => /^[0-9a-f]{64}$/.test(k));

test('open mode: a request the upstream refuses (a junk key, 401) leaves no state; an accepted key\'s state is kept and continues', async () => {
  const VALID = 'sk-client-live-2b7e';
  llm.respondWith((req) => (req.headers.authorization === `Bearer ${VALID}` ? {}
    : { status: 401, json: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } } }));
  const url = `${wd.url('edge-open-state')}/v1/chat/completions`;
  for (let i = 0; i < 12; i++) {
    const res = await send(url, { model: 'gpt-test', messages: clearedLoop(`Scan the repository for leaked secrets, pass ${i}.`) },
      { authorization: `Bearer sk-junk-${i}-${'x'.repeat(20)}` });
    assert.equal(res.status, 401);
    await res.arrayBuffer();
    assert.equal(res.headers.get('x-midfold-state-saved'), 'not-accepted', `request ${i}`);
  }
  assert.deepEqual(await storedConversations('edgeOpenState'), [], 'nothing kept for 12 refused requests');

  const messages = clearedLoop('Find why the date tests fail after the timezone refactor.');
  let res = await send(url, { model: 'gpt-test', messages }, { authorization: `Bearer ${VALID}` });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  assert.equal(res.headers.get('x-midfold-state-saved'), 'true');
  assert.equal((await storedConversations('edgeOpenState')).length, 1);
  res = await send(url, { model: 'gpt-test', messages: [...messages, { role: 'assistant', content: 'Fixed.' }, { role: 'user', content: 'Thanks.' }] },
    { authorization: `Bearer ${VALID}` });
  await res.arrayBuffer();
  assert.equal(res.headers.get('x-midfold-state'), 'continued');
});

test('open mode: requests without Authorization keep no state and share none (no anonymous scope)', async () => {
  const url = `${wd.url('edge-open-state')}/v1/chat/completions`;
  const messages = clearedLoop('Summarize the on-call handover notes.');
  const before = await storedConversations('edgeOpenState');
  for (const client of ['first', 'second']) {
    const res = await send(url, { model: 'gpt-test', messages });
    assert.equal(res.status, 200, client);
    await res.arrayBuffer();
    assert.equal(res.headers.get('x-midfold-state'), 'off', `${client} anonymous client`);
    assert.equal(res.headers.get('x-midfold-reused-messages'), '0');
  }
  assert.deepEqual(await storedConversations('edgeOpenState'), before, 'nothing stored for them');
  assert.equal(llm.requests.at(-1).headers.authorization, undefined);
});

test('per scope, at most STATE_MAX_CONVERSATIONS conversations are kept: the least recently saved goes first', async () => {
  const url = `${wd.url('edge-capped')}/v1/chat/completions`;
  const auth = { authorization: `Bearer ${CAP_TOKENS[0]}` };
  const tasks = ['Fix the flaky login test.', 'Upgrade the logger to v3.', 'Profile the slow report query.', 'Translate the README to 中文.',
    'Remove the dead feature flags.'];
  for (const task of tasks) {
    const res = await post(url, { model: 'gpt-test', messages: clearedLoop(task) }, auth);
    assert.equal(res.status, 200);
    await res.arrayBuffer();
    assert.equal(res.headers.get('x-midfold-state-saved'), 'true', task);
  }
  assert.equal((await storedConversations('edgeCapped')).length, 3);
  const again = async (task) => {
    const res = await post(url, { model: 'gpt-test', messages: [...clearedLoop(task), { role: 'assistant', content: 'Done.' }, { role: 'user', content: 'Next?' }] }, auth);
    await res.arrayBuffer();
    return res.headers.get('x-midfold-state');
  };
  assert.equal(await again(tasks[4]), 'continued', 'the newest is kept');
  assert.equal(await again(tasks[2]), 'continued');
  assert.equal(await again(tasks[0]), 'fresh', 'the oldest was evicted');
});

test('per scope, at most STATE_MAX_BYTES are kept: a large new state evicts the oldest', async () => {
  const url = `${wd.url('edge-capped')}/v1/chat/completions`;
  const auth = { authorization: `Bearer ${CAP_TOKENS[1]}` };
  const summary = (n) => `Release ${n} checklist.\n${Array.from({ length: 900 }, (_, i) => `- item ${i}: verified migration ${n}.${i} on staging`).join('\n')}`;
  const conversations = ['Prepare release 41.', 'Prepare release 42.', 'Prepare release 43.'].map((task) => {
    const m = toolLoop(14, 12000); // its recent results alone are over OPEN_THRESHOLD: a fold
    m[1] = { role: 'user', content: task };
    return m;
  });
  for (const [i, messages] of conversations.entries()) {
    llm.enqueue({ text: summary(41 + i) }); // about 45 KB each: two fit in 128 KiB, three do not
    const res = await post(url, { model: 'gpt-test', messages }, auth);
    assert.equal(res.status, 200);
    await res.arrayBuffer();
    assert.equal(res.headers.get('x-midfold-compacted'), 'true', `${res.headers.get('x-midfold-reason')} ${res.headers.get('x-midfold-tokens-after')}`);
    assert.equal(res.headers.get('x-midfold-state-saved'), 'true');
  }
  const values = (await storedValues('edgeCapped')).filter(({ value }) => holds(value, 'checklist'));
  assert.deepEqual(values.map(({ value }) => [41, 42, 43].filter((n) => holds(value, `Release ${n} checklist`))).flat().sort(), [42, 43]);
  assert.ok(values.reduce((n, { value }) => n + value.length, 0) <= 128 * 1024);
});

test('state expires STATE_TTL_SECONDS after it was last saved: a Durable Object alarm deletes it', async () => {
  const url = `${wd.url('edge-expiring')}/v1/chat/completions`;
  const auth = { authorization: `Bearer ${TTL_TOKEN}` };
  const messages = clearedLoop('Rotate the staging database credentials.');
  let res = await post(url, { model: 'gpt-test', messages }, auth);
  await res.arrayBuffer();
  assert.equal(res.headers.get('x-midfold-state-saved'), 'true');
  assert.equal((await storedConversations('edgeExpiring')).length, 1);
  // The alarm is set for two seconds on: wait for it (up to 30 s on a loaded machine).
  for (let i = 0; i < 300 && (await storedValues('edgeExpiring')).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(await storedValues('edgeExpiring'), [], 'the object\'s storage is empty');
  res = await post(url, { model: 'gpt-test', messages: [...messages, { role: 'assistant', content: 'Rotated.' }, { role: 'user', content: 'Check the app.' }] }, auth);
  await res.arrayBuffer();
  assert.equal(res.headers.get('x-midfold-state'), 'fresh');
});

test('a STATE_* setting that is no whole number in range is a 500 (misconfigured), and nothing reaches the upstream', async () => {
  const res = await post(`${wd.url('edge-bad-state-limit')}/v1/chat/completions`, { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(res.status, 500);
  assert.match((await res.json()).error.message, /misconfigured: STATE_MAX_CONVERSATIONS must be a whole number from 1 to 1000/);
  assert.equal(llm.requests.length, 0);
});

// ---------------------------------------------------------------------------------------------------------
// The workerd entry itself

test("the README's Cloudflare Worker snippet runs in workerd and agrees with Node", async () => {
  const messages = toolLoop(6, 900);
  const res = await post(wd.url('readme'), { messages });
  assert.equal(res.status, 200);
  const got = await res.json();
  const expected = clone(messages);
  const before = estimateTokens(expected);
  const { cleared } = microCompact(expected, { keepRecent: 3 });
  assert.deepEqual(got, { before, after: estimateTokens(expected), cleared, messages: expected });
  assert.ok(cleared > 0);
});

test('init() takes the WebAssembly.Module of midfold/midfold.wasm; bytes are refused with a hint', async (t) => {
  const res = await post(wd.url('explicit'), 'Hello, world');
  assert.equal(res.status, 200);
  const got = await res.json();
  assert.equal(got.isModule, true);
  assert.equal(got.tokens, estimateTokens('Hello, world'));
  // workerd compiles no wasm from bytes; should that ever change, loading simply succeeds.
  t.diagnostic(`init(bytes) in workerd: ${got.first.loaded ? 'loaded' : got.first.message}`);
  if (!got.first.loaded) {
    assert.equal(got.first.code, 'init-failed');
    assert.match(got.first.message, /midfold\/midfold\.wasm/);
  }
});

test('no eval and no new Function in js/ and the worker', () => {
  const files = readdirSync(path.join(ROOT, 'js'), { recursive: true }).filter((f) => f.endsWith('.js')).map((f) => path.join(ROOT, 'js', f));
  assert.ok(files.length > 30, `js/ holds ${files.length} modules`);
  for (const f of readdirSync(path.dirname(WORKER)).filter((x) => x.endsWith('.js'))) files.push(path.join(path.dirname(WORKER), f));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    assert.doesNotMatch(text, /\beval\s*\(/, file);
    assert.doesNotMatch(text, /\bnew\s+Function\b/, file);
  }
});

// ---------------------------------------------------------------------------------------------------------
// The shipped config (web-demo/edge/config.capnp), as a user runs it

test('the shipped config lists every module of the workerd entry and allows loopback only', () => {
  const text = readFileSync(SHIPPED_CONFIG, 'utf8').replace(/#.*$/gm, ''); // without comments
  for (const { file, kind } of workerdEntryFiles()) {
    const re = new RegExp(`name = "midfold/${file.replace(/\./g, '\\.')}", ${kind === 'wasm' ? 'wasm' : 'esModule'} = embed "\\.\\./\\.\\./${file.replace(/\./g, '\\.')}"`);
    assert.match(text, re, `config.capnp embeds ${file}`);
  }
  const allows = [...text.matchAll(/allow\s*=\s*\[([^\]]*)\]/g)].flatMap((m) => m[1].split(',').map((s) => s.trim()));
  assert.deepEqual(allows, ['"127.0.0.1/32"']);
  for (const line of localModules(WORKER, path.dirname(SHIPPED_CONFIG))) assert.ok(text.includes(line), `config.capnp has ${line}`);
  assert.match(text, /\(name = "SESSIONS", durableObjectNamespace = "SessionStore"\)/);
  assert.match(text, /durableObjectNamespaces = \[\s*\(className = "SessionStore", uniqueKey = "[\w-]+"\),\s*\]/);
  assert.match(text, /durableObjectStorage = \(inMemory = void\)/);
  for (const name of ['UPSTREAM_URL', 'UPSTREAM_KEY', 'CLIENT_TOKEN', 'MAX_BODY_BYTES', 'THRESHOLD', 'PRICING', 'PROFILE', 'SUMMARY_MODEL'])
    assert.match(text, new RegExp(`\\(name = "${name}", fromEnvironment = "${name}"\\)`));
  assert.match(text, /globalOutbound = "upstream"/);
  assert.match(text, /\(name = "upstream", network = \(allow = \["127\.0\.0\.1\/32"\]\)\)/);
});

test('the shipped config runs the worker with settings from the environment', async () => {
  assert.ok(workerdBinary().compatibilityDate >= COMPAT_DATE);
  const shipped = await startWorkerd({
    config: SHIPPED_CONFIG,
    args: ['--socket-addr', 'http=127.0.0.1:0'],
    env: { UPSTREAM_URL: `${llm.url}/v1`, THRESHOLD: String(THRESHOLD), SUMMARY_MODEL: 'summary-model', PROFILE: 'bareagent' },
  });
  try {
    const url = `${shipped.url('http')}/v1/chat/completions`;
    // No UPSTREAM_KEY: the client's own key is passed on, to the summary request too.
    const auth = { authorization: 'Bearer client-key' };
    const small = toolLoop(6, 900);
    let res = await post(url, { model: 'gpt-test', messages: small }, auth);
    assert.equal(res.status, 200);
    await res.arrayBuffer();
    assert.equal(res.headers.get('x-midfold-compacted'), 'false');
    assert.equal(figures(res).before, estimateTokens(small, { profile: 'bareagent' }), 'PROFILE comes from the environment');

    const messages = toolLoop(14, 5000);
    res = await post(url, { model: 'gpt-test', messages }, auth);
    assert.equal(res.status, 200);
    await res.arrayBuffer();
    assert.equal(res.headers.get('x-midfold-compacted'), 'true');
    assert.equal(llm.requests.length, 3);
    assert.equal(llm.requests[1].body.model, 'summary-model');
    for (const r of llm.requests) assert.equal(r.headers.authorization, 'Bearer client-key');
    assert.match(llm.requests[2].body.messages[1].content, /^\[Context Compressed\]\n/);
  } finally {
    await shipped.stop();
  }
});

test('the shipped config keeps state in its Durable Object, per client token, with UPSTREAM_KEY and CLIENT_TOKEN from the environment', async () => {
  const token = 'shipped-token-3c9e';
  const shipped = await startWorkerd({
    config: SHIPPED_CONFIG,
    args: ['--socket-addr', 'http=127.0.0.1:0'],
    env: { UPSTREAM_URL: `${llm.url}/v1`, UPSTREAM_KEY, CLIENT_TOKEN: token, THRESHOLD: String(SESSION_THRESHOLD) },
  });
  try {
    const url = `${shipped.url('http')}/v1/chat/completions`;
    const unauthorized = await send(url, { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(unauthorized.status, 401);
    await unauthorized.arrayBuffer();
    const { calls } = longSession({ turns: 14, format: 'openai', seed: 23 });
    const run = await replayProxy(url, calls, token, SESSION_THRESHOLD);
    assert.ok(run.statefulSummaries >= 1);
    assert.ok(run.summaries <= run.statefulSummaries + 1, `${run.summaries} summaries, ${run.statefulSummaries} stateful`);
    assert.equal(run.same, run.calls);
    assert.equal(run.states.at(-1), 'continued');
    for (const r of llm.requests) assert.equal(r.headers.authorization, `Bearer ${UPSTREAM_KEY}`);
    assert.equal(leaked(token), false);
  } finally {
    await shipped.stop();
  }
});
