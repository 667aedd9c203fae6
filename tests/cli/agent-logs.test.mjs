// Agent logs as conversations (js/logs/): a Claude Code session and a Codex CLI rollout, read
// line by line as each agent writes them (tests/fixtures/logs/build.mjs), become the Anthropic
// Messages and the Responses items the provider received — and validate.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { init, validate, detectFormat, estimateTokens, readAgentLog, agentLogFormat } from '../../js/hosts/node.js';
import { claudeCodeLog, codexLog } from '../fixtures/logs/build.mjs';

before(() => init());

const claudeText = claudeCodeLog();
const codexText = codexLog();
const rows = (text) => text.trim().split('\n').map((l) => JSON.parse(l));
const count = (list, pred) => list.filter(pred).length;

describe('Claude Code session', () => {
  const lines = rows(claudeText);
  const log = readAgentLog(claudeText);
  const main = lines.filter((l) => (l.type === 'user' || l.type === 'assistant') && !l.isSidechain);
  const modelRows = main.filter((l) => l.type === 'assistant' && !l.isApiErrorMessage);

  test('is told by its lines, and reads as an Anthropic conversation that validates', () => {
    assert.equal(agentLogFormat(claudeText), 'claude-code');
    assert.equal(log.format, 'claude-code');
    assert.ok(lines.length > 800 && log.messages.length > 300, `${lines.length} lines, ${log.messages.length} messages`);
    assert.equal(detectFormat(log.messages), 'anthropic');
    const report = validate(log.messages);
    assert.ok(report.ok, JSON.stringify(report.problems.slice(0, 3)));
    assert.ok(log.messages.every((m) => Object.keys(m).join() === 'role,content'), 'only role and content: what the API takes');
  });

  test('the rows of one API message (one message.id) are one assistant message, blocks in order', () => {
    const ids = [...new Set(modelRows.map((l) => l.message.id))];
    const assistants = log.messages.filter((m) => m.role === 'assistant');
    assert.equal(assistants.length, ids.length);
    ids.forEach((id, k) => {
      const blocks = modelRows.filter((l) => l.message.id === id).flatMap((l) => l.message.content);
      assert.deepEqual(assistants[k].content, blocks, id);
    });
    assert.ok(ids.length < modelRows.length / 2, 'most messages span several rows');
  });

  test('parallel calls split across rows, their results written between the rows, come back paired: calls in one message, results first in the next', () => {
    let interleaved = 0, parallel = 0;
    for (let i = 0; i + 2 < main.length; i++) {
      const [a, u, b] = [main[i], main[i + 1], main[i + 2]];
      if (a.type === 'assistant' && u.type === 'user' && b.type === 'assistant' && a.message.id === b.message.id
        && a.message.content[0].type === 'tool_use' && u.message.content[0].type === 'tool_result') interleaved++;
    }
    assert.ok(interleaved >= 3, `the log has results between rows of one message (${interleaved})`);
    log.messages.forEach((m, i) => {
      if (m.role !== 'assistant') return;
      const calls = m.content.filter((b) => b.type === 'tool_use').map((b) => b.id);
      if (calls.length === 0) return;
      if (calls.length > 1) parallel++;
      const next = log.messages[i + 1];
      const results = next.content.filter((b) => b.type === 'tool_result');
      assert.deepEqual(results.map((b) => b.tool_use_id).sort(), [...calls].sort(), `message ${i}`);
      assert.deepEqual(next.content.slice(0, results.length), results, `message ${i + 1}: tool results first`);
    });
    assert.ok(parallel >= 10, `${parallel} messages with parallel calls`);
  });

  test('signed thinking comes back byte for byte, on most turns', () => {
    const logged = modelRows.flatMap((l) => l.message.content).filter((b) => b.type === 'thinking');
    const kept = log.messages.flatMap((m) => (m.role === 'assistant' ? m.content : [])).filter((b) => b.type === 'thinking');
    assert.deepEqual(kept, logged);
    assert.ok(kept.every((b) => typeof b.signature === 'string' && b.signature.length > 200));
    const withThinking = count(log.messages, (m) => m.role === 'assistant' && m.content.some((b) => b.type === 'thinking'));
    assert.ok(withThinking > 0.75 * count(log.messages, (m) => m.role === 'assistant'), `${withThinking} assistant messages think`);
  });

  test('a subagent\'s sidechain, snapshots, summaries, system lines and Claude Code\'s own API error are left out, and counted', () => {
    const text = JSON.stringify(log.messages);
    assert.ok(!text.includes('SIDECHAIN-ONLY'));
    assert.ok(!text.includes('API Error: 529'));
    assert.deepEqual(log.skipped, {
      summary: count(lines, (l) => l.type === 'summary'),
      'file-history-snapshot': count(lines, (l) => l.type === 'file-history-snapshot'),
      system: count(lines, (l) => l.type === 'system'),
      sidechain: count(lines, (l) => l.isSidechain === true),
      synthetic: count(lines, (l) => l.isApiErrorMessage === true),
    });
    // The Task call's result (what the parent read) stays.
    assert.ok(text.includes('Found 9 callers of toCents'));
  });

  test('the /compact summary starts a message of its own where it stands; everything before it stays', () => {
    assert.equal(log.compactions.length, 1);
    const { index, line } = log.compactions[0];
    // (the prompt the user typed next joins it: consecutive user lines are one message)
    const [summary, next] = log.messages[index].content;
    assert.match(summary.text, /^This session is being continued from a previous conversation/);
    assert.equal(next.text, lines[line].message.content);
    assert.equal(lines[line - 1].isCompactSummary, true);
    assert.equal(lines[line - 2].subtype, 'compact_boundary');
    assert.match(JSON.stringify(log.messages.slice(0, index)), /三月份的发票导出在夏令时切换那天差了一个小时/);
  });

  test('an interrupted tool use keeps its error result and the note after it', () => {
    const i = log.messages.findIndex((m) => Array.isArray(m.content) && m.content.some((b) => b.text === '[Request interrupted by user for tool use]'));
    assert.ok(i > 0);
    const m = log.messages[i];
    const results = m.content.filter((b) => b.type === 'tool_result');
    assert.ok(results.length > 0 && results.every((b) => b.is_error === true && /The user doesn't want to proceed/.test(b.content)));
    assert.equal(m.content[results.length].text, '[Request interrupted by user for tool use]');
    // and no answer to it: the next assistant message answers the next prompt
    assert.equal(log.messages[i + 1].role, 'assistant');
  });

  test('each message has the time of its first line', () => {
    assert.equal(log.times.length, log.messages.length);
    const ms = log.times.map((t) => Date.parse(t));
    assert.ok(ms.every((t, i) => Number.isFinite(t) && (i === 0 || t >= ms[i - 1])));
  });
});

describe('Codex CLI rollout', () => {
  const lines = rows(codexText);
  const log = readAgentLog(codexText);
  const items = lines.filter((l) => l.type === 'response_item').map((l) => l.payload);

  test('is told by its lines, and reads as Responses items that validate', () => {
    assert.equal(agentLogFormat(codexText), 'codex');
    assert.equal(log.format, 'codex');
    assert.ok(items.length > 500, `${items.length} items`);
    assert.equal(detectFormat(log.messages), 'openai-responses');
    const report = validate(log.messages);
    assert.ok(report.ok, JSON.stringify(report.problems.slice(0, 3)));
  });

  test('response_item payloads are the items, in order and unchanged (encrypted reasoning byte for byte); a compaction becomes its summary', () => {
    const { index, line } = log.compactions[0];
    const compacted = lines[line - 1];
    assert.equal(compacted.type, 'compacted');
    assert.deepEqual(log.messages[index], { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: compacted.payload.message }] });
    const { callId } = log.repaired[0];
    const rest = log.messages.filter((m, i) => i !== index && !(m.type === 'function_call_output' && m.call_id === callId));
    assert.deepEqual(rest, items);
    const reasoning = log.messages.filter((m) => m.type === 'reasoning');
    assert.ok(reasoning.length > 150 && reasoning.every((r) => r.encrypted_content.startsWith('gAAAAA')));
    assert.match(JSON.stringify(log.messages), /退款的金额导出来是正数/);
  });

  test('the call an interrupted turn left without output is answered "aborted" right after it, as Codex answers it, and said so', () => {
    const answered = new Set(items.filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output').map((i) => i.call_id));
    const open = items.filter((i) => (i.type === 'function_call' || i.type === 'custom_tool_call') && !answered.has(i.call_id));
    assert.ok(open.length >= 1, 'the fixture has a call without output');
    assert.deepEqual(log.repaired, open.map((c) => ({ kind: 'missing-output', callId: c.call_id, name: c.name })));
    for (const c of open) {
      const at = log.messages.findIndex((m) => m.type === c.type && m.call_id === c.call_id);
      assert.deepEqual(log.messages[at + 1], { type: c.type === 'custom_tool_call' ? 'custom_tool_call_output' : 'function_call_output', call_id: c.call_id, output: 'aborted' });
    }
  });

  test('session_meta, turn_context and event_msg lines are left out, and counted', () => {
    assert.deepEqual(log.skipped, {
      session_meta: count(lines, (l) => l.type === 'session_meta'),
      turn_context: count(lines, (l) => l.type === 'turn_context'),
      event_msg: count(lines, (l) => l.type === 'event_msg'),
    });
  });

  test('an output whose call is not in the log is dropped, and said so', () => {
    const orphan = JSON.stringify({ timestamp: '2026-11-27T11:00:00.000Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_gone', output: 'ok' } });
    const read = readAgentLog(codexText + orphan + '\n');
    assert.deepEqual(read.messages, log.messages);
    assert.deepEqual(read.repaired.at(-1), { kind: 'orphan-output', callId: 'call_gone' });
  });

  test('an earlier rollout (the session on the first line, then one bare item a line) reads the same items', () => {
    const meta = lines[0].payload;
    const older = [JSON.stringify({ id: meta.id, timestamp: meta.timestamp, instructions: null }),
      ...items.map((i) => JSON.stringify(i)), JSON.stringify({ record_type: 'state' })].join('\n');
    const read = readAgentLog(older);
    assert.equal(read.format, 'codex');
    assert.equal(read.messages.length, items.length + 1); // + the aborted output
    assert.ok(validate(read.messages).ok);
  });
});

describe('what is not a log, or not all of one', () => {
  test('a last line cut short (the agent still writing) is left out and counted; a bad line before it is an error naming it', () => {
    const cut = claudeText.slice(0, claudeText.length - 200);
    const read = readAgentLog(cut);
    assert.equal(read.skipped['incomplete-line'], 1);
    const whole = rows(claudeText);
    assert.deepEqual(read.messages, readAgentLog(whole.slice(0, -1).map((l) => JSON.stringify(l)).join('\n')).messages);
    const lines = codexText.split('\n');
    lines[41] = lines[41].slice(0, 30);
    assert.throws(() => readAgentLog(lines.join('\n')), (e) => e.code === 'parse-error' && /^line 42 is not JSON/.test(e.message)
      && e.position === lines.slice(0, 41).join('\n').length + 1);
  });

  test('JSON Lines of something else, a conversation array and plain text are not logs', () => {
    assert.throws(() => readAgentLog('{"level":"info","msg":"started"}\n{"level":"warn","msg":"slow"}\n'), (e) => e.code === 'unknown-format');
    assert.equal(agentLogFormat(JSON.stringify([{ role: 'user', content: 'hi' }])), undefined);
    assert.equal(agentLogFormat('hello\nworld\n'), undefined);
    assert.throws(() => readAgentLog(42), (e) => e.code === 'invalid-input');
  });

  test('a log of one line reads as one message', () => {
    const line = JSON.stringify({ parentUuid: null, isSidechain: false, type: 'user', message: { role: 'user', content: '修一下导出' }, uuid: 'u1', sessionId: 's1', timestamp: '2026-11-27T08:00:00.000Z' });
    const read = readAgentLog(line);
    assert.deepEqual(read.messages, [{ role: 'user', content: '修一下导出' }]);
    assert.equal(estimateTokens(read.messages), estimateTokens([{ role: 'user', content: '修一下导出' }]));
  });
});
