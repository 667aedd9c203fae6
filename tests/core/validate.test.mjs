// validate and detectFormat: the providers' pairing rules, with message indexes.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init, validate, detectFormat } from '../../js/hosts/node.js';
import { loadFixture, fixtureNames, fixtureFormat } from '../helpers/fixtures.mjs';

await init();

const codes = (report) => report.problems.map((p) => [p.code, p.index, p.part]);
const useBlock = (id, name = 'read_file') => ({ type: 'tool_use', id, name, input: { file_path: 'a.txt' } });
const resultBlock = (id, content = 'contents') => ({ type: 'tool_result', tool_use_id: id, content });

test.describe('detectFormat', () => {
  for (const name of fixtureNames()) {
    test(`${name} is detected as ${fixtureFormat(name)}`, () => {
      assert.equal(detectFormat(loadFixture(name)), fixtureFormat(name));
    });
  }
  test('plain text messages are reported as "openai"', () => {
    assert.equal(detectFormat([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }]), 'openai');
  });
  test('plain text in text blocks is reported as "openai" too', () => {
    assert.equal(detectFormat([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]), 'openai');
  });
  test('an Anthropic tool_use next to an OpenAI tool_calls message is "unknown" (mixed)', () => {
    const mixed = [...loadFixture('seed-example.anthropic'), ...loadFixture('coding-session.openai').slice(1, 3)];
    assert.equal(detectFormat(mixed), 'unknown');
  });
  test('an AI SDK tool-call next to an Anthropic tool_result is "unknown" (mixed)', () => {
    const mixed = [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'x', toolName: 'f', input: {} }] },
      { role: 'user', content: [resultBlock('x')] },
    ];
    assert.equal(detectFormat(mixed), 'unknown');
  });
  test('values that are not lists of messages are "unknown"', () => {
    for (const v of [42, 'hello', null, undefined, {}, [1, 2], [{ content: 'no role' }], [{ role: 7, content: 'x' }], [[]]]) {
      assert.equal(detectFormat(v), 'unknown', JSON.stringify(v));
    }
  });
  test('a list with one non-message entry is "unknown"', () => {
    assert.equal(detectFormat([{ role: 'user', content: 'hi' }, 'stray string']), 'unknown');
  });
  test('an Anthropic image block (with source) says anthropic', () => {
    assert.equal(detectFormat([{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }] }]), 'anthropic');
  });
  test('an OpenAI image_url part says openai', () => {
    assert.equal(detectFormat([{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }]), 'openai');
  });
  test('detecting never changes the input', () => {
    const msgs = loadFixture('chinese-travel.openai');
    const before = structuredClone(msgs);
    detectFormat(msgs);
    assert.deepEqual(msgs, before);
  });
});

test.describe('validate: the fixtures', () => {
  for (const name of fixtureNames().filter((n) => n !== 'missing-call.anthropic')) {
    test(`${name} is valid`, () => {
      const r = validate(loadFixture(name));
      assert.deepEqual(r.problems, []);
      assert.equal(r.ok, true);
      assert.equal(r.format, fixtureFormat(name));
    });
  }
  test('missing-call.anthropic has exactly one problem: result-without-call at message 0, block 0', () => {
    const r = validate(loadFixture('missing-call.anthropic'));
    assert.equal(r.ok, false);
    assert.deepEqual(codes(r), [['result-without-call', 0, 0]]);
    assert.match(r.problems[0].message, /toolu_gone_7/);
  });
  test('every problem has a code, an index and a message', () => {
    const r = validate(loadFixture('missing-call.anthropic'));
    for (const p of r.problems) {
      assert.equal(typeof p.code, 'string');
      assert.equal(typeof p.index, 'number');
      assert.equal(typeof p.message, 'string');
    }
  });
  test('validating never changes the input', () => {
    const msgs = loadFixture('coding-session.anthropic');
    const before = structuredClone(msgs);
    validate(msgs);
    assert.deepEqual(msgs, before);
  });
});

test.describe('validate: each problem, with its index', () => {
  test('call-without-result: a tool_use followed by plain user text', () => {
    const r = validate([{ role: 'user', content: 'read a.txt' }, { role: 'assistant', content: [useBlock('t1')] }, { role: 'user', content: 'never mind' }]);
    assert.deepEqual(codes(r), [['call-without-result', 1, 0]]);
  });
  test('call-without-result: a tool_use at the very end', () => {
    const r = validate([{ role: 'user', content: 'read a.txt' }, { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, useBlock('t1')] }]);
    assert.deepEqual(codes(r), [['call-without-result', 1, 1]]);
  });
  test('call-without-result: one of two parallel calls unanswered', () => {
    const r = validate([
      { role: 'user', content: 'read both' },
      { role: 'assistant', content: [useBlock('t1'), useBlock('t2')] },
      { role: 'user', content: [resultBlock('t1')] },
    ]);
    assert.deepEqual(codes(r), [['call-without-result', 1, 1]]);
  });
  test('a result one message too late is both call-without-result and result-without-call', () => {
    const r = validate([
      { role: 'user', content: 'read a.txt' },
      { role: 'assistant', content: [useBlock('t1')] },
      { role: 'user', content: 'hurry up' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: [resultBlock('t1')] },
    ]);
    assert.deepEqual(codes(r), [['call-without-result', 1, 0], ['result-without-call', 4, 0]]);
  });
  test('result-without-call: a tool_result answering an id nobody called', () => {
    const r = validate([{ role: 'user', content: 'read a.txt' }, { role: 'assistant', content: [useBlock('t1')] }, { role: 'user', content: [resultBlock('t1'), resultBlock('t9')] }]);
    assert.deepEqual(codes(r), [['result-without-call', 2, 1]]);
  });
  test('result-not-first: a tool_result after a text block in its user message', () => {
    const r = validate([
      { role: 'user', content: 'read a.txt' },
      { role: 'assistant', content: [useBlock('t1')] },
      { role: 'user', content: [{ type: 'text', text: 'here you go' }, resultBlock('t1')] },
    ]);
    assert.deepEqual(codes(r), [['result-not-first', 2, 1]]);
  });
  test('unknown-role: a role no provider defines', () => {
    const r = validate([{ role: 'user', content: 'hi' }, { role: 'robot', content: 'beep' }]);
    assert.deepEqual(codes(r), [['unknown-role', 1, undefined]]);
  });
  test('unknown-block: an Anthropic block type that does not exist', () => {
    const r = validate([{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'banana', peel: true }] }], { format: 'anthropic' });
    assert.deepEqual(codes(r), [['unknown-block', 0, 1]]);
  });
  test('unknown-block: an AI SDK part type that does not exist', () => {
    const r = validate([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'f', input: {} }, { type: 'hologram' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 'f', output: { type: 'text', value: 'v' } }] },
    ]);
    assert.deepEqual(codes(r), [['unknown-block', 1, 1]]);
  });
  test('OpenAI: a tool message that answers no preceding tool_calls is result-without-call', () => {
    const r = validate([{ role: 'user', content: 'weather?' }, { role: 'tool', tool_call_id: 'call_x', content: '{"temp": 21}' }]);
    assert.deepEqual(codes(r), [['result-without-call', 1, undefined]]);
  });
  test('OpenAI: a tool message with an id that is not among the tool_calls before it', () => {
    const msgs = loadFixture('chinese-travel.openai');
    msgs[4].tool_call_id = 'call_wx_bj_99';
    const r = validate(msgs);
    assert.deepEqual(codes(r), [['call-without-result', 2, 1], ['result-without-call', 4, undefined]]);
  });
  test('OpenAI: a user message between tool_calls and their tool messages breaks both sides', () => {
    const r = validate([
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
      { role: 'user', content: 'and tomorrow?' },
      { role: 'tool', tool_call_id: 'c1', content: '{"temp": 4}' },
    ]);
    assert.deepEqual(codes(r), [['call-without-result', 1, 0], ['result-without-call', 3, undefined]]);
  });
  test('OpenAI: a missing tool message for one parallel call', () => {
    const msgs = loadFixture('parallel-read.openai');
    msgs.splice(5, 1); // drop the answer to the second of three parallel calls
    assert.deepEqual(codes(validate(msgs)), [['call-without-result', 3, 1]]);
  });
  test('missing-id: a tool_use without id and a tool_result without tool_use_id', () => {
    const r = validate([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'tool_use', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', content: 'x' }] },
    ]);
    assert.deepEqual(codes(r), [['missing-id', 1, 0], ['missing-id', 2, 0]]);
  });
  test('duplicate-id: two tool calls with the same id in one message', () => {
    const r = validate([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [useBlock('t1'), useBlock('t1', 'bash')] },
      { role: 'user', content: [resultBlock('t1')] },
    ]);
    assert.deepEqual(codes(r), [['duplicate-id', 1, 1]]);
  });
  test('duplicate-id: an id reused in a later turn is reported at the later call', () => {
    const r = validate([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [useBlock('t1')] },
      { role: 'user', content: [resultBlock('t1')] },
      { role: 'assistant', content: [useBlock('t1')] },
      { role: 'user', content: [resultBlock('t1')] },
    ]);
    assert.deepEqual(codes(r), [['duplicate-id', 3, 0]]);
  });
  test('AI SDK: a tool-call without a tool message after it', () => {
    const r = validate([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: {} }] },
      { role: 'user', content: 'hello?' },
    ]);
    assert.deepEqual(codes(r), [['call-without-result', 1, 0]]);
  });
  test('a system message between a tool_use and its result is skipped (Anthropic)', () => {
    const r = validate([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [useBlock('t1')] },
      { role: 'system', content: 'Reminder: be brief.' },
      { role: 'user', content: [resultBlock('t1')] },
    ]);
    assert.deepEqual(r.problems, []);
  });
  test('several problems in one conversation are all listed', () => {
    const r = validate([
      { role: 'user', content: [resultBlock('ghost')] },
      { role: 'robot', content: 'x' },
      { role: 'assistant', content: [useBlock('t1')] },
      { role: 'user', content: 'no result' },
    ]);
    assert.equal(r.problems.length, 3);
    assert.deepEqual(new Set(codes(r).map((c) => `${c[0]}@${c[1]}`)), new Set(['result-without-call@0', 'unknown-role@1', 'call-without-result@2']));
  });
  test('a list with a non-message entry: not-a-message at its index', () => {
    const r = validate([{ role: 'user', content: 'hi' }, 42, { role: 'assistant', content: 'hello' }]);
    assert.equal(r.ok, false);
    assert.deepEqual(codes(r), [['not-a-message', 1, undefined]]);
  });
  test('a value that is not a list of messages gives one problem, not an error', () => {
    for (const v of [42, 'text', null, {}]) {
      const r = validate(v);
      assert.equal(r.ok, false);
      assert.equal(r.problems.length, 1);
      assert.equal(r.problems[0].code, 'not-a-message');
    }
  });
  test('mixed formats are a finding with format "unknown", not an error', () => {
    const mixed = [...loadFixture('seed-example.anthropic'), ...loadFixture('coding-session.openai').slice(1, 3)];
    const r = validate(mixed);
    assert.equal(r.ok, false);
    assert.equal(r.format, 'unknown');
    assert.ok(r.problems.length >= 1);
  });
  test('an explicit format is used and reported', () => {
    const r = validate([{ role: 'user', content: 'hi' }], { format: 'anthropic' });
    assert.equal(r.format, 'anthropic');
    assert.equal(r.ok, true);
  });
});
