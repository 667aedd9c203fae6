// The shortcuts a SessionState takes to match a history without hashing it again, each against the host that would
// fool it: a history rebuilt from JSON on every call (matched by position against the last call's snapshots), then
// edited in place to the same length with other content; messages that were deep-frozen, then rebuilt, then
// edited in place (a deep-frozen message is trusted without a walk: the trust must not pass to its rebuilt
// double); the caller editing the remembered messages it was sent (each call sends a clone of the state's own).
// Every call's answer must be the one a state read back from its JSON gives through a fresh Compactor, which
// can only hash: the same prefix matched, the same messages sent; a message edited is never matched past.
import test, { before } from 'node:test';
import assert from 'node:assert/strict';
import { init, Compactor, SessionState, compactHistory, digestSummarizer } from '../../js/hosts/node.js';
import { prng } from '../helpers/prng.mjs';

before(() => init());

const SEED = 9241; // pinned: a failure names the seed and the call to replay

const TEXTS = ['退款金额四舍五入到分，半分向上。', 'The ledger test fails on half-cent refunds.', '测试通过了 41 个，失败 1 个：rounding.test.ts',
  'src/refund.ts: roundHalfUp(amount) is applied twice', 'npm test -- refund: 3 failing, see rounding.test.ts:41'];

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** One turn of a coding session in the Anthropic format: thinking, two parallel tool calls, their results, a user line
 * (and a screenshot). */
function turn(random, k) {
  const ids = [0, 1].map((j) => `toolu_${k}_${j}_${Math.floor(random() * 1e9)}`);
  const output = () => Array.from({ length: 3 + Math.floor(random() * 5) }, () => TEXTS[Math.floor(random() * TEXTS.length)]).join('\n');
  return [
    { role: 'assistant', content: [
      { type: 'thinking', thinking: `第 ${k} 步：先看测试输出，再读源码。`, signature: `sig${k}${Math.floor(random() * 1e6)}` },
      { type: 'text', text: TEXTS[k % TEXTS.length] },
      { type: 'tool_use', id: ids[0], name: 'bash', input: { command: `npm test -- refund ${k}` } },
      { type: 'tool_use', id: ids[1], name: 'read_file', input: { path: `src/refund${k}.ts` } }] },
    { role: 'user', content: [
      { type: 'tool_result', tool_use_id: ids[0], content: output() },
      { type: 'tool_result', tool_use_id: ids[1], content: [{ type: 'text', text: output() }] },
      { type: 'text', text: TEXTS[(k + 2) % TEXTS.length] },
      // (a screenshot beside the results every third turn: a part with an object inside, kept when the results are cleared)
      ...(k % 3 === 0 ? [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] : [])] },
  ];
}

/** A conversation of `turns` turns after its task. */
function conversation(random, turns) {
  const history = [{ role: 'user', content: '修复退款的舍入问题，并保持测试通过。' }];
  for (let k = 0; k < turns; k++) history.push(...turn(random, k));
  return history;
}

/**
 * Changes one string of message `m` in place to another of the same length in UTF-16 units and in UTF-8 bytes
 * (a CJK character for another, an ASCII letter for another): the history's canonical bytes keep their length,
 * so only its content tells it apart. Returns the path changed.
 */
function sameLengthEdit(random, m) {
  const strings = [];
  const walk = (v, path) => {
    if (typeof v === 'string' && v.length > 0 && /[a-z\u4e00-\u9fff]/.test(v)) strings.push(path);
    else if (v && typeof v === 'object') for (const k of Object.keys(v)) walk(v[k], [...path, k]);
  };
  walk(m, []);
  const path = strings[Math.floor(random() * strings.length)];
  const parent = path.slice(0, -1).reduce((o, k) => o[k], m);
  const key = path[path.length - 1];
  const s = parent[key];
  const at = [...s].findIndex((c) => /[a-z\u4e00-\u9fff]/.test(c));
  const c = s[at];
  const other = /[a-z]/.test(c) ? (c === 'z' ? 'a' : String.fromCharCode(c.charCodeAt(0) + 1)) : (c === '九' ? '八' : '九');
  parent[key] = s.slice(0, at) + other + s.slice(at + 1);
  assert.equal(Buffer.byteLength(parent[key]), Buffer.byteLength(s));
  return path.join('.');
}

const options = () => ({ summarize: digestSummarizer(), threshold: 1e9, microTrigger: 1e9, keepRecent: 2, thinking: 'unbound' });
const json = (v) => JSON.stringify(v);
const rebuilt = (history) => JSON.parse(json(history));

/** compactHistory on `state`, and the same call on that state read back from its JSON through a fresh Compactor. */
async function callAndOracle(compactor, history, state, force, where) {
  const oracleState = SessionState.from(state.toJSON());
  const got = await compactHistory(compactor, history, { state, force });
  const expected = await compactHistory(new Compactor(options()), history, { state: oracleState, force });
  assert.equal(got.report.session.matched, expected.report.session.matched, `${where}: the prefix matched`);
  assert.equal(json(got.messages), json(expected.messages), `${where}: the messages sent`);
  assert.equal(got.report.reason, expected.report.reason, where);
  return got;
}

test(`a history rebuilt from JSON on every call matches its state, and one of the same length with other content never does (seed ${SEED})`, async () => {
  const random = prng(SEED);
  const source = conversation(random, 20);
  const state = new SessionState();
  const compactor = new Compactor(options());
  let matchedCalls = 0, edits = 0, lastEdited = false;
  for (let call = 0; call < 24; call++) {
    source.push(...turn(random, 20 + call));
    const history = rebuilt(source); // new objects every call, as a proxy parses them
    let edited = -1, what = '';
    const remembered = state.snapshots.length ? state.snapshots[0].count : 0;
    if (call > 2 && call % 3 === 0) {
      // inside the remembered prefix, in the history sent this call only (the next call is rebuilt from the source)
      edited = 1 + Math.floor(random() * (remembered - 1));
      what = sameLengthEdit(random, history[edited]);
      edits++;
    }
    const where = `call ${call}${edited >= 0 ? `, message ${edited} edited to the same length (${what})` : ''}`;
    const got = await callAndOracle(compactor, history, state, call % 5 === 0, where);
    const { matched } = got.report.session;
    if (edited >= 0) assert.ok(matched <= edited, `${where}: matched ${matched} messages, past the edited one`);
    else if (call % 5 !== 0 && remembered > 0 && !lastEdited) {
      // (after an edited call, the newest snapshot is of the edited history: an earlier one matches)
      assert.equal(matched, remembered, `${where}: the rebuilt history matched the last call's prefix`);
      matchedCalls++;
    }
    lastEdited = edited >= 0;
  }
  assert.ok(matchedCalls >= 6 && edits >= 6, `${matchedCalls} rebuilt calls matched, ${edits} edits`);
});

test('a message rebuilt from JSON, then edited in place to the same length, is not matched from its prefix', async () => {
  const random = prng(SEED + 1);
  const source = conversation(random, 12);
  const state = new SessionState();
  const compactor = new Compactor(options());
  await callAndOracle(compactor, source, state, true, 'the fold');
  const count = state.snapshots[0].count;
  // The rebuilt objects take the last call's entries by position...
  source.push(...turn(random, 12));
  const history = rebuilt(source);
  assert.equal((await callAndOracle(compactor, history, state, false, 'rebuilt')).report.session.matched, count);
  // ...and are compared with them again: the same objects, one string of an early one changed in place.
  const what = sameLengthEdit(random, history[3]);
  history.push(...turn(random, 13));
  const got = await callAndOracle(compactor, history, state, false, `message 3 edited in place (${what})`);
  assert.ok(got.report.session.matched <= 3, `matched ${got.report.session.matched}, past the edited message`);
});

test('a deep-frozen history is trusted without a walk; its rebuilt double is not, once edited in place', async () => {
  const random = prng(SEED + 2);
  const deepFreeze = (v) => { if (v && typeof v === 'object') { Object.values(v).forEach(deepFreeze); Object.freeze(v); } return v; };
  const source = conversation(random, 12);
  const frozen = deepFreeze(rebuilt(source));
  const state = new SessionState();
  const compactor = new Compactor(options());
  await callAndOracle(compactor, frozen, state, true, 'the fold on frozen messages');
  const count = state.snapshots[0].count;
  // (calls enough for every frozen message to have been found deep-frozen: a few hundred are asked per call)
  for (let k = 0; k < 3; k++) assert.equal((await callAndOracle(compactor, frozen, state, false, `frozen call ${k}`)).report.session.matched, count);
  // The same values as new, unfrozen objects (a host that stopped freezing, or re-parsed): matched by position.
  const history = rebuilt(frozen);
  assert.equal((await callAndOracle(compactor, history, state, false, 'rebuilt, unfrozen')).report.session.matched, count);
  // Edited in place: the frozen originals could not change, these can.
  const what = sameLengthEdit(random, history[2]);
  const got = await callAndOracle(compactor, history, state, false, `message 2 edited in place (${what})`);
  assert.ok(got.report.session.matched <= 2, `matched ${got.report.session.matched}, past the edited message`);
});

test('editing the remembered messages a call sent changes neither the state nor what the next call sends', async () => {
  const random = prng(SEED + 3);
  const history = conversation(random, 14);
  const state = new SessionState();
  const compactor = new Compactor(options());
  const first = await callAndOracle(compactor, history, state, true, 'the fold');
  const pristine = json(first.messages);
  const count = state.snapshots[0].count;
  const stored = json(state.toJSON());
  // Which messages sent are the state's (written or edited by midfold), not copies of the host's own.
  const remembered = new Set();
  let at = 0;
  for (const item of state.snapshots[0].items) {
    if (Array.isArray(item)) at += item[1] - item[0];
    else remembered.add(at++);
  }
  assert.ok(remembered.size > 2, 'the fold wrote a summary and cleared results');
  // The caller edits what it was sent: the state's messages at every depth (the summary's text, a cleared
  // result's content, a part added), its own (which share their nested values with its history) at their top.
  // (Not the fold's own answer: the messages it edited share their nested values with the host's, as documented.)
  const edit = (messages) => messages.forEach((m, k) => {
    if (typeof m.content === 'string') m.content += ' (edited by the host)';
    else if (Array.isArray(m.content)) {
      for (const part of m.content) {
        if (typeof part.text === 'string') part.text = `${part.text}!`;
        if (!remembered.has(k)) continue;
        if (Array.isArray(part.content)) part.content.push({ type: 'text', text: 'host note' });
        else if (typeof part.content === 'string') part.content = `${part.content}?`;
        for (const key of Object.keys(part)) if (part[key] && typeof part[key] === 'object' && !Array.isArray(part[key])) part[key].edited = true;
      }
      m.content.push({ type: 'text', text: 'appended by the host' });
    }
  });
  for (let call = 0; call < 4; call++) {
    const got = await callAndOracle(compactor, history, state, false, call ? `call ${call} after the host edited what it was sent` : 'call 0');
    assert.equal(got.report.session.matched, count);
    assert.equal(json(got.messages), pristine, `call ${call}: the remembered form is sent as it was remembered`);
    edit(got.messages);
  }
  assert.equal(json(state.toJSON()), stored, 'the state is as it was');
});
