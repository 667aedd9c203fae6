// The documentation's runnable snippets, run verbatim: each ```js block after a `<!-- run: NAME -->` line in
// README.md or docs/*.md (tests/helpers/doc-snippets.mjs) is written to tests/output/ (inside the package, so
// `import 'midfold'` resolves to this checkout) and run with Node, its providers pointed at mock servers on
// 127.0.0.1 through the environment variables the SDKs read. The browser, Worker, state and simulate snippets
// run in the suites of their hosts; the first test checks that every marked snippet is run somewhere.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { docSnippet, docSnippets, jsBlocks } from '../helpers/doc-snippets.mjs';
import { init, estimateTokens } from '../../js/hosts/node.js';
import { CORE_NAMES } from '../helpers/corpus.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUT = fileURLToPath(new URL('../output/', import.meta.url));

/** Runs a snippet (or `driver`, a script that imports it) in `cwd`; resolves {code, stdout, stderr}. Only loopback settings are passed on. */
function runSnippet(name, env, driver, cwd = ROOT) {
  mkdirSync(OUT, { recursive: true });
  const file = `${OUT}readme-${name}.mjs`;
  writeFileSync(file, docSnippet(name));
  let run = file;
  if (driver) { run = `${OUT}drive-${name}.mjs`; writeFileSync(run, driver); }
  return new Promise((resolve) => {
    execFile(process.execPath, [run], { cwd, env: { PATH: process.env.PATH, ...env }, timeout: 120000, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => resolve({ code: error ? error.code ?? 1 : 0, stdout, stderr }));
  });
}

// Where each marked snippet runs: this file, or the suite of its host, which takes it by name.
const RUN_HERE = ['quick-start', 'ai-sdk-prepare-step', 'ai-sdk-middleware', 'openai-agents', 'langchain', 'mastra', 'anthropic-sdk', 'anthropic-loop'];
const RUN_ELSEWHERE = {
  browser: 'tests/hosts/browser.test.mjs', 'cloudflare-worker': 'tests/hosts/workerd.test.mjs',
  'state-across-calls': 'tests/state/session-state.test.mjs', simulate: 'tests/simulate/simulate.test.mjs',
  'chat-route': 'tests/integrations/ai-sdk-chat-route.test.mjs', 'openai-agents-session': 'tests/integrations/openai-agents-session.test.mjs',
};

test('every js snippet of the README is marked to run, and every marked snippet of README.md and docs/*.md is run by a test', () => {
  const readme = jsBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  assert.deepStrictEqual(readme.filter((b) => !b.name).map((b) => b.code.split('\n')[0]), [], 'unmarked README snippets');
  assert.deepStrictEqual(readme.map((b) => b.name),
    ['quick-start', 'ai-sdk-prepare-step', 'openai-agents', 'langchain', 'mastra', 'anthropic-sdk', 'browser', 'cloudflare-worker'], 'the README\'s snippets, in order');
  assert.deepStrictEqual(Object.keys(docSnippets()).sort(), [...RUN_HERE, ...Object.keys(RUN_ELSEWHERE)].sort());
  for (const [name, suite] of Object.entries(RUN_ELSEWHERE)) {
    assert.ok(readFileSync(join(ROOT, suite), 'utf8').includes(`docSnippet('${name}')`), `${suite} runs the ${name} snippet`);
  }
});

let provider;
before(async () => { provider = await startStrictProvider(); });
after(() => provider.close());

test('anthropic-loop: the tool loop compacts through Anthropic\'s own compaction mid-loop, keeps its thinking, and every request it sends is accepted', async () => {
  // The model reads the C core and its tests six files at a time (parallel tool calls over real files of this
  // repository), thinking before each step, saves a note with the memory tool on the way, and answers after
  // eight rounds: one user request, so every fold lands while the signed loop is in flight.
  const pool = [...CORE_NAMES.filter((f) => f.endsWith('.c')).map((f) => `src/${f}`),
    ...readdirSync(new URL('../', import.meta.url), { recursive: true }).filter((f) => f.endsWith('.test.mjs')).map((f) => `tests/${f}`)].sort();
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
const SRC = CORE_NAMES.filter((f) => f.endsWith('.c')).sort().map((f) => `src/${f}`);

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

test('mastra: a Mastra Agent\'s tool loop through @ai-sdk/anthropic folds its middle in compactionProcessor, and every request is accepted', async () => {
  anthropicReader(8);
  const from = provider.requests.length;
  const r = await runSnippet('mastra', { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: `${provider.url}/v1`, MASTRA_TELEMETRY_DISABLED: '1' });
  assert.equal(r.code, 0, r.stderr);
  assertFolded(provider.requests.slice(from));
  assert.match(r.stdout, /src\/view\.c/);
});

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

test('langchain: a createAgent run through @langchain/anthropic folds its middle with the agent\'s own model, and every request is accepted', async () => {
  anthropicReader(8);
  const from = provider.requests.length;
  const r = await runSnippet('langchain', { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: provider.url });
  assert.equal(r.code, 0, r.stderr);
  const requests = provider.requests.slice(from);
  assertFolded(requests);
  // The summary request went to the agent's model: same endpoint, same model name, no tools.
  assert.ok(requests.some((q) => !q.body.tools && q.body.model === 'claude-sonnet-4-6'));
  assert.match(r.stdout, /src\/view\.c/);
});

test('quick-start: on a bundled coding session it estimates in the safe profile, then a forced compaction folds the middle into the digest', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'midfold-quick-start-'));
  try {
    const sample = join(ROOT, 'web-demo/samples/coding-session.anthropic.json');
    copyFileSync(sample, join(dir, 'conversation.json'));
    const r = await runSnippet('quick-start', {}, undefined, dir);
    assert.equal(r.code, 0, r.stderr);
    await init();
    const messages = JSON.parse(readFileSync(sample, 'utf8'));
    const [tokens, folded, ...summary] = r.stdout.trimEnd().split('\n');
    assert.equal(tokens, `${estimateTokens(messages, { profile: 'safe' })} tokens`);
    const [, before, after] = /^compacted (\d+) -> (\d+)$/.exec(folded) ?? [];
    assert.ok(Number(after) < Number(before) / 2, folded);
    assert.match(summary.join('\n'), /^## User requests\n- The test suite started failing after I ran `npm update`/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('anthropic-sdk: the README\'s shortest loop, through the real Anthropic client, folds its middle, and every request is accepted', async () => {
  anthropicReader(8);
  const from = provider.requests.length;
  const r = await runSnippet('anthropic-sdk', { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: provider.url });
  assert.equal(r.code, 0, r.stderr);
  const requests = provider.requests.slice(from);
  assertFolded(requests);
  assert.ok(requests.some((q) => q.body.messages.some((m) => Array.isArray(m.content)
    && m.content.some((b) => b.type === 'tool_result' && b.content.includes('mf_')))), 'the tool results are the files the model asked for');
  assert.match(r.stdout, /src\/view\.c/);
});
