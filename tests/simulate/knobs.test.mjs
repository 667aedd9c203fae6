// simulate prices the micro-compaction knobs. Each is a word of the policy grammar (compactor:clearToolInputs=true,
// thinkingKeep=N with thinking=BINDING, dropTools=a|b with dropBeforeLast=N, reasoning=before-last-message) checked
// as the Compactor checks it. thinking {keep} under prefix binding is the provider's clear_thinking edit: each
// request is priced as the provider reads it, so its cache holds only up to the first thinking it cleared, and it
// reads what a client-side drop ('unbound') leaves.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, simulate } from '../../js/hosts/node.js';
import { resolvePolicy } from '../../js/simulate/simulate.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';

const FILES = ['src/micro.c', 'src/micro_inputs.c', 'src/view.h', 'src/result.h', 'src/estimate.c', 'src/serialize.c'];
const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** 12 turns: each thinks (signed), writes a file of the repository with its full text, and gets a listing back. */
async function session() {
  const p = await startStrictProvider();
  const messages = [{ role: 'user', content: '把核心文件逐个备份到 backup/，每次一个。' }];
  for (let t = 0; t < 12; t++) {
    const path = FILES[t % FILES.length];
    messages.push({ role: 'assistant', content: [p.signThinking({}, messages.slice(), `第 ${t} 步：备份 ${path}，先想清楚它做什么。`.repeat(6)),
      { type: 'tool_use', id: `toolu_w${t}`, name: 'write_file', input: { path: `backup/${path}`, content: read(path) } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_w${t}`, content: `wrote backup/${path}\n${read(path).slice(0, 3000)}` }] });
    messages.push({ role: 'assistant', content: [p.signThinking({}, messages.slice(), 'Done with this one.'), { type: 'text', text: `backup/${path} written.` }] });
    messages.push({ role: 'user', content: t % 2 ? 'Next one.' : '下一个。' });
  }
  await p.close();
  return messages;
}

let messages;
before(async () => { await init(); messages = await session(); });

test('the grammar spells each knob, and refuses what the Compactor refuses', async () => {
  assert.deepEqual(resolvePolicy('compactor:clearToolInputs=true,thinkingKeep=1,thinking=unbound,dropTools=grep|glob,dropBeforeLast=4,reasoning=before-last-message').compactor,
    { clearToolInputs: true, thinking: { keep: 1, binding: 'unbound' }, dropToolCalls: { tools: ['grep', 'glob'], beforeLast: 4 }, reasoning: 'before-last-message' });
  assert.deepEqual(resolvePolicy('micro:clearToolInputs=true,keepRecent=2').micro, { clearToolInputs: true, keepRecent: 2 });
  assert.throws(() => resolvePolicy('compactor:dropTools=grep'), /dropTools=a\|b and dropBeforeLast=N go together/);
  assert.throws(() => resolvePolicy('compactor:clearToolInputs=yes'), /clearToolInputs must be true or false/);
  assert.throws(() => resolvePolicy('micro:dropTools=grep'), /unknown key "dropTools"/);
  await assert.rejects(simulate(messages, { policies: ['compactor:thinkingKeep=1,thinking=loose'] }), (e) => e.code === 'invalid-option' && e.path === 'thinking.binding');
  await assert.rejects(simulate(messages, { policies: ['compactor:reasoning=all'] }), (e) => e.code === 'invalid-option' && e.path === 'reasoning');
});

test('clearToolInputs: the cleared write_file calls stop carrying the files they wrote', async () => {
  const { results: [plain, inputs] } = await simulate(messages, { policies: ['compactor:policy=every-turn,keepRecent=2', 'compactor:policy=every-turn,keepRecent=2,clearToolInputs=true'] });
  assert.ok(inputs.meanContext < plain.meanContext * 0.75, `${inputs.meanContext} vs ${plain.meanContext}`);
  assert.ok(inputs.peakContext < plain.peakContext);
  assert.ok(inputs.inputTokens < plain.inputTokens);
});

test('micro:clearToolInputs=true clears the calls with their results', async () => {
  const { results: [plain, inputs] } = await simulate(messages, { policies: ['micro:keepRecent=2', 'micro:keepRecent=2,clearToolInputs=true'] });
  assert.ok(inputs.meanContext < plain.meanContext * 0.75, `${inputs.meanContext} vs ${plain.meanContext}`);
});

test('thinking {keep: 1}: priced as the provider reads it after its clear_thinking edit, the same tokens a client-side drop leaves', async () => {
  const { results: [none, server, client] } = await simulate(messages, { policies: ['none',
    'compactor:policy=every-turn,keepRecent=100,thinkingKeep=1,threshold=1000000', 'compactor:policy=every-turn,keepRecent=100,thinkingKeep=1,thinking=unbound,threshold=1000000'] });
  assert.ok(server.meanContext < none.meanContext, `${server.meanContext} vs ${none.meanContext}`);
  assert.equal(server.meanContext, client.meanContext);
  assert.equal(server.peakContext, client.peakContext);
  // clearing moves forward every turn: the cache holds less of each request than with every thinking kept
  assert.ok(server.cachedShare < none.cachedShare, `${server.cachedShare} vs ${none.cachedShare}`);
  assert.equal(none.turnsOverWindow, 0);
});

test('dropToolCalls and reasoning in a replayed session: the Compactor removes the calls, simulate reads the rest again', async () => {
  const { results: [plain, dropped] } = await simulate(messages, { policies: ['compactor:policy=every-turn,keepRecent=100,threshold=1000000',
    'compactor:policy=every-turn,keepRecent=100,threshold=1000000,dropTools=write_file,dropBeforeLast=3,reasoning=before-last-message'] });
  assert.ok(dropped.meanContext < plain.meanContext / 2, `${dropped.meanContext} vs ${plain.meanContext}`);
  assert.ok(dropped.perTurn.every((t) => t.context > 0));
});
