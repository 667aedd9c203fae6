// The README's runnable snippets, run verbatim: each ```js block after a `<!-- run: NAME -->` line is written
// to tests/output/ (inside the package, so `import 'midfold'` resolves to this checkout) and run with Node,
// its providers pointed at mock servers on 127.0.0.1 through the environment variables the SDKs read.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startStrictProvider } from './helpers/strict-provider.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = fileURLToPath(new URL('./output/', import.meta.url));

/** { name: code } for every marked snippet of the README. */
function snippets() {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const found = {};
  for (const m of readme.matchAll(/<!-- run: ([\w-]+) -->\n```js\n([\s\S]*?)\n```/g)) found[m[1]] = m[2];
  return found;
}

/** Runs a snippet (or `driver`, a script that imports it); resolves {code, stdout, stderr}. Only loopback settings are passed on. */
function runSnippet(name, env, driver) {
  mkdirSync(OUT, { recursive: true });
  const file = `${OUT}readme-${name}.mjs`;
  writeFileSync(file, snippets()[name]);
  let run = file;
  if (driver) { run = `${OUT}drive-${name}.mjs`; writeFileSync(run, driver); }
  return new Promise((resolve) => {
    execFile(process.execPath, [run], { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, timeout: 120000, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => resolve({ code: error ? error.code ?? 1 : 0, stdout, stderr }));
  });
}

let provider;
before(async () => { provider = await startStrictProvider(); });
after(() => provider.close());

test('the README marks the snippets this suite runs', () => {
  assert.deepStrictEqual(Object.keys(snippets()).sort(), ['ai-sdk-chat-route', 'ai-sdk-middleware', 'ai-sdk-prepare-step', 'anthropic-loop', 'openai-agents']);
});

test('anthropic-loop: the tool loop compacts through Anthropic\'s own compaction mid-loop, keeps its thinking, and every request it sends is accepted', async () => {
  // The model reads the C core and its tests six files at a time (parallel tool calls over real files of this
  // repository), thinking before each step, saves a note with the memory tool on the way, and answers after
  // eight rounds: one user request, so every fold lands while the signed loop is in flight.
  const pool = [...readdirSync(new URL('../src/', import.meta.url)).filter((f) => f.endsWith('.c')).map((f) => `src/${f}`),
    ...readdirSync(new URL('./', import.meta.url)).filter((f) => f.endsWith('.test.mjs')).map((f) => `tests/${f}`)].sort();
  let step = 0;
  provider.reply = () => {
    const i = step++;
    const thinking = { type: 'thinking', thinking: `Step ${i}: what I have read so far does not show the pairing yet.` };
    if (i === 3) return [thinking, { type: 'tool_use', id: `toolu_mem_${i}`, name: 'memory', input: { command: 'create', path: '/memories/pairing.md', file_text: 'Results are linked to calls in src/view.c (mf_view_link_results).\n' } }];
    if (i >= 9) return [thinking, { type: 'text', text: 'Tool results are paired with their calls in src/view.c, mf_view_link_results.' }];
    const reads = pool.slice((i * 6) % pool.length, (i * 6) % pool.length + 6);
    return [thinking, { type: 'text', text: `Reading ${reads.join(', ')}.` },
      ...reads.map((path, k) => ({ type: 'tool_use', id: `toolu_${i}_${k}`, name: 'read_file', input: { path } }))];
  };
  const from = provider.requests.length;
  const r = await runSnippet('anthropic-loop', { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: provider.url });
  assert.equal(r.code, 0, r.stderr);
  const requests = provider.requests.slice(from);
  assert.deepStrictEqual(requests.filter((q) => q.status !== 200).map((q) => q.error), []);
  const compactions = requests.filter((q) => q.body.compaction);
  assert.ok(compactions.length >= 1, 'the Compactor asked Anthropic for a compaction');
  const after = requests[requests.indexOf(compactions[0]) + 1];
  assert.equal(after.body.messages[0].content[0].type, 'compaction', 'the signed block goes first in the next request');
  assert.ok(compactions[0].body.messages.some((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'thinking')),
    'the folded messages went with their thinking');
  // (the kept turns start with the loop's assistant message, which follows the block in its turn)
  assert.ok(after.body.messages.some((m) => m.role === 'assistant' && m.content.some((b) => b.type === 'thinking')),
    'the kept turns keep theirs');
  assert.ok(after.body.messages.every((m, i) => i === 0 || m.role !== after.body.messages[i - 1].role), 'roles alternate');
  assert.ok(requests.some((q) => q.body.messages.some((m) => Array.isArray(m.content)
    && m.content.some((b) => b.type === 'tool_result' && b.tool_use_id === 'toolu_mem_3'))), 'the memory tool answered');
  assert.match(r.stdout, /compacted: \d+ -> \d+ tokens/);
  assert.match(r.stdout, /mf_view_link_results/);
});

const textOf = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => b.text || '').join('') : '');
const SRC = readdirSync(new URL('../src/', import.meta.url)).filter((f) => f.endsWith('.c')).sort().map((f) => `src/${f}`);

/** Scripts an Anthropic tool loop: rounds of six parallel reads, then an answer; a request without tools is a summary. */
function anthropicReader(rounds) {
  let step = 0;
  provider.reply = ({ body }) => {
    if (!body.tools) return [{ type: 'text', text: 'Summary: the agent read the C core file by file.' }];
    const i = step++;
    if (i >= rounds) return [{ type: 'text', text: 'Tool results are paired with their calls in src/view.c.' }];
    const reads = SRC.slice((i * 6) % SRC.length, (i * 6) % SRC.length + 6);
    return reads.map((path, k) => ({ type: 'tool_use', id: `toolu_${i}_${k}`, name: 'read_file', input: { path } }));
  };
}

/** Every request accepted, and at least one carrying the summary as a user message. */
function assertFolded(requests, list = (b) => b.messages) {
  assert.deepStrictEqual(requests.filter((q) => q.status !== 200).map((q) => q.error), []);
  assert.ok(requests.some((q) => (list(q.body) || []).some((m) => m.role === 'user' && textOf(m.content).startsWith('[Context Compressed]'))),
    'a request carries the summary');
}

for (const name of ['ai-sdk-prepare-step', 'ai-sdk-middleware']) {
  test(`${name}: a tool loop through @ai-sdk/anthropic folds its middle, and every request is accepted`, async () => {
    anthropicReader(8);
    const from = provider.requests.length;
    const r = await runSnippet(name, { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: `${provider.url}/v1` });
    assert.equal(r.code, 0, r.stderr);
    assertFolded(provider.requests.slice(from));
    assert.match(r.stdout, /src\/view\.c/);
  });
}

test('ai-sdk-chat-route: the route compacts the chat useChat sends and streams the answer', async () => {
  provider.reply = ({ body }) => [{ type: 'text', text: body.tools ? 'unused' : (body.system ? 'Summary: a long chat about the C core.' : 'The estimator is src/estimate.c.') }];
  const driver = `import { readFileSync } from 'node:fs';
import { POST } from './readme-ai-sdk-chat-route.mjs';
const files = ${JSON.stringify(SRC.slice(0, 24))};
const messages = [];
files.forEach((path, t) => {
  messages.push({ id: 'u' + t, role: 'user', parts: [{ type: 'text', text: 'What does ' + path + ' do?' }] });
  messages.push({ id: 'a' + t, role: 'assistant', parts: [{ type: 'step-start' },
    { type: 'tool-read_file', toolCallId: 'call_' + t, state: 'output-available', input: { path }, output: readFileSync(path, 'utf8') },
    { type: 'text', text: path + ' is part of the C core; the part that matters:\\n' + readFileSync(path, 'utf8').slice(0, 2500), state: 'done' }] });
});
messages.push({ id: 'u-last', role: 'user', parts: [{ type: 'text', text: 'And the estimator?' }] });
const response = await POST(new Request('http://127.0.0.1/api/chat', { method: 'POST', body: JSON.stringify({ id: 'chat-1', messages }) }));
console.log(response.status, await response.text());
`;
  const from = provider.requests.length;
  const r = await runSnippet('ai-sdk-chat-route', { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: `${provider.url}/v1` }, driver);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^200 /);
  assert.match(r.stdout, /src\/estimate\.c/);
  const requests = provider.requests.slice(from);
  assertFolded(requests.filter((q) => q.body.stream));
});

test('openai-agents: an agent run folds its middle through compactionFilter, and every request is accepted', async () => {
  let step = 0;
  provider.reply = () => {
    const i = step++;
    if (i >= 8) return [{ type: 'message', id: `msg_${i}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Tool results are paired with their calls in src/view.c.', annotations: [] }] }];
    const reads = SRC.slice((i * 4) % SRC.length, (i * 4) % SRC.length + 4);
    return reads.map((path, k) => ({ type: 'function_call', id: `fc_${i}_${k}`, call_id: `call_${i}_${k}`, name: 'read_file', arguments: JSON.stringify({ path }), status: 'completed' }));
  };
  const from = provider.requests.length;
  const r = await runSnippet('openai-agents', { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${provider.url}/v1`, OPENAI_AGENTS_DISABLE_TRACING: '1' });
  assert.equal(r.code, 0, r.stderr);
  assertFolded(provider.requests.slice(from), (b) => b.input);
  assert.match(r.stdout, /src\/view\.c/);
});
