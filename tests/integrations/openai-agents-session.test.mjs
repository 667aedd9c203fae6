// midfoldSession inside the real @openai/agents (0.20): a 14-turn workload (Chinese and English turns, encrypted
// reasoning, parallel tool calls over real files and the Chinese travel fixture) run by the SDK's Runner against
// the strict provider on 127.0.0.1, with the session given to run(). Facts: every request is accepted; the stored
// items and result.history stay bounded where the same workload on the bare MemorySession grows; what is stored
// is valid Responses input (calls with their outputs, reasoning before what it produced); a failing summarizer,
// a write made while the summary is written and a store failing half way through the rewrite leave the store as
// it was; a read during the rewrite never sees it empty; any object with the Session methods can be the store;
// docs/openai-agents.md's snippet runs as written.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemorySession } from '@openai/agents';
import { init, digestSummarizer, MidfoldError } from 'midfold';
import { midfoldSession } from 'midfold/openai-agents';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { agentsWorkload } from '../helpers/agents-workload.mjs';
import { checkInput } from '../helpers/mock-responses.mjs';
import { toResponses } from '../../js/integrations/agents-items.js';
import { docSnippet } from '../helpers/doc-snippets.mjs';
import { CORE_NAMES } from '../helpers/corpus.mjs';

let provider;
before(async () => { await init(); provider = await startStrictProvider(); });
after(() => provider.close());

const OPTIONS = { summarize: digestSummarizer(), threshold: 8000, keepTail: { tokens: 3000 } };
const textOf = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => p.text || '').join('') : '');

/** Runs the workload's turns with `session`; the stored item count and result.history length after each. */
async function runTurns(session, count = Infinity) {
  const w = agentsWorkload(provider);
  const from = provider.requests.length;
  const stored = [], history = [], answers = [];
  for (const text of w.turns.slice(0, count)) {
    const result = await w.runner.run(w.agent, text, { session, maxTurns: 8 });
    answers.push(result.finalOutput);
    history.push(result.history.length);
    stored.push((await session.getItems()).length);
  }
  return { stored, history, answers, requests: provider.requests.slice(from) };
}

test('14 turns through the Runner: every request accepted, stored items and result.history bounded where the bare session grows', async () => {
  const bare = await runTurns(new MemorySession());
  const reports = [];
  const store = new MemorySession();
  const archived = [];
  const managed = await runTurns(midfoldSession({ ...OPTIONS, underlyingSession: store, onReport: (r) => reports.push(r), onArchive: (removed) => archived.push(...removed) }));
  assert.deepStrictEqual(managed.requests.filter((r) => r.status !== 200).map((r) => r.error), []);
  assert.deepStrictEqual(managed.answers, bare.answers, 'the model answered every turn the same');
  assert.ok(bare.stored.at(-1) > 100, `the bare session grows (${bare.stored.join(', ')})`);
  assert.ok(reports.filter((r) => r.compacted).length >= 3, reports.map((r) => r.reason).join(', '));
  // Bounded: after the first half, never more than the bare session held after turn 4, and a third of it at the end.
  assert.ok(Math.max(...managed.stored) <= bare.stored[4], `stored ${managed.stored.join(', ')} against ${bare.stored.join(', ')}`);
  assert.ok(managed.stored.at(-1) < bare.stored.at(-1) / 3);
  assert.ok(Math.max(...managed.history.slice(7)) <= bare.history[5], `history ${managed.history.join(', ')}`);
  // What is stored is valid Responses input, and the summary (in Chinese for this conversation) is a user message.
  const items = await store.getItems();
  assert.equal(checkInput(items.map(toResponses)), null);
  const summary = items.find((item) => item.role === 'user' && textOf(item.content).startsWith('[Context Compressed]'));
  assert.ok(summary, 'the fold is stored as a user message');
  assert.match(textOf(summary.content), /杭州/);
  // onArchive gets the folded items as the store held them (the SDK's spelling), the first question first.
  assert.equal(textOf(archived[0].content), 'Where are tool results paired with their calls?');
  assert.ok(archived.some((item) => item.type === 'function_call_result' && typeof item.callId === 'string'));
});

test('the fold is written at a turn boundary: within a run the stored reasoning keeps its call', async () => {
  const reports = [];
  const store = new MemorySession();
  await runTurns(midfoldSession({ ...OPTIONS, underlyingSession: store, onReport: (r) => reports.push(r) }), 6);
  const items = await store.getItems();
  items.forEach((item, i) => {
    if (item.type !== 'reasoning') return;
    const next = items[i + 1];
    assert.ok(next && (next.type === 'function_call' || (next.type === 'message' && next.role === 'assistant')), `reasoning ${item.id} is followed by ${next && next.type}`);
  });
  assert.ok(items.every((item) => item.type !== 'function_call' || items.some((r) => r.type === 'function_call_result' && r.callId === item.callId)));
});

test('a failing summarizer leaves the stored items exactly as the bare session has them, and the runs go on', async () => {
  const warnings = [];
  const failing = async () => { throw new Error('summarizer unavailable'); };
  const store = new MemorySession();
  // (a threshold so low that clearing old results alone never gets under it: every check asks the summarizer)
  const session = midfoldSession({ summarize: failing, threshold: 500, underlyingSession: store, onWarn: (m) => warnings.push(m) });
  const managed = await runTurns(session, 5);
  const bareStore = new MemorySession();
  await runTurns(bareStore, 5);
  assert.deepStrictEqual(managed.requests.filter((r) => r.status !== 200).map((r) => r.error), []);
  assert.deepStrictEqual(await store.getItems(), await bareStore.getItems());
  assert.equal(session.lastReport.reason, 'summarizer-error');
  assert.equal(session.lastReport.written, false);
  assert.ok(warnings.some((m) => m.includes('unchanged')), warnings.join('\n'));
});

test('an item added to the store while the summary is written survives: nothing is rewritten', async () => {
  const store = new MemorySession();
  await runTurns(store, 5);
  const late = { type: 'message', role: 'user', content: [{ type: 'input_text', text: '顺便问一下，杭州有什么好吃的？' }] };
  const summarize = async (request) => {
    await store.addItems([late]); // another writer, straight to the store
    return digestSummarizer()(request);
  };
  const beforeItems = await store.getItems();
  const session = midfoldSession({ summarize, threshold: 8000, underlyingSession: store });
  const report = await session.compact();
  assert.equal(report.conflict, true);
  assert.equal(report.written, false);
  assert.deepStrictEqual(await store.getItems(), [...beforeItems, late]);
});

test('a read that comes while compaction rewrites the store waits for the rewrite: it never sees the store empty', async () => {
  const store = new MemorySession();
  await runTurns(store, 5);
  let cleared, release;
  const clearing = new Promise((resolve) => { cleared = resolve; });
  const gate = new Promise((resolve) => { release = resolve; });
  // A store whose writes are slow (a remote one): the rewrite is under way between its clear and its add.
  const slow = {
    getSessionId: () => store.getSessionId(), getItems: (limit) => store.getItems(limit), popItem: () => store.popItem(),
    addItems: (items) => store.addItems(items),
    async clearSession() { await store.clearSession(); cleared(); await gate; },
  };
  const session = midfoldSession({ ...OPTIONS, underlyingSession: slow });
  const compacting = session.compact();
  await clearing;
  const reading = session.getItems();
  release();
  const [report, items] = await Promise.all([compacting, reading]);
  assert.equal(report.written, true, report.reason);
  assert.equal(items.length, report.stored.after);
  assert.ok(items.length > 0);
});

test('a store that fails half way through the rewrite gets its items back, and the runner\'s hook does not reject', async () => {
  const store = new MemorySession();
  await runTurns(store, 5);
  const beforeItems = await store.getItems();
  let failures = 1;
  const flaky = {
    getSessionId: () => store.getSessionId(), getItems: (limit) => store.getItems(limit), popItem: () => store.popItem(),
    clearSession: () => store.clearSession(),
    async addItems(items) { if (failures-- > 0) throw new Error('connection reset'); return store.addItems(items); },
  };
  const warnings = [];
  const session = midfoldSession({ ...OPTIONS, underlyingSession: flaky, onWarn: (m, e) => warnings.push(`${m}: ${e && e.message}`) });
  assert.equal(await session.runCompaction(), null);
  assert.deepStrictEqual(await store.getItems(), beforeItems);
  assert.ok(warnings.some((w) => w.includes('unchanged') && w.includes('connection reset')), warnings.join('\n'));
});

test('any object with the Session methods is a store: a JSON file on disk', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'midfold-session-'));
  const file = join(dir, 'session.json');
  writeFileSync(file, '[]');
  const read = () => JSON.parse(readFileSync(file, 'utf8'));
  const fileSession = {
    async getSessionId() { return 'file-session'; },
    async getItems(limit) { const items = read(); return limit === undefined ? items : items.slice(Math.max(items.length - limit, 0)); },
    async addItems(items) { writeFileSync(file, JSON.stringify([...read(), ...items])); },
    async popItem() { const items = read(); const last = items.pop(); writeFileSync(file, JSON.stringify(items)); return last; },
    async clearSession() { writeFileSync(file, '[]'); },
  };
  try {
    const session = midfoldSession({ ...OPTIONS, underlyingSession: fileSession });
    const run = await runTurns(session, 8);
    assert.deepStrictEqual(run.requests.filter((r) => r.status !== 200).map((r) => r.error), []);
    assert.ok(read().some((item) => item.role === 'user' && textOf(item.content).startsWith('[Context Compressed]')));
    assert.equal(await session.getSessionId(), 'file-session');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('options: a Session is required, and the Compactor\'s options are checked at construction', () => {
  assert.throws(() => midfoldSession({ summarize: digestSummarizer() }), (e) => e instanceof MidfoldError && e.code === 'invalid-option' && /getItems/.test(e.message));
  assert.throws(() => midfoldSession({ summarize: digestSummarizer(), underlyingSession: { getItems() {} } }), /missing getSessionId, addItems, popItem, clearSession/);
  assert.throws(() => midfoldSession({ summarize: digestSummarizer(), underlyingSession: new MemorySession(), treshold: 1000 }), (e) => e.code === 'invalid-option');
  assert.throws(() => midfoldSession({ summarize: digestSummarizer(), underlyingSession: new MemorySession(), onReport: 'yes' }), /onReport/);
});

test("docs/openai-agents.md's snippet runs as written: three questions, the store folded, every request accepted", async () => {
  const SRC = CORE_NAMES.filter((f) => f.endsWith('.c')).sort().map((f) => `src/${f}`);
  // Each question: three rounds of four parallel reads of the C core, then the answer.
  provider.reply = ({ body }) => {
    let last = -1;
    body.input.forEach((item, i) => { if (item.role === 'user') last = i; });
    // (by the question's text: the fold takes earlier questions out of the input, and call ids must stay unique)
    const q = ['Where are tool results paired with their calls?', 'Where are formats detected?', 'Which file writes JSON?'].indexOf(textOf(body.input[last].content));
    const round = body.input.slice(last + 1).filter((item) => item.type === 'function_call').length / 4;
    if (round >= 3) return [{ type: 'message', id: `msg_q${q}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `Answer ${q + 1}`, annotations: [] }] }];
    return [0, 1, 2, 3].map((k) => {
      const path = SRC[(q * 12 + round * 4 + k) % SRC.length];
      return { type: 'function_call', id: `fc_q${q}r${round}c${k}`, call_id: `call_q${q}r${round}c${k}`, name: 'read_file', arguments: JSON.stringify({ path }), status: 'completed' };
    });
  };
  const out = fileURLToPath(new URL('../output/', import.meta.url));
  mkdirSync(out, { recursive: true });
  const file = join(out, 'doc-openai-agents-session.mjs');
  writeFileSync(file, docSnippet('openai-agents-session'));
  const from = provider.requests.length;
  const r = await new Promise((resolve) => execFile(process.execPath, [file], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)), timeout: 120000,
    env: { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${provider.url}/v1`, OPENAI_AGENTS_DISABLE_TRACING: '1' },
  }, (error, stdout, stderr) => resolve({ code: error ? error.code ?? 1 : 0, stdout, stderr })));
  assert.equal(r.code, 0, r.stderr);
  const requests = provider.requests.slice(from);
  assert.equal(requests.length, 12);
  assert.deepStrictEqual(requests.filter((x) => x.status !== 200).map((x) => x.error), []);
  const stored = [...r.stdout.matchAll(/Answer (\d) \((\d+) items stored\)/g)].map((m) => Number(m[2]));
  assert.equal(stored.length, 3, r.stdout);
  assert.ok(stored[2] < 3 * stored[0], `stored ${stored.join(', ')}`);
  assert.ok(requests.at(-1).body.input.some((item) => item.role === 'user' && textOf(item.content).startsWith('[Context Compressed]')), 'the third question goes out after a fold');
});
