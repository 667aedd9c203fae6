// The edge worker (web-demo/edge/worker.js) and the package's `workerd` entry, run in real workerd
// (npm `workerd`), with the upstream played by the mock LLM server. Everything listens on 127.0.0.1, and
// the workers' outbound traffic is restricted by workerd itself to 127.0.0.1 (checked below).

import test, { after, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { startMockLLM } from './helpers/mock-llm.mjs';
import { ROOT, capnpString, midfoldModules, startWorkerd, workerdBinary, workerdEntryFiles } from './helpers/workerd.mjs';
import { init, estimateTokens, microCompact, validate, Compactor } from '../js/node.js';

const WASM = path.join(ROOT, 'wasm/midfold.wasm');
const WORKER = path.join(ROOT, 'web-demo/edge/worker.js');
const SHIPPED_CONFIG = path.join(ROOT, 'web-demo/edge/config.capnp');
const THRESHOLD = 3000;
const UPSTREAM_KEY = 'test-key-123';
const COMPAT_DATE = '2025-09-01';
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

/** The README's "Cloudflare Worker" snippet, verbatim. */
function readmeSnippet() {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## Cloudflare Worker\s*$/m)[1];
  assert.ok(section, 'README.md has a "## Cloudflare Worker" section');
  const block = /```js\n([\s\S]*?)```/.exec(section.split(/^## /m)[0]);
  assert.ok(block, 'the section has a js snippet');
  return block[1];
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

function workerConfig(id, mainFile, configDir, bindings = [], extraModules = []) {
  const lines = [
    `(name = "worker.js", esModule = embed ${capnpString(path.relative(configDir, mainFile))})`,
    ...midfoldModules(configDir),
    ...extraModules,
  ];
  return `const ${id} :Workerd.Worker = (
  compatibilityDate = ${capnpString(COMPAT_DATE)},
  modules = [
    ${lines.join(',\n    ')}
  ],
  bindings = [${bindings.map(([name, value]) => `(name = ${capnpString(name)}, text = ${capnpString(value)})`).join(', ')}],
  globalOutbound = "loopback",
);
`;
}

before(async () => {
  assert.ok(existsSync(WASM), 'wasm/midfold.wasm is missing: run `make wasm` first');
  await init();
  llm = await startMockLLM();

  // Something real to connect to on 127.0.0.2: workerd must refuse to, whatever listens there.
  decoy = http.createServer((req, res) => res.end('decoy'));
  decoy.on('connection', () => { decoyConnections++; });
  await new Promise((resolve, reject) => decoy.once('error', reject).listen(0, '127.0.0.2', resolve));

  tmp = await mkdtemp(path.join(os.tmpdir(), 'midfold-edge-'));
  await writeFile(path.join(tmp, 'readme-worker.js'), readmeSnippet());
  await writeFile(path.join(tmp, 'explicit-worker.js'), EXPLICIT_WORKER);
  const upstream = `${llm.url}/v1`;
  const edgeBindings = [['UPSTREAM_URL', upstream], ['UPSTREAM_KEY', UPSTREAM_KEY], ['THRESHOLD', String(THRESHOLD)]];
  const config = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "edge", worker = .edge),
    (name = "edge-decoy", worker = .edgeDecoy),
    (name = "edge-o200k", worker = .edgeO200k),
    (name = "edge-bad-profile", worker = .edgeBadProfile),
    (name = "readme", worker = .readme),
    (name = "explicit", worker = .explicit),
    (name = "loopback", network = (allow = ["127.0.0.1/32"])),
  ],
  sockets = [
    (name = "edge", address = "127.0.0.1:0", http = (), service = "edge"),
    (name = "edge-decoy", address = "127.0.0.1:0", http = (), service = "edge-decoy"),
    (name = "edge-o200k", address = "127.0.0.1:0", http = (), service = "edge-o200k"),
    (name = "edge-bad-profile", address = "127.0.0.1:0", http = (), service = "edge-bad-profile"),
    (name = "readme", address = "127.0.0.1:0", http = (), service = "readme"),
    (name = "explicit", address = "127.0.0.1:0", http = (), service = "explicit"),
  ],
);

${workerConfig('edge', WORKER, tmp, edgeBindings)}
${workerConfig('edgeDecoy', WORKER, tmp, [['UPSTREAM_URL', `http://127.0.0.2:${decoy.address().port}/v1`]])}
${workerConfig('edgeO200k', WORKER, tmp, [...edgeBindings, ['PROFILE', 'o200k']])}
${workerConfig('edgeBadProfile', WORKER, tmp, [...edgeBindings, ['PROFILE', 'gpt-17']])}
${workerConfig('readme', path.join(tmp, 'readme-worker.js'), tmp)}
${workerConfig('explicit', path.join(tmp, 'explicit-worker.js'), tmp, [],
    [`(name = "wasm-bytes.bin", data = embed ${capnpString(path.relative(tmp, WASM))})`])}
`;
  await writeFile(path.join(tmp, 'config.capnp'), config);
  wd = await startWorkerd({ config: path.join(tmp, 'config.capnp') });
});

after(async () => {
  if (wd) await wd.stop();
  if (llm) await llm.close();
  if (decoy) await new Promise((resolve) => decoy.close(resolve));
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

beforeEach(() => llm.reset());

function post(url, body, headers = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
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
  const res = await post(edgeURL(), text);
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

  let res = await fetch(`${wd.url('edge')}/v1/models`, { signal: AbortSignal.timeout(30000) });
  assert.equal(res.status, 404);
  assert.equal((await res.json()).error.type, 'not_found');
  res = await fetch(edgeURL(), { signal: AbortSignal.timeout(30000) });
  assert.equal(res.status, 405);
  assert.equal(res.headers.get('allow'), 'POST');
  await res.arrayBuffer();

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

test('no eval and no new Function in js/*.js and the worker', () => {
  const files = readdirSync(path.join(ROOT, 'js')).filter((f) => f.endsWith('.js')).map((f) => path.join(ROOT, 'js', f));
  files.push(WORKER);
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
