// A state's JSON is written from each remembered message's text, kept once per message (state-codec.js): what a
// store is given, and the size the integrations' states and maxBytes measure, must be exactly
// JSON.stringify(state.toJSON()) after every call of a conversation that folds, clears and grows, with Chinese text
// and a "__proto__" key in a tool's input. A state restored from JSON data given as an object keeps copies: the
// caller editing that object afterwards changes neither the state nor what it sends.
import test, { before } from 'node:test';
import assert from 'node:assert/strict';
import { init, Compactor, SessionState, compactHistory, digestSummarizer } from '../../js/hosts/node.js';
import { stateBytes, stateText } from '../../js/state/state-codec.js';

before(() => init());

/** One turn: a tool call whose input holds a "__proto__" key (as JSON.parse gives it), its Chinese output, a user line. */
function turn(k) {
  const id = `toolu_${k}`;
  const input = JSON.parse(`{"path": "src/退款${k}.ts", "__proto__": {"flag": ${k}}}`);
  return [
    { role: 'assistant', content: [{ type: 'text', text: `第 ${k} 步：读取文件。` }, { type: 'tool_use', id, name: 'read_file', input }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `退款金额四舍五入到分，半分向上。\n`.repeat(8 + (k % 5)) },
      { type: 'text', text: k % 2 ? 'Keep going.' : '继续。' }] },
  ];
}

const options = () => ({ summarize: digestSummarizer(), threshold: 1e9, microTrigger: 1e9, keepRecent: 2, thinking: 'unbound' });

test("a state's text and size are JSON.stringify(toJSON()) after every call", async () => {
  const history = [{ role: 'user', content: '修复退款的舍入问题。' }];
  for (let k = 0; k < 12; k++) history.push(...turn(k));
  const state = new SessionState();
  const compactor = new Compactor(options());
  for (let call = 0; call < 16; call++) {
    history.push(...turn(12 + call));
    await compactHistory(compactor, history, { state, force: call % 5 === 0 });
    const expected = JSON.stringify(state.toJSON());
    assert.equal(stateText(state.snapshots), expected, `call ${call}: the text`);
    assert.equal(stateBytes(state.snapshots), Buffer.byteLength(expected), `call ${call}: the bytes`);
  }
  assert.ok(state.snapshots.length > 1 && state.toJSON().messages.length >= 4, `the state remembers folds and cleared results: ${state.snapshots.length} snapshots, ${state.toJSON().messages.length} messages`);
});

test('a state restored from an object is a copy of it', async () => {
  const history = [{ role: 'user', content: '修复退款的舍入问题。' }];
  for (let k = 0; k < 12; k++) history.push(...turn(k));
  const first = new SessionState();
  const compactor = new Compactor(options());
  await compactHistory(compactor, history, { state: first, force: true });
  const data = first.toJSON();
  const restored = SessionState.from(data);
  const text = JSON.stringify(restored.toJSON());
  const sent = JSON.stringify((await compactHistory(new Compactor(options()), history, { state: SessionState.from(text) })).messages);
  // The caller reuses its object for something else.
  for (const m of data.messages) {
    if (typeof m.content === 'string') m.content = 'reused';
    else if (Array.isArray(m.content)) m.content.length = 0;
  }
  assert.equal(JSON.stringify(restored.toJSON()), text);
  assert.equal(stateText(restored.snapshots), text);
  const got = await compactHistory(new Compactor(options()), history, { state: restored });
  assert.equal(got.report.session.matched, history.length);
  assert.equal(JSON.stringify(got.messages), sent);
});
