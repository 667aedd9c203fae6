// compactUIMessages: a chat route's UIMessage[] (what useChat sends) compacted with carried state. Facts: the
// result passes the installed ai's validateUIMessages and convertToModelMessages; the folded middle is one
// UIMessage with an id and metadata marking it a summary; a message still streaming is untouched; the same
// history sent again gets the same compacted messages back.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { validateUIMessages, convertToModelMessages } from 'ai';
import { init, digestSummarizer } from 'midfold';
import { compactUIMessages, SessionState } from 'midfold/ai-sdk';
import { CORE_NAMES, readWorkloadFile } from '../helpers/corpus.mjs';

const FILES = CORE_NAMES.filter((f) => f.endsWith('.c')).sort().map((f) => `src/${f}`);
const read = readWorkloadFile;

before(() => init());

/** A chat UI's state: turns of a user question and an assistant that reads files, Chinese and English. */
function chat(turns, { streaming = false } = {}) {
  const messages = [];
  for (let t = 0; t < turns; t++) {
    messages.push({ id: `u${t}`, role: 'user', parts: [{ type: 'text', text: t % 2 ? `请解释 ${FILES[t]} 的作用。` : `What does ${FILES[t]} do?` }] });
    messages.push({ id: `a${t}`, role: 'assistant', parts: [
      { type: 'step-start' },
      { type: 'tool-read_file', toolCallId: `call_${t}`, state: 'output-available', input: { path: FILES[t] }, output: read(FILES[t]) },
      { type: 'step-start' },
      { type: 'text', text: t % 2 ? `${FILES[t]} 负责把消息读成统一的视图。` : `${FILES[t]} turns the wire format into the normalized view.`, state: 'done' },
    ] });
  }
  messages.push({ id: `u${turns}`, role: 'user', parts: [{ type: 'text', text: 'And the estimator?' }] });
  if (streaming) messages.push({ id: `a${turns}`, role: 'assistant', parts: [{ type: 'step-start' }, { type: 'tool-read_file', toolCallId: 'call_live', state: 'input-streaming', input: { path: 'src/est' } }] });
  return messages;
}

const compactor = { summarize: digestSummarizer(), threshold: 4000, keepTail: { tokens: 1500 } };

test('the compacted chat passes validateUIMessages and convertToModelMessages; the summary is a UIMessage the client can show', async () => {
  const messages = chat(10);
  const { messages: out, report } = await compactUIMessages(messages, { compactor, state: new SessionState() });
  assert.equal(report.compacted, true);
  assert.ok(out.length < messages.length);
  await validateUIMessages({ messages: out });
  const model = await convertToModelMessages(out);
  assert.ok(model.length > 0);
  const summary = out.find((m) => m.metadata && m.metadata.midfold && m.metadata.midfold.summary === true);
  assert.ok(summary, 'one UIMessage marks itself a summary');
  assert.equal(typeof summary.id, 'string');
  assert.ok(summary.parts.some((p) => p.type === 'text' && p.text.includes('[Context Compressed]')));
  assert.deepStrictEqual(out.at(-1), messages.at(-1), 'the pending user turn is verbatim');
});

test('a message still streaming is never edited or folded', async () => {
  const messages = chat(10, { streaming: true });
  const live = structuredClone(messages.at(-1));
  const { messages: out } = await compactUIMessages(messages, { compactor, state: new SessionState() });
  assert.deepStrictEqual(out.at(-1), live);
});

test('the same history sent again (as useChat does every turn) gets the same compacted messages back', async () => {
  const state = new SessionState();
  const first = await compactUIMessages(chat(10), { compactor, state });
  const again = await compactUIMessages(chat(10), { compactor, state });
  assert.deepStrictEqual(again.messages, first.messages);
  assert.equal(again.report.compacted, false);
});
