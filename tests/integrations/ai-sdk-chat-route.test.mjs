// docs/ai-sdk.md's chat route, run verbatim (ai 6 with @ai-sdk/anthropic 3; ai 7 with @ai-sdk/anthropic 4, its
// imports renamed), its model pointed at the strict provider on 127.0.0.1 through ANTHROPIC_BASE_URL, its client the
// AI SDK's own chat client (AbstractChat over DefaultChatTransport, what useChat runs) whose fetch calls the route.
// A chat of three turns: the first reads sixteen files of this repository one step at a time, so its own tool loop
// crosses the threshold; the second is sent with that whole history, so the route folds it first. Counts are the
// strict provider's (a token per four characters of the messages' JSON), what compactStep is anchored on.
// Facts, each a claim of the docs: every request is accepted; with compactStep inside streamText no request passes
// the threshold, and without it (the same route less that line) one goes far past it; the client keeps a
// data-midfold-summary part in the assistant message of the turn that folded, naming messages it holds, and that
// part passes validateUIMessages and never reaches the model; the next turn continues the fold and sends no part.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { docSnippet } from '../helpers/doc-snippets.mjs';
import { ANTHROPIC_VERSIONS } from '../helpers/ai-sdk-flows.mjs';
import { CORE_NAMES } from '../helpers/corpus.mjs';

const OUT = fileURLToPath(new URL('../output/', import.meta.url));
const SRC = CORE_NAMES.filter((f) => f.endsWith('.c')).sort().map((f) => `src/${f}`);
const THRESHOLD = 30_000;
const READS = 16;

/** The marked snippet of docs/ai-sdk.md. */
const recipe = () => docSnippet('chat-route');

/** Writes the route for `v` (its imports renamed for ai 7) and imports it; `edit` changes the text first. */
async function route(v, name, edit = (code) => code) {
  mkdirSync(OUT, { recursive: true });
  let code = edit(recipe());
  if (v.ai !== 'ai') code = code.replace("from 'ai';", `from '${v.ai}';`).replace("from '@ai-sdk/anthropic';", `from '${v.anthropic}';`);
  const file = `${OUT}docs-chat-route-${name}-${v.label.replace(' ', '')}.mjs`;
  writeFileSync(file, code);
  return import(pathToFileURL(file).href);
}

let provider;
before(async () => {
  provider = await startStrictProvider();
  process.env.ANTHROPIC_API_KEY = 'sk-ant-test';
  process.env.ANTHROPIC_BASE_URL = `${provider.url}/v1`;
});
after(() => provider.close());

const textOf = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => b.text || '').join('') : '');
const summaryOf = (body) => body.messages.map((m) => textOf(m.content)).find((t) => t.startsWith('[Context Compressed]'));
/** The strict provider's input count of a request (what it answers as usage.input_tokens). */
const countOf = (body) => Math.ceil(JSON.stringify(body.messages).length / 4);

/** Scripts the model: turn 1 reads READS files one step at a time, the other turns answer; a request without tools is a summary. */
function script() {
  let turn = 0, step = 0;
  provider.reply = ({ body }) => {
    if (!body.tools) return [{ type: 'text', text: 'The user is reviewing the C core; every source file of src/ was read once.' }];
    const k = step++;
    if (turn === 0 && k < READS) return [{ type: 'text', text: `Reading ${SRC[k]}.` }, { type: 'tool_use', id: `toolu_${k}`, name: 'read_file', input: { path: SRC[k] } }];
    const answer = [{ type: 'text', text: ['Tool results are paired in src/view.c.', 'The estimator is src/estimate.c.', 'src/micro.c clears old results.'][turn] }];
    turn++; step = 0;
    return answer;
  };
}

/** A chat client of `ai` (the AI SDK's AbstractChat, state in plain arrays) whose requests go to `POST`. */
function chatClient(ai, POST) {
  const state = {
    status: 'ready', error: undefined, messages: [],
    pushMessage(m) { this.messages = [...this.messages, m]; },
    popMessage() { this.messages = this.messages.slice(0, -1); },
    replaceMessage(i, m) { this.messages = [...this.messages.slice(0, i), m, ...this.messages.slice(i + 1)]; },
    snapshot: (thing) => structuredClone(thing),
  };
  class Chat extends ai.AbstractChat {}
  const transport = new ai.DefaultChatTransport({ api: 'http://127.0.0.1/api/chat', fetch: (url, init) => POST(new Request(url, init)) });
  return new Chat({ id: 'chat-1', transport, state });
}

/** The three turns through `POST`; the client, and the request bodies the model got. */
async function converse(ai, POST) {
  script();
  const from = provider.requests.length;
  const client = chatClient(ai, POST);
  for (const text of ['Read the C core, file by file, and tell me where tool results are paired.', '那估算器在哪里？', 'And where are old results cleared?']) {
    await client.sendMessage({ text });
    assert.equal(client.status, 'ready', client.error && client.error.message);
  }
  const requests = provider.requests.slice(from);
  assert.deepStrictEqual(requests.filter((r) => r.status !== 200).map((r) => r.error), [], 'every request accepted');
  return { client, bodies: requests.map((r) => r.body).filter((b) => b.tools) };
}

for (const v of ANTHROPIC_VERSIONS) {
  test(`${v.label}: the docs' chat route keeps every request under its threshold, and the client keeps the summary's data part`, { skip: v.skip }, async (t) => {
    const ai = await import(v.ai);
    const { POST } = await route(v, 'with-step');
    const { client, bodies } = await converse(ai, POST);
    const peak = Math.max(...bodies.map(countOf));
    assert.ok(peak <= THRESHOLD, `the largest request: ${peak} tokens against ${THRESHOLD}`);
    // The turn that folded: its assistant message holds the data part, which names messages the client holds.
    const assistants = client.messages.filter((m) => m.role === 'assistant');
    assert.equal(assistants.length, 3);
    const partsOf = (m) => m.parts.filter((p) => p.type === 'data-midfold-summary');
    assert.deepStrictEqual(assistants.map((m) => partsOf(m).length), [0, 1, 0], 'one summary part, in the second answer');
    const [part] = partsOf(assistants[1]);
    assert.equal(typeof part.id, 'string');
    assert.ok(part.data.text.length > 0 && part.data.tokensAfter < part.data.tokensBefore);
    const ids = new Set(client.messages.map((m) => m.id));
    assert.ok(part.data.replaces.length > 0 && part.data.replaces.every((id) => ids.has(id)), `replaces ${part.data.replaces}`);
    await ai.validateUIMessages({ messages: client.messages });
    // The model read the summary, never the part; the third turn continued the same fold.
    const second = bodies.findIndex((b) => textOf(b.messages.at(-1).content).includes('估算器'));
    assert.equal(summaryOf(bodies[second]), `[Context Compressed]\n${part.data.text}`);
    assert.ok(!bodies.some((b) => JSON.stringify(b).includes('midfold-summary')), 'no data part reached the model');
    assert.equal(summaryOf(bodies.at(-1)), summaryOf(bodies[second]), 'the third turn continues the fold');
    t.diagnostic(`${bodies.length} model requests, the largest ${peak} tokens (threshold ${THRESHOLD}): ${bodies.map(countOf).join(' ')}`);
  });

  test(`${v.label}: the same route without compactStep in streamText sends a request far past its threshold`, { skip: v.skip }, async (t) => {
    const ai = await import(v.ai);
    const { POST } = await route(v, 'without-step', (code) => {
      const edited = code.replace(/\n\s*\/\/ The turn's own tool loop[^\n]*\n\s*prepareStep: [^\n]*\n/, '\n');
      assert.notEqual(edited, code, 'the recipe has the prepareStep line');
      return edited;
    });
    const { bodies } = await converse(ai, POST);
    const peak = Math.max(...bodies.map(countOf));
    assert.ok(peak > THRESHOLD * 1.3, `the largest request: ${peak} tokens against ${THRESHOLD}`);
    t.diagnostic(`without compactStep: the largest request ${peak} tokens (threshold ${THRESHOLD})`);
  });
}
