// The edge proxy as it is deployed: web-demo/edge/wrangler.jsonc, bundled by the installed wrangler and run by
// `wrangler dev --local` (its own workerd and Durable Object storage), with the secrets in a .dev.vars-format file
// and the upstream played by the mock LLM server on 127.0.0.1. No account, no login, nothing sent anywhere
// (tests/helpers/wrangler.mjs).

import test, { after, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

import { startMockLLM } from '../helpers/mock-llm.mjs';
import { COMPAT_DATE, ROOT } from '../helpers/workerd.mjs';
import { runWrangler, startWranglerDev } from '../helpers/wrangler.mjs';
import { init, Compactor, estimateTokens, validate } from '../../js/hosts/node.js';

const CONFIG = path.join(ROOT, 'web-demo/edge/wrangler.jsonc');
const WORKER = path.join(ROOT, 'web-demo/edge/worker.js');
const CLIENT_TOKEN = 'tok-wrangler-6d2f';
const UPSTREAM_KEY = 'sk-upstream-wrangler-91ab';
const THRESHOLD = 6000;

/** wrangler.jsonc as wrangler reads it (comments and trailing commas allowed): TypeScript's JSONC reader. */
function wranglerConfig() {
  const { config, error } = ts.parseConfigFileTextToJson(CONFIG, readFileSync(CONFIG, 'utf8'));
  assert.equal(error, undefined, error && ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  return config;
}

// ---------------------------------------------------------------------------------------------------------
// A conversation worth compacting: a coding agent's loop over real-looking tool output, with a parallel call

function sourceFile(name, lines) {
  const out = [];
  for (let i = 1; i <= lines; i++) {
    out.push(`${String(i).padStart(4)}\t${i % 9 === 0 ? `// ${name}: 处理时区偏移 (case ${i})` : `export function ${name}Step${i}(input, tz = 'Asia/Shanghai') { return shift(input, offsetOf(tz) * ${i % 7}); }`}`);
  }
  return out.join('\n');
}

function testRun(suite) {
  const lines = [`> dates@2.4.1 test`, `> node --test test/${suite}.test.js`, ''];
  for (let i = 0; i < 40; i++) {
    lines.push(i % 11 === 3
      ? `not ok ${i + 1} - ${suite} parses 2026-03-29T02:30 in Europe/Berlin\n  ---\n  expected: '2026-03-29T03:30:00+02:00'\n  actual:   '2026-03-29T04:30:00+02:00'\n  ...`
      : `ok ${i + 1} - ${suite} case ${i} (${(i * 1.7 + 3).toFixed(1)}ms)`);
  }
  lines.push('# tests 40', '# pass 36', '# fail 4');
  return lines.join('\n');
}

function debuggingSession() {
  const messages = [
    { role: 'system', content: 'You are a careful coding agent working in the dates repository. Use the tools; never guess file contents.' },
    { role: 'user', content: 'DST 切换那天的测试失败了。The Berlin tests fail on the spring-forward day: find out why and fix src/shift.js.' },
  ];
  for (let i = 0; i < 10; i++) {
    if (i === 4) { // two files read at once
      messages.push({ role: 'assistant', content: 'Reading both offset helpers side by side.', tool_calls: [
        { id: 'call_p1', type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: 'src/offset.js' }) } },
        { id: 'call_p2', type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: 'src/zone.js' }) } },
      ] });
      messages.push({ role: 'tool', tool_call_id: 'call_p1', content: sourceFile('offset', 60) });
      messages.push({ role: 'tool', tool_call_id: 'call_p2', content: sourceFile('zone', 60) });
      continue;
    }
    const bash = i % 2 === 1;
    messages.push({
      role: 'assistant',
      content: bash ? `Running suite ${i}.` : `Reading src/module${i}.js.`,
      tool_calls: [{ id: `call_${i}`, type: 'function', function: bash
        ? { name: 'bash', arguments: JSON.stringify({ command: `npm test -- test/suite${i}.test.js` }) }
        : { name: 'read_file', arguments: JSON.stringify({ path: `src/module${i}.js` }) } }],
    });
    messages.push({ role: 'tool', tool_call_id: `call_${i}`, content: bash ? testRun(`suite${i}`) : sourceFile(`module${i}`, 55) });
  }
  messages.push({ role: 'assistant', content: 'shift() adds the DST offset and offsetOf() has already included it: the hour is added twice.' });
  messages.push({ role: 'user', content: 'Fix it in shift.js only, then tell me which suites to rerun.' });
  return messages;
}

const clone = (v) => JSON.parse(JSON.stringify(v));

// ---------------------------------------------------------------------------------------------------------
// Fixtures

let llm;
let tmp;
let envFile;
let state;
let dev;

before(async () => {
  assert.ok(existsSync(path.join(ROOT, 'wasm/midfold.wasm')), 'wasm/midfold.wasm is missing: run `make wasm` first');
  await init();
  llm = await startMockLLM();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'midfold-edge-wrangler-'));
  envFile = path.join(tmp, '.dev.vars');
  await writeFile(envFile, `CLIENT_TOKEN=${CLIENT_TOKEN}\nUPSTREAM_KEY=${UPSTREAM_KEY}\n`);
  state = path.join(tmp, 'state');
  dev = await startDev();
});

after(async () => {
  if (dev) await dev.stop();
  if (llm) await llm.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

beforeEach(() => llm.reset());

/** wrangler dev of the shipped config, its upstream the mock, its Durable Object storage in `state`. */
function startDev() {
  return startWranglerDev({ config: CONFIG, envFile, persistTo: state, vars: { UPSTREAM_URL: `${llm.url}/v1`, THRESHOLD: String(THRESHOLD) } });
}

function post(body, headers = { authorization: `Bearer ${CLIENT_TOKEN}` }) {
  return fetch(`${dev.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60000),
  });
}

const header = (res, name) => res.headers.get(`x-midfold-${name}`);

/** Whether `secret` appears in anything the upstream received. */
const reachedUpstream = (secret) => llm.requests.some((r) => JSON.stringify(r.headers).includes(secret) || r.rawBody.includes(secret));

// ---------------------------------------------------------------------------------------------------------
// The config

test('wrangler.jsonc: the worker, its SessionStore binding and SQLite migration, at the tests\' compatibility date, no secrets', () => {
  const config = wranglerConfig();
  assert.equal(path.resolve(path.dirname(CONFIG), config.main), WORKER);
  assert.equal(config.compatibility_date, COMPAT_DATE, 'the date tests/helpers/workerd.mjs runs the proxy at');
  assert.deepEqual(config.compatibility_flags ?? [], [], 'the workerd tests use no flags');
  assert.deepEqual(config.durable_objects.bindings, [{ name: 'SESSIONS', class_name: 'SessionStore' }]);
  assert.deepEqual(config.migrations, [{ tag: 'v1', new_sqlite_classes: ['SessionStore'] }]);
  assert.match(readFileSync(WORKER, 'utf8'), /^export \{ SessionStore \} from '\.\/session-store\.js';$/m, 'the class is exported by main');
  // Every var is a setting the worker reads (its header lists them); the secrets are never vars.
  const header = readFileSync(WORKER, 'utf8').split('*/')[0];
  for (const name of Object.keys(config.vars)) assert.match(header, new RegExp(`\\*\\s+${name}\\s`), `${name} is a setting of worker.js`);
  assert.equal('CLIENT_TOKEN' in config.vars, false);
  assert.equal('UPSTREAM_KEY' in config.vars, false);
  for (const commented of ['THRESHOLD', 'PRICING', 'PROFILE', 'SUMMARY_MODEL', 'MAX_BODY_BYTES', 'STATE_MAX_CONVERSATIONS', 'STATE_MAX_BYTES', 'STATE_TTL_SECONDS'])
    assert.match(readFileSync(CONFIG, 'utf8'), new RegExp(`// "${commented}": "`), `${commented} is shown in the config`);
});

test('`wrangler deploy --dry-run` bundles it offline: the worker, midfold\'s workerd entry and its wasm modules, the binding', async (t) => {
  const outdir = path.join(tmp, 'bundle');
  const { code, output } = await runWrangler(['deploy', '--dry-run', '--outdir', outdir, '--config', CONFIG]);
  assert.equal(code, 0, output);
  assert.match(output, /--dry-run: exiting now\./);
  assert.match(output, /env\.SESSIONS \(SessionStore\)\s+Durable Object/);
  assert.doesNotMatch(output, /Unexpected fields|\[WARNING\]/, 'wrangler accepts every field of the config');
  const files = readdirSync(outdir);
  assert.ok(files.some((f) => f.endsWith('-midfold.wasm')), files.join(' '));
  const bundle = readFileSync(path.join(outdir, 'worker.js'), 'utf8');
  assert.match(bundle, /SessionStore = class extends DurableObject/);
  assert.match(bundle, /workerd does not compile wasm from bytes/, 'midfold resolved to its workerd entry');
  const total = Number(output.match(/Total Upload: ([\d.]+) KiB/)[1]);
  const gzip = Number(output.match(/gzip: ([\d.]+) KiB/)[1]);
  t.diagnostic(`bundle: ${total} KiB, ${gzip} KiB gzip`);
  assert.ok(gzip < 3 * 1024, `${gzip} KiB gzip: under the Workers Free plan's 3 MiB`);
});

// ---------------------------------------------------------------------------------------------------------
// wrangler dev

test('wrangler dev: a request without the client token is refused before the upstream is called', async () => {
  const res = await post({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }, { authorization: 'Bearer not-the-token' });
  assert.equal(res.status, 401);
  assert.equal(res.headers.get('www-authenticate'), 'Bearer');
  await res.arrayBuffer();
  assert.equal(llm.requests.length, 0);
  assert.match(dev.output(), /env\.SESSIONS \(SessionStore\)\s+Durable Object\s+local/);
});

test('wrangler dev: a long loop is compacted as Node compacts it; the next turn continues from the state in the Durable Object', async () => {
  const messages = debuggingSession();
  assert.equal(validate(messages).ok, true);
  const summary = 'shift() applies the DST offset twice: offsetOf() already includes it. Suites 1, 3, 7 and 9 fail on 2026-03-29 in Europe/Berlin.';
  llm.enqueue({ text: summary });
  let res = await post({ model: 'gpt-test', messages });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).object, 'chat.completion');
  assert.deepEqual(['compacted', 'reason', 'state', 'state-saved'].map((h) => header(res, h)), ['true', 'compacted', 'fresh', 'true']);

  assert.equal(llm.requests.length, 2, 'the summary, then the forwarded request');
  const [summarization, forwarded] = llm.requests;
  assert.match(summarization.body.messages.at(-1).content, /\[tool_use:read_file\]/);
  for (const r of llm.requests) assert.equal(r.headers.authorization, `Bearer ${UPSTREAM_KEY}`, 'the secret from the env file');
  assert.equal(reachedUpstream(CLIENT_TOKEN), false, 'the client token stays at the proxy');

  // What the bundled worker forwards is what midfold in Node makes of the same conversation.
  const expected = clone(messages);
  await new Compactor({ summarize: async () => summary, threshold: THRESHOLD, profile: 'safe' }).compact(expected);
  assert.deepEqual(forwarded.body.messages, expected);
  assert.equal(forwarded.body.messages[1].content, `[Context Compressed]\n${summary}`);
  assert.equal(validate(forwarded.body.messages).ok, true);
  assert.equal(Number(header(res, 'tokens-before')), estimateTokens(messages, { profile: 'safe' }));
  assert.equal(Number(header(res, 'tokens-after')), estimateTokens(expected, { profile: 'safe' }));

  const next = [...messages, { role: 'assistant', content: 'Removed the second offset in shift.js.' }, { role: 'user', content: '好，跑一下失败的那几个套件。' }];
  llm.reset();
  res = await post({ model: 'gpt-test', messages: next });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  assert.equal(header(res, 'state'), 'continued');
  assert.equal(header(res, 'reused-messages'), String(messages.length));
  assert.equal(header(res, 'compacted'), 'false', 'no second summary');
  assert.equal(llm.requests.length, 1);
  const again = llm.requests[0].body.messages;
  assert.deepEqual(again.slice(0, expected.length), expected, 'the same compacted prefix, so the prompt cache holds');
  assert.deepEqual(again.slice(expected.length), next.slice(messages.length));
});

test('wrangler dev: the Durable Object\'s state survives a restart of the server (--persist-to)', async () => {
  const messages = debuggingSession();
  messages[1] = { role: 'user', content: 'Audit the refund rounding in src/refund.js: 半分的退款被四舍五入错了。' };
  llm.enqueue({ text: 'Refunds of half a cent are rounded away from zero in roundRefund().' });
  let res = await post({ model: 'gpt-test', messages });
  await res.arrayBuffer();
  assert.deepEqual([header(res, 'compacted'), header(res, 'state-saved')], ['true', 'true']);

  await dev.stop();
  dev = null;
  dev = await startDev();
  llm.reset();
  res = await post({ model: 'gpt-test', messages: [...messages, { role: 'assistant', content: 'Rounding now goes to even.' }, { role: 'user', content: 'Rerun the refund suite.' }] });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  assert.equal(header(res, 'state'), 'continued');
  assert.equal(header(res, 'reused-messages'), String(messages.length));
  assert.equal(llm.requests.length, 1, 'no summary written again');
});
