// The Cloudflare chat agent of web-demo/chat-agent/ (an AIChatAgent of @cloudflare/ai-chat that folds its UIMessages
// with midfold before each model call, its fold kept in the same Durable Object), run by `wrangler dev --local`
// from its wrangler.jsonc, its model (@ai-sdk/anthropic) pointed at the strict provider on 127.0.0.1, its tool
// reading this repository's src/ from a file server on 127.0.0.1. The client speaks the agents SDK's WebSocket
// protocol as `useAgentChat` does: each turn it sends the chat's messages in a cf_agent_use_chat_request frame and
// reads the answer's cf_agent_use_chat_response frames; between turns it reads the agent's stored messages.
// Facts: every request the model gets is accepted; with the fold no request passes the threshold by the provider's
// count; the stored chat stays whole (every tool output in full) while the model reads the summary; the turn that
// folded stores a data-midfold-summary part naming stored messages; later turns continue the fold (no new summary,
// the same prefix), across a restart of the server, from the state in the object's storage.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { jsBlocks } from '../helpers/doc-snippets.mjs';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { ROOT } from '../helpers/workerd.mjs';
import { runWrangler, startWranglerDev } from '../helpers/wrangler.mjs';
import { CORE_NAMES, coreFileSize, readWorkloadFile } from '../helpers/corpus.mjs';

const CONFIG = path.join(ROOT, 'web-demo/chat-agent/wrangler.jsonc');
const CLIENT_TOKEN = 'tok-chat-agent-3e8a';
const THRESHOLD = 20000;
// Eight of the largest C files of src/: about 200 KB read in turn 1, one file a step.
const FILES = CORE_NAMES.filter((f) => f.endsWith('.c')).map((f) => `src/${f}`)
  .sort((a, b) => coreFileSize(b) - coreFileSize(a) || a.localeCompare(b)).slice(0, 8);
const QUESTIONS = [
  'Read the largest C files of src/, one by one, and tell me which one validates tool pairs.',
  '那估算器的权重在哪里定义？',
  'And which file clears old tool results?',
  'Thanks. Which of them would you split first?',
];
const ANSWERS = ['src/validate.c checks that every tool call has its result.', '权重在 src/profiles_fitted.c 里。', 'src/micro.c clears them.', 'src/validate.c: it is the largest.'];
const SUMMARY = 'The user asked about the C core; the agent read eight of the largest files of src/ (validate.c, profiles_fitted.c, memory_cmd.c and others).';

let provider;
let files;
let tmp;
let envFile;
let state;
let dev;

/** A request the model was sent for a chat turn (a summary request has no tools). */
const isTurn = (r) => r.api === 'anthropic' && r.body && Array.isArray(r.body.tools);
const isSummary = (r) => r.api === 'anthropic' && r.body && !r.body.tools;
const textOf = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => b.text || '').join('') : '');
const summaryIn = (body) => body.messages.map((m) => textOf(m.content)).find((t) => t.startsWith('[Context Compressed]'));
/** The strict provider's count of a request's input (a token per four characters of its messages' JSON). */
const countOf = (body) => Math.ceil(JSON.stringify(body.messages).length / 4);

/** Scripts the model: turn 1 reads FILES one a step, then answers; every other turn answers; summaries are SUMMARY. */
function script() {
  let reads = 0;
  let current = 0;
  provider.reply = ({ body }) => {
    if (!body.tools) return [{ type: 'text', text: SUMMARY }];
    // The turn is the latest question the request holds; none when the turn's own loop folded it into the summary.
    const found = Math.max(...QUESTIONS.map((q, i) => (body.messages.some((m) => m.role === 'user' && textOf(m.content).includes(q)) ? i : -1)));
    const turn = current = found >= 0 ? found : current;
    if (turn === 0 && reads < FILES.length) {
      const k = reads++;
      return [{ type: 'text', text: `Reading ${FILES[k]}.` }, { type: 'tool_use', id: `toolu_read_${k}`, name: 'read_file', input: { path: FILES[k] } }];
    }
    return [{ type: 'text', text: ANSWERS[turn] ?? 'ok' }];
  };
}

before(async () => {
  provider = await startStrictProvider();
  script();
  // The repository, as FILES_BASE_URL serves it.
  files = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/repo\//, '');
    try { res.end(readWorkloadFile(path.normalize(rel).replace(/^(\.\.[/\\])+/, ''))); } catch { res.writeHead(404).end('not found'); }
  });
  await new Promise((resolve) => files.listen(0, '127.0.0.1', resolve));
  tmp = await mkdtemp(path.join(os.tmpdir(), 'midfold-chat-agent-'));
  envFile = path.join(tmp, '.dev.vars');
  await writeFile(envFile, `CLIENT_TOKEN=${CLIENT_TOKEN}\nANTHROPIC_API_KEY=sk-ant-test-chat\n`);
  state = path.join(tmp, 'state');
  dev = await startDev();
});

after(async () => {
  if (dev) await dev.stop();
  if (files) await new Promise((resolve) => files.close(resolve));
  if (provider) await provider.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

function startDev() {
  return startWranglerDev({
    config: CONFIG, envFile, persistTo: state,
    vars: { ANTHROPIC_BASE_URL: `${provider.url}/v1`, FILES_BASE_URL: `http://127.0.0.1:${files.address().port}/repo/`, THRESHOLD: String(THRESHOLD) },
  });
}

const chatURL = (name, suffix = '') => `${dev.url}/agents/chat/${name}${suffix}?token=${CLIENT_TOKEN}`;

/** The chat's UIMessages as the agent stores them. */
async function storedMessages(name) {
  const res = await fetch(chatURL(name, '/get-messages'), { signal: AbortSignal.timeout(30000) });
  assert.equal(res.status, 200);
  return res.json();
}

/** One turn as useAgentChat sends it: the stored messages plus the new user message; resolves once the answer is done. */
async function turn(name, text, n) {
  const messages = [...(await storedMessages(name)), { id: `user-${n}`, role: 'user', parts: [{ type: 'text', text }] }];
  const ws = new WebSocket(chatURL(name).replace(/^http/, 'ws'));
  await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = () => reject(new Error('the WebSocket did not open')); });
  try {
    const id = `req-${n}`;
    const chunks = [];
    const done = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`turn ${n}: no answer within 120 s`)), 120000);
      ws.onmessage = (e) => {
        const frame = JSON.parse(e.data);
        if (frame.type !== 'cf_agent_use_chat_response' || frame.id !== id) return;
        if (frame.body && frame.body.trim()) chunks.push(JSON.parse(frame.body));
        if (frame.error) { clearTimeout(timer); reject(new Error(`turn ${n}: ${frame.body}`)); }
        if (frame.done) { clearTimeout(timer); resolve(); }
      };
    });
    ws.send(JSON.stringify({ type: 'cf_agent_use_chat_request', id, init: { method: 'POST', body: JSON.stringify({ messages, trigger: 'submit-message' }) } }));
    await done;
    return chunks;
  } finally {
    ws.close();
  }
}

test('wrangler.jsonc of the chat agent: its Durable Object on SQLite storage, nodejs_compat; `wrangler deploy --dry-run` bundles it offline', async (t) => {
  const text = readFileSync(CONFIG, 'utf8');
  assert.match(text, /"durable_objects": \{ "bindings": \[\{ "name": "Chat", "class_name": "Chat" \}\] \}/);
  assert.match(text, /"migrations": \[\{ "tag": "v1", "new_sqlite_classes": \["Chat"\] \}\]/);
  assert.match(text, /"compatibility_flags": \["nodejs_compat"\]/);
  const { code, output } = await runWrangler(['deploy', '--dry-run', '--outdir', path.join(tmp, 'bundle'), '--config', CONFIG]);
  assert.equal(code, 0, output);
  assert.match(output, /env\.Chat \(Chat\)\s+Durable Object/);
  assert.doesNotMatch(output, /Unexpected fields|\[WARNING\]/);
  t.diagnostic(output.match(/Total Upload: .*/)[0]);
});

test('docs/cloudflare-agents.md shows the agent as web-demo/chat-agent/agent.js has it', () => {
  const [agent] = jsBlocks(readFileSync(path.join(ROOT, 'docs/cloudflare-agents.md'), 'utf8'));
  assert.match(agent.code, /^export class Chat extends AIChatAgent \{/);
  assert.ok(readFileSync(path.join(ROOT, 'web-demo/chat-agent/agent.js'), 'utf8').includes(`${agent.code}\n`), 'the shown code is the code run');
});

test('without the client token nothing reaches the agent', async () => {
  for (const url of [`${dev.url}/agents/chat/c0/get-messages`, `${dev.url}/agents/chat/c0/get-messages?token=wrong`]) {
    const res = await fetch(url);
    assert.equal(res.status, 401);
    await res.arrayBuffer();
  }
});

test('the chat agent folds its UIMessages before each model call, keeps the chat whole, and continues the fold from its Durable Object across a restart', async (t) => {
  const name = 'dates-review';
  const from = provider.requests.length;
  const summariesBefore = (n) => provider.requests.slice(from, n).filter(isSummary).length;
  const marks = [];
  for (const [i, q] of QUESTIONS.slice(0, 3).entries()) {
    await turn(name, q, i + 1);
    marks.push(provider.requests.length);
  }
  await dev.stop(); // the chat and its fold are in the object's storage, on disk (--persist-to)
  dev = null;
  dev = await startDev();
  const chunks = await turn(name, QUESTIONS[3], 4);
  marks.push(provider.requests.length);
  assert.ok(chunks.some((c) => c.type === 'text-delta' && c.delta === ANSWERS[3]), 'the answer streamed to the client');

  const requests = provider.requests.slice(from);
  assert.deepEqual(requests.filter((r) => r.status !== 200).map((r) => r.error), [], 'every request accepted by the provider');
  const turnsOf = (a, b) => provider.requests.slice(a, b).filter(isTurn).map((r) => r.body);
  const perTurn = [turnsOf(from, marks[0]), turnsOf(marks[0], marks[1]), turnsOf(marks[1], marks[2]), turnsOf(marks[2], marks[3])];
  assert.equal(perTurn[0].length, FILES.length + 1, 'turn 1: a step per file, then the answer');
  const peak = Math.max(...perTurn.flat().map(countOf));
  assert.ok(peak <= THRESHOLD, `the largest request: ${peak} tokens against ${THRESHOLD}`);

  // The chat as stored: every message, every tool output in full.
  const stored = await storedMessages(name);
  assert.deepEqual(stored.map((m) => m.role), ['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  const outputs = stored[1].parts.filter((p) => p.type === 'tool-read_file');
  assert.deepEqual(outputs.map((p) => [p.state, p.input.path]), FILES.map((f) => ['output-available', f]));
  for (const p of outputs) assert.equal(p.output, readWorkloadFile(p.input.path), `${p.input.path} stored whole`);

  // Turn 2 folded the history: one summary part in its answer, naming stored messages; the model read the summary.
  const parts = stored.filter((m) => m.role === 'assistant').map((m) => m.parts.filter((p) => p.type === 'data-midfold-summary'));
  assert.deepEqual(parts.map((p) => p.length), [0, 1, 0, 0], 'one summary part, in the second answer');
  const [part] = parts[1];
  assert.equal(part.data.text, SUMMARY);
  assert.ok(part.data.replaces.length > 0 && part.data.replaces.every((id) => stored.some((m) => m.id === id)), `replaces ${part.data.replaces}`);
  assert.ok(part.data.tokensAfter < part.data.tokensBefore);
  assert.equal(summaryIn(perTurn[1][0]), `[Context Compressed]\n${SUMMARY}`);
  assert.ok(!requests.some((r) => JSON.stringify(r.body).includes('midfold-summary')), 'no data part reached the model');

  // Turns 3 and 4 continue the fold: no summary written, the same summary read, the prefix sent again as it was.
  assert.equal(summariesBefore(marks[2]) - summariesBefore(marks[1]), 0, 'turn 3 wrote no summary');
  assert.equal(summariesBefore(marks[3]) - summariesBefore(marks[2]), 0, 'turn 4, after the restart, wrote no summary');
  for (const k of [2, 3]) {
    const [body] = perTurn[k];
    assert.equal(summaryIn(body), `[Context Compressed]\n${SUMMARY}`, `turn ${k + 1} reads the summary`);
    const previous = perTurn[k - 1].at(-1).messages;
    assert.deepEqual(body.messages.slice(0, previous.length), previous, `turn ${k + 1} repeats turn ${k}'s last request as its prefix`);
  }
  t.diagnostic(`${requests.filter(isTurn).length} model requests, ${requests.filter(isSummary).length} summaries; largest ${peak} tokens (threshold ${THRESHOLD}); per turn: ${perTurn.map((b) => b.map(countOf).join(' ')).join(' | ')}`);
});
