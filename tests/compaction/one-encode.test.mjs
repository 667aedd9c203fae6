// One encoding of the history per compact(): a fold's two plans (micro-compaction's, then the
// compaction's of what the clearing leaves) read one document, the summary pair's format comes from
// the plan and the figure after from the plans' per-message estimates. Counted at the boundary: the
// real module's exports wrapped before midfold instantiates it, so every crossing into wasm (and the
// bytes of every document parsed) is seen. And the fold is the one made of an edited copy before.
import test from 'node:test';
import assert from 'node:assert/strict';
import { longSession } from '../helpers/long-session.mjs';
import { anthropicRound, aisdkRound } from '../helpers/fixtures.mjs';

/** Every call into the module: [export name, its arguments]. */
const crossings = [];
const realInstantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async function countedInstantiate(source, imports) {
  const result = await realInstantiate.call(WebAssembly, source, imports);
  const instance = result instanceof WebAssembly.Instance ? result : result.instance;
  const exports = {};
  for (const [name, value] of Object.entries(instance.exports)) {
    exports[name] = typeof value !== 'function' ? value : (...args) => {
      crossings.push([name, args]);
      return value(...args);
    };
  }
  const counted = { exports: Object.freeze(exports) };
  return result instanceof WebAssembly.Instance ? counted : { module: result.module, instance: counted };
};

const midfold = await import('../../js/hosts/node.js');
const { applyEditsToCopy } = await import('../../js/core/apply.js');
await midfold.init();

/** The byte length of each document parsed since `from` (mfw_doc_parse's second argument). */
const parsedSince = (from) => crossings.slice(from).filter(([name]) => name === 'mfw_doc_parse').map(([, args]) => args[1]);
const callsSince = (from, name) => crossings.slice(from).filter(([n]) => n === name).length;

/** The size of `messages`' encoding: what one estimate of them parses. */
function encodedSize(messages) {
  const from = crossings.length;
  midfold.estimateTokens(messages);
  const [size] = parsedSince(from);
  return size;
}

function history(format, turns, seed) {
  const out = [];
  for (const added of longSession({ turns, format, seed }).calls) out.push(...added);
  return out;
}

/** An AI SDK coding session: reads of a Chinese log, parallel tool calls, test output. */
function aisdkHistory() {
  const log = Array.from({ length: 60 }, (_, i) => `2026-03-0${1 + (i % 9)} 东北区 订单 ${1000 + i} 金额 ${(i * 37.5).toFixed(2)} 元 状态: 已结算`).join('\n');
  const out = [{ role: 'system', content: 'You are a coding agent in the sales-report repository.' }];
  for (let t = 0; t < 24; t++) {
    out.push({ role: 'user', content: t % 3 ? `Check the totals in report ${t}.` : `帮我看一下第 ${t} 份报表，金额不对。` });
    out.push(...aisdkRound(`call-${t}-a`, 'read_file', { path: `logs/${t}.log` }, log));
    out.push({ role: 'assistant', content: [{ type: 'text', text: `Report ${t}: the north-east total is short by one order.` }] });
  }
  out.push({ role: 'user', content: 'Now fix it and run the tests.' });
  return out;
}

/** An Anthropic session whose rounds carry parallel results and a closing reply. */
function anthropicHistory() {
  const output = Array.from({ length: 80 }, (_, i) => `test ${i} ... ${i % 7 ? 'ok' : 'FAILED: expected 120.50, got 120.49'}`).join('\n');
  const out = [];
  for (let t = 0; t < 20; t++) {
    out.push({ role: 'user', content: `运行第 ${t} 组测试` });
    const [call, result] = anthropicRound(`toolu_${t}`, 'bash', { command: `npm test -- group${t}` }, output);
    call.content.unshift({ type: 'text', text: 'Running the group.' });
    const analysis = `第 ${t} 组：11 个失败，都是四舍五入的问题，金额在分位上差一。`.repeat(12);
    out.push(call, result, { role: 'assistant', content: `Group ${t}: 11 failures, all rounding. ${analysis}` });
  }
  out.push({ role: 'user', content: 'Summarize what failed.' });
  return out;
}

const CASES = [
  ['OpenAI Chat (parallel calls, Chinese requests and logs)', () => history('openai', 60, 3)],
  ['Anthropic Messages (parallel calls, Chinese requests and logs)', () => history('anthropic', 60, 4)],
  ['Anthropic Messages (text beside tool_use, Chinese requests)', anthropicHistory],
  ['AI SDK ModelMessages (Chinese log output)', aisdkHistory],
];

/** A Compactor that folds on its first call; `prompts` receives every summarizer request's prompt. */
function folder(prompts, options = {}) {
  return new midfold.Compactor({
    threshold: 6000, keepTail: { tokens: 1500 },
    summarize: (request) => { prompts.push(request.prompt); return 'The user is fixing rounding in the sales report; tests fail on 120.49.'; },
    ...options,
  });
}

for (const [name, make] of CASES) {
  test(`${name}: a first-call fold encodes the history once`, async () => {
    const messages = make();
    const size = encodedSize(messages);
    const from = crossings.length;
    const report = await folder([]).compact(messages);
    assert.equal(report.reason, 'compacted');
    const parsed = parsedSince(from);
    assert.equal(parsed.filter((n) => n === size).length, 1, `one document of the history's ${size} bytes (parsed: ${parsed.join(', ')})`);
    assert.ok(parsed.every((n) => n <= size), 'nothing larger than the history is parsed');
    // What else is parsed is what the fold makes: the summary pair, the edited and stripped copies, the
    // folded list whose format is checked (at most the kept tail and the head beside the pair).
    const others = parsed.filter((n) => n !== size).reduce((a, b) => a + b, 0);
    assert.ok(others < size / 2, `the fold's own messages are small beside the history (${others} of ${size} bytes)`);
    assert.equal(callsSince(from, 'mfw_doc_micro'), 1, 'one micro-compaction plan');
    assert.equal(callsSince(from, 'mfw_doc_compact'), 1, 'one compaction plan');
    assert.equal(callsSince(from, 'mfw_doc_estimate'), 0, 'no estimate of a whole list');
  });

  test(`${name}: the fold is the one planned on the edited copy, and its figure after is the estimate of what it left`, async () => {
    const messages = make();
    const original = structuredClone(messages);
    const prompts = [];
    const compactor = folder(prompts);
    const report = await compactor.compact(messages);
    assert.equal(report.reason, 'compacted');
    // The plan as it was made before: micro-compaction's edits applied to a copy, planned again.
    const micro = midfold.planMicroCompact(original, { profile: 'safe', keepRecent: 3, trigger: 4800, clearAtLeast: 2400 });
    const edited = micro.edits.length ? applyEditsToCopy(original, micro.edits) : original;
    const plan = midfold.planCompaction(edited, { profile: 'safe', keepTailTokens: 1500, maxTranscriptTokens: 60000, maxSummaryTokens: 2000 });
    assert.equal(prompts.length, 1);
    assert.equal(prompts[0], plan.prompt, 'the summarizer got the prompt of the edited copy\'s plan');
    assert.equal(report.summarizedMessages, plan.middle.length);
    assert.equal(report.tokensAfter, midfold.estimateTokens(messages, { profile: 'safe' }), 'tokensAfter is the estimate of the folded conversation');
    assert.equal(midfold.detectFormat(messages), midfold.detectFormat(original), 'the summary pair is written in the conversation\'s format');
  });
}

test('a fold whose provider count is known encodes the rest between the plans: the held history is not overwritten', async () => {
  const messages = history('anthropic', 60, 5);
  const original = structuredClone(messages);
  const prompts = [];
  const compactor = folder(prompts);
  // (the count covers all but the last two messages: their estimate is encoded between the two plans)
  const report = await compactor.compact(messages, { usage: { inputTokens: 30000, count: messages.length - 2 } });
  assert.equal(report.reason, 'compacted');
  // The same plan as the edited copy's, with the budget scaled as the Compactor scales it.
  const estimated = midfold.estimateTokens(original, { profile: 'safe' });
  const keepTailTokens = Math.min(Math.floor(1500 * (estimated / report.tokensBefore)), 0xffffffff);
  const micro = midfold.planMicroCompact(original, { profile: 'safe', keepRecent: 3, trigger: 4800, clearAtLeast: 2400 });
  const edited = micro.edits.length ? applyEditsToCopy(original, micro.edits) : original;
  const plan = midfold.planCompaction(edited, { profile: 'safe', keepTailTokens, maxTranscriptTokens: 60000, maxSummaryTokens: 2000 });
  assert.equal(prompts[0], plan.prompt);
  assert.equal(report.tokensAfter, midfold.estimateTokens(messages, { profile: 'safe' }));
});

test('a later call that folds encodes the grown history once too', async () => {
  const calls = longSession({ turns: 60, format: 'openai', seed: 9 }).calls;
  const messages = [];
  const compactor = new midfold.Compactor({ threshold: 6000, keepTail: { tokens: 1500 }, summarize: () => 'Rounding fixes in the sales report.' });
  let folded = null;
  for (const added of calls) {
    messages.push(...added);
    const size = encodedSize(messages);
    const from = crossings.length;
    const report = await compactor.compact(messages);
    if (report.reason !== 'compacted') continue;
    const parsed = parsedSince(from);
    folded = { size, parsed };
    break;
  }
  assert.ok(folded, 'the session folds');
  assert.equal(folded.parsed.filter((n) => n === folded.size).length, 1, `one document of the history (parsed: ${folded.parsed.join(', ')})`);
  assert.ok(folded.parsed.every((n) => n <= folded.size));
});
