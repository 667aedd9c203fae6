// microCompact: old tool results become "[truncated: {tool} result, {N} chars]", in place.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init, microCompact, estimateTokens, serialize, validate, MidfoldError } from '../../js/hosts/node.js';
import { loadFixture, fixtureNames, codePoints, marker, anthropicRound, openaiRound, aisdkRound } from '../helpers/fixtures.mjs';

await init();

/** [{message, part, tool, text}] of every tool result in an Anthropic/AI SDK list (part index in content). */
function resultsOf(msgs) {
  const out = [];
  msgs.forEach((m, i) => {
    if (m.role === 'tool' && !Array.isArray(m.content)) { out.push({ message: i, part: -1, value: m.content }); return; }
    if (!Array.isArray(m.content)) return;
    m.content.forEach((b, p) => {
      if (b.type === 'tool_result') out.push({ message: i, part: p, value: b.content });
      if (b.type === 'tool-result') out.push({ message: i, part: p, value: b.output });
    });
  });
  return out;
}

/** Tool name of each call id in a list, any format. */
function callNames(msgs) {
  const names = new Map();
  for (const m of msgs) {
    for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
    if (Array.isArray(m.content)) for (const b of m.content) {
      if (b.type === 'tool_use') names.set(b.id, b.name);
      if (b.type === 'tool-call') names.set(b.toolCallId, b.toolName);
    }
  }
  return names;
}

const CODING = ['coding-session.anthropic', 'coding-session.openai', 'coding-session.ai-sdk'];
// Tool-result turns of the coding session (Anthropic / AI SDK message indices): the last three are kept.
const KEPT_TURNS = [14, 16, 20];

test.describe('seed semantics on the coding session', () => {
  test('Anthropic: every result before the last 3 tool-result turns becomes the marker with its code-point count', () => {
    const msgs = loadFixture('coding-session.anthropic');
    const before = structuredClone(msgs);
    const names = callNames(before);
    const report = microCompact(msgs);
    let cleared = 0;
    for (const r of resultsOf(before)) {
      const block = msgs[r.message].content[r.part];
      if (KEPT_TURNS.includes(r.message)) {
        assert.equal(block.content, r.value, `message ${r.message} must stay whole`);
      } else {
        assert.equal(block.content, marker(names.get(block.tool_use_id), codePoints(r.value)));
        cleared++;
      }
    }
    assert.equal(cleared, 8);
    assert.equal(report.cleared, 8);
  });

  test('Anthropic: the first cleared result is exactly "[truncated: bash result, 1351 chars]"', () => {
    const msgs = loadFixture('coding-session.anthropic');
    const original = msgs[2].content[0].content;
    microCompact(msgs);
    assert.equal(codePoints(original), 1351);
    assert.equal(msgs[2].content[0].content, '[truncated: bash result, 1351 chars]');
  });

  test('Anthropic: only tool result content changes; every other field of every message is unchanged', () => {
    const msgs = loadFixture('coding-session.anthropic');
    const before = structuredClone(msgs);
    microCompact(msgs);
    const strip = (list) => list.map((m) => (Array.isArray(m.content)
      ? { ...m, content: m.content.map((b) => (b.type === 'tool_result' ? { ...b, content: null } : b)) } : m));
    assert.deepEqual(strip(msgs), strip(before));
  });

  test('OpenAI: each old tool message\'s content becomes the marker; the last 3 turns stay whole', () => {
    const msgs = loadFixture('coding-session.openai');
    const before = structuredClone(msgs);
    const names = callNames(before);
    const report = microCompact(msgs);
    const toolIdx = before.map((m, i) => (m.role === 'tool' ? i : -1)).filter((i) => i >= 0);
    const kept = toolIdx.slice(-3);
    for (const i of toolIdx) {
      if (kept.includes(i)) assert.equal(msgs[i].content, before[i].content);
      else assert.equal(msgs[i].content, marker(names.get(before[i].tool_call_id), codePoints(before[i].content)));
    }
    assert.equal(report.cleared, 8);
  });

  test('AI SDK: an old result\'s output becomes {type: "text", value: marker}', () => {
    const msgs = loadFixture('coding-session.ai-sdk');
    const before = structuredClone(msgs);
    microCompact(msgs);
    for (const r of resultsOf(before)) {
      const part = msgs[r.message].content[r.part];
      if (KEPT_TURNS.includes(r.message)) assert.deepEqual(part.output, r.value);
      else assert.deepEqual(part.output, { type: 'text', value: marker(part.toolName, codePoints(r.value.value)) });
    }
  });

  test('the three formats clear the same results: their transcripts stay equal', () => {
    const t = CODING.map((name) => { const m = loadFixture(name); microCompact(m); return serialize(m); });
    assert.equal(t[1], t[0]);
    assert.equal(t[2], t[0]);
  });

  test('the three formats report the same cleared count and characters', () => {
    const r = CODING.map((name) => microCompact(loadFixture(name)));
    assert.deepEqual(r.map((x) => [x.cleared, x.charsCleared]), [[8, 16461], [8, 16461], [8, 16461]]);
  });

  test('charsCleared is the sum of the cleared results\' code points', () => {
    const msgs = loadFixture('coding-session.anthropic');
    const expected = resultsOf(msgs).filter((r) => !KEPT_TURNS.includes(r.message)).reduce((s, r) => s + codePoints(r.value), 0);
    assert.equal(microCompact(msgs).charsCleared, expected);
  });

  test('keepRecent: 0 clears every result', () => {
    const msgs = loadFixture('coding-session.anthropic');
    assert.equal(microCompact(msgs, { keepRecent: 0 }).cleared, 11);
    for (const r of resultsOf(msgs)) assert.match(r.value, /^\[truncated: \w+ result, \d+ chars\]$/);
  });

  test('keepRecent larger than the number of tool-result turns clears nothing', () => {
    const msgs = loadFixture('coding-session.anthropic');
    const before = structuredClone(msgs);
    assert.equal(microCompact(msgs, { keepRecent: 9 }).cleared, 0);
    assert.deepEqual(msgs, before);
  });

  test('keepRecent: 8 clears only the first tool-result turn', () => {
    const msgs = loadFixture('coding-session.anthropic');
    const report = microCompact(msgs, { keepRecent: 8 });
    assert.equal(report.cleared, 1);
    assert.equal(msgs[2].content[0].content, '[truncated: bash result, 1351 chars]');
  });
});

test.describe('code points, not UTF-16 units or bytes', () => {
  test('Chinese results count one per character', () => {
    const msgs = loadFixture('chinese-coding.anthropic');
    const traceback = msgs[2].content[0].content;
    const source = msgs[4].content[0].content;
    const edit = msgs[6].content[0].content;
    microCompact(msgs, { keepRecent: 1 });
    assert.equal(msgs[2].content[0].content, marker('bash', codePoints(traceback)));
    assert.equal(msgs[4].content[0].content, marker('read_file', codePoints(source)));
    assert.equal(msgs[6].content[0].content, `[truncated: edit_file result, ${codePoints(edit)} chars]`);
    assert.equal(codePoints(edit), 45);
    assert.equal(Buffer.byteLength(edit), 69);
  });

  test('an emoji counts as one character although it is two UTF-16 units', () => {
    const text = '🚀 deployed build 4417 to production 🎉 all 212 checks green ✅ '.repeat(3);
    assert.notEqual(text.length, codePoints(text));
    const msgs = [...anthropicRound('t1', 'deploy', { env: 'prod' }, text), ...anthropicRound('t2', 'bash', { command: 'true' }, 'x'.repeat(80))];
    microCompact(msgs, { keepRecent: 1 });
    assert.equal(msgs[1].content[0].content, `[truncated: deploy result, ${codePoints(text)} chars]`);
    assert.equal(codePoints(text), 183);
    assert.equal(text.length, 189);
  });

  test('a Chinese OpenAI tool message counts one per character', () => {
    const msgs = loadFixture('chinese-travel.openai');
    const hz = msgs[3].content;
    microCompact(msgs, { keepRecent: 1 });
    assert.equal(msgs[3].content, marker('get_weather', codePoints(hz)));
    assert.equal(msgs[4].content.startsWith('[truncated: get_weather result, '), true);
    assert.equal(msgs[8].content.startsWith('{'), true, 'the last turn stays whole');
  });
});

test.describe('idempotence and identity', () => {
  for (const name of CODING) {
    test(`${name}: a second call clears nothing and changes nothing`, () => {
      const msgs = loadFixture(name);
      microCompact(msgs);
      const once = structuredClone(msgs);
      const second = microCompact(msgs);
      assert.equal(second.cleared, 0);
      assert.equal(second.charsCleared, 0);
      assert.equal(second.tokensAfter, second.tokensBefore);
      assert.deepEqual(msgs, once);
    });
  }

  test('a second call with keepRecent 0 leaves the markers alone and clears only what was kept', () => {
    const msgs = loadFixture('coding-session.anthropic');
    microCompact(msgs);
    const report = microCompact(msgs, { keepRecent: 0 });
    assert.equal(report.cleared, 3);
    assert.equal(msgs[2].content[0].content, '[truncated: bash result, 1351 chars]');
  });

  test('content already starting with "[truncated:" is skipped even in a text block', () => {
    const msgs = [
      ...anthropicRound('t1', 'bash', {}, [{ type: 'text', text: '[truncated: bash result, 9000 chars]' }]),
      ...anthropicRound('t2', 'bash', {}, 'y'.repeat(200)),
    ];
    const before = structuredClone(msgs);
    assert.equal(microCompact(msgs, { keepRecent: 1 }).cleared, 0);
    assert.deepEqual(msgs, before);
  });

  test('the array is edited in place: the same array, the same message and block objects', () => {
    const msgs = loadFixture('coding-session.anthropic');
    const arr = msgs;
    const messages = [...msgs];
    const contents = msgs.map((m) => m.content);
    const blocks = msgs.map((m) => (Array.isArray(m.content) ? [...m.content] : null));
    microCompact(msgs);
    assert.equal(msgs, arr);
    assert.equal(msgs.length, messages.length);
    msgs.forEach((m, i) => {
      assert.equal(m, messages[i], `message ${i} is the same object`);
      assert.equal(m.content, contents[i], `message ${i} keeps its content array`);
      if (blocks[i]) m.content.forEach((b, p) => assert.equal(b, blocks[i][p], `block ${i}.${p} is the same object`));
    });
  });

  test('untouched messages are the same objects and deep-equal to before', () => {
    const msgs = loadFixture('coding-session.openai');
    const before = structuredClone(msgs);
    const refs = [...msgs];
    microCompact(msgs);
    const toolIdx = before.map((m, i) => (m.role === 'tool' ? i : -1)).filter((i) => i >= 0);
    const touched = new Set(toolIdx.slice(0, -3));
    msgs.forEach((m, i) => {
      assert.equal(m, refs[i]);
      if (!touched.has(i)) assert.deepEqual(m, before[i]);
    });
  });

  test('AI SDK: the part object is kept, only its output is replaced', () => {
    const msgs = loadFixture('coding-session.ai-sdk');
    const part = msgs[2].content[0];
    microCompact(msgs);
    assert.equal(msgs[2].content[0], part);
    assert.equal(part.toolCallId, 'call_Qe4b7Tn2Lm01Vx9Kd');
    assert.equal(part.toolName, 'bash');
    assert.deepEqual(part.output, { type: 'text', value: '[truncated: bash result, 1351 chars]' });
  });
});

test.describe('results given as blocks', () => {
  test('text + image: N is the text\'s code points plus 7 for the image ("[image]")', () => {
    const msgs = loadFixture('tool-result-blocks.anthropic');
    const text = msgs[2].content[0].content[0].text;
    microCompact(msgs, { keepRecent: 1 });
    assert.equal(msgs[2].content[0].content, marker('browser_screenshot', codePoints(text) + 7));
  });

  test('three text blocks: N is the sum of their code points', () => {
    const msgs = loadFixture('tool-result-blocks.anthropic');
    const blocks = msgs[4].content[0].content;
    microCompact(msgs, { keepRecent: 0 });
    assert.equal(msgs[4].content[0].content, marker('browser_get_html', blocks.reduce((s, b) => s + codePoints(b.text), 0)));
  });

  test('the cleared block content becomes a string', () => {
    const msgs = loadFixture('tool-result-blocks.anthropic');
    microCompact(msgs, { keepRecent: 0 });
    assert.equal(typeof msgs[2].content[0].content, 'string');
  });

  test('the kept result keeps its blocks, image included', () => {
    const msgs = loadFixture('tool-result-blocks.anthropic');
    const before = structuredClone(msgs[4]);
    microCompact(msgs, { keepRecent: 1 });
    assert.deepEqual(msgs[4], before);
  });

  test('AI SDK content output (text + media): N is the text\'s code points plus 7 for the media part', () => {
    const msgs = [
      ...aisdkRound('c1', 'screenshot', { url: 'https://example.com' }, [{ type: 'text', text: '页面标题：结账 — step 2 of 3 '.repeat(4) }, { type: 'media', data: 'iVBORw0KGgo=', mediaType: 'image/png' }], 'content'),
      ...aisdkRound('c2', 'bash', {}, 'v'.repeat(100)),
    ];
    const text = msgs[1].content[0].output.value[0].text;
    microCompact(msgs, { keepRecent: 1 });
    assert.deepEqual(msgs[1].content[0].output, { type: 'text', value: marker('screenshot', codePoints(text) + 7) });
  });

  test('an OpenAI tool message whose content is text parts becomes one string', () => {
    const msgs = [
      ...openaiRound('c1', 'read_file', { file_path: 'a.txt' }, [{ type: 'text', text: 'x'.repeat(120) }, { type: 'text', text: 'yz' }]),
      ...openaiRound('c2', 'read_file', { file_path: 'b.txt' }, 'w'.repeat(100)),
    ];
    microCompact(msgs, { keepRecent: 1 });
    assert.equal(msgs[1].content, '[truncated: read_file result, 122 chars]');
  });
});

test.describe('options', () => {
  test('excludeTools: results of excluded tools are never cleared', () => {
    const msgs = loadFixture('coding-session.anthropic');
    const before = structuredClone(msgs);
    const report = microCompact(msgs, { excludeTools: ['read_file'] });
    assert.equal(report.cleared, 5);
    assert.deepEqual(msgs[6], before[6]);
    assert.equal(msgs[4].content[0].content, '[truncated: bash result, 4780 chars]');
  });

  test('excludeTools with every tool name clears nothing', () => {
    const msgs = loadFixture('coding-session.ai-sdk');
    const before = structuredClone(msgs);
    assert.equal(microCompact(msgs, { excludeTools: ['bash', 'read_file', 'edit_file', 'http_get'] }).cleared, 0);
    assert.deepEqual(msgs, before);
  });

  test('excludeTools: ["unknown"] protects a result whose call is missing', () => {
    const msgs = loadFixture('missing-call.anthropic');
    const before = structuredClone(msgs);
    assert.equal(microCompact(msgs, { keepRecent: 1, excludeTools: ['unknown'] }).cleared, 0);
    assert.deepEqual(msgs, before);
  });

  test('clearAtLeast larger than the gain: nothing changes', () => {
    const probe = loadFixture('coding-session.anthropic');
    const r = microCompact(probe);
    const gain = r.tokensBefore - r.tokensAfter;
    const msgs = loadFixture('coding-session.anthropic');
    const before = structuredClone(msgs);
    const report = microCompact(msgs, { clearAtLeast: gain + 1 });
    assert.equal(report.cleared, 0);
    assert.equal(report.tokensAfter, report.tokensBefore);
    assert.deepEqual(msgs, before);
  });

  test('clearAtLeast equal to the gain: the results are cleared', () => {
    const probe = loadFixture('coding-session.anthropic');
    const r = microCompact(probe);
    const msgs = loadFixture('coding-session.anthropic');
    const report = microCompact(msgs, { clearAtLeast: r.tokensBefore - r.tokensAfter });
    assert.equal(report.cleared, 8);
    assert.deepEqual(msgs, probe);
  });

  test('trigger at the estimate: nothing changes (at or below does nothing)', () => {
    const msgs = loadFixture('coding-session.openai');
    const before = structuredClone(msgs);
    const total = estimateTokens(msgs);
    const report = microCompact(msgs, { trigger: total });
    assert.equal(report.cleared, 0);
    assert.equal(report.tokensBefore, total);
    assert.deepEqual(msgs, before);
  });

  test('trigger above the estimate: nothing changes', () => {
    const msgs = loadFixture('coding-session.openai');
    const before = structuredClone(msgs);
    assert.equal(microCompact(msgs, { trigger: 1_000_000 }).cleared, 0);
    assert.deepEqual(msgs, before);
  });

  test('trigger one below the estimate: the results are cleared', () => {
    const msgs = loadFixture('coding-session.openai');
    assert.equal(microCompact(msgs, { trigger: estimateTokens(msgs) - 1 }).cleared, 8);
  });

  test('trigger 0 means always', () => {
    assert.equal(microCompact(loadFixture('coding-session.openai'), { trigger: 0 }).cleared, 8);
  });
});

test.describe('the report', () => {
  for (const name of fixtureNames()) {
    test(`${name}: tokensBefore is the estimate before and tokensAfter the estimate after`, () => {
      const msgs = loadFixture(name);
      const before = estimateTokens(msgs);
      const report = microCompact(msgs, { keepRecent: 1 });
      assert.equal(report.tokensBefore, before);
      assert.equal(report.tokensAfter, estimateTokens(msgs));
    });
  }

  for (const name of fixtureNames()) {
    test(`${name}: micro-compaction keeps the provider rules (validate finds nothing new)`, () => {
      const msgs = loadFixture(name);
      const before = validate(msgs).problems;
      microCompact(msgs, { keepRecent: 0 });
      assert.deepEqual(validate(msgs).problems, before);
    });
  }

  test('the report has the documented fields as numbers', () => {
    const report = microCompact(loadFixture('coding-session.anthropic'));
    for (const k of ['cleared', 'charsCleared', 'tokensBefore', 'tokensAfter']) assert.equal(typeof report[k], 'number', k);
    assert.ok(report.tokensAfter < report.tokensBefore);
  });

  test('a conversation without tool results: cleared 0, tokens unchanged', () => {
    const msgs = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }];
    const report = microCompact(msgs);
    assert.equal(report.cleared, 0);
    assert.equal(report.tokensBefore, 10); // 4 + 0.5 + 4 + 1.25 = 9.75
    assert.equal(report.tokensAfter, 10);
  });

  test('an empty list: cleared 0', () => {
    assert.equal(microCompact([]).cleared, 0);
  });
});

test.describe('parallel tool calls', () => {
  test('Anthropic: one user message with three results is one turn (keepRecent 3 clears only the first turn)', () => {
    const msgs = loadFixture('parallel-read.anthropic');
    const before = structuredClone(msgs);
    const report = microCompact(msgs);
    assert.equal(report.cleared, 1);
    assert.equal(msgs[2].content[0].content, marker('bash', codePoints(before[2].content[0].content)));
    assert.deepEqual(msgs[4], before[4]);
  });

  test('Anthropic: keepRecent 2 clears all three parallel results together', () => {
    const msgs = loadFixture('parallel-read.anthropic');
    const before = structuredClone(msgs);
    assert.equal(microCompact(msgs, { keepRecent: 2 }).cleared, 4);
    msgs[4].content.forEach((b, p) => assert.equal(b.content, marker('read_file', codePoints(before[4].content[p].content))));
    assert.deepEqual(msgs.slice(5), before.slice(5));
  });

  test('OpenAI: three consecutive tool messages are one turn (keepRecent 3 clears only the first turn)', () => {
    const msgs = loadFixture('parallel-read.openai');
    const before = structuredClone(msgs);
    assert.equal(microCompact(msgs).cleared, 1);
    assert.equal(msgs[2].content, marker('bash', codePoints(before[2].content)));
    assert.deepEqual(msgs.slice(3), before.slice(3));
  });

  test('OpenAI: keepRecent 2 clears the three parallel tool messages together', () => {
    const msgs = loadFixture('parallel-read.openai');
    const before = structuredClone(msgs);
    assert.equal(microCompact(msgs, { keepRecent: 2 }).cleared, 4);
    for (const i of [4, 5, 6]) assert.equal(msgs[i].content, marker('read_file', codePoints(before[i].content)));
    assert.deepEqual(msgs.slice(7), before.slice(7));
  });

  test('Anthropic and OpenAI parallel sessions give the same transcript after compaction', () => {
    for (const keepRecent of [0, 1, 2, 3]) {
      const a = loadFixture('parallel-read.anthropic');
      const o = loadFixture('parallel-read.openai');
      microCompact(a, { keepRecent });
      microCompact(o, { keepRecent });
      assert.equal(serialize(o), serialize(a), `keepRecent ${keepRecent}`);
    }
  });

  test('mid tool loop: the last user message\'s results are the most recent turn and stay whole', () => {
    const msgs = loadFixture('mid-tool-loop.anthropic');
    const before = structuredClone(msgs);
    const report = microCompact(msgs, { keepRecent: 1 });
    assert.equal(report.cleared, 1);
    assert.equal(msgs[2].content[0].content, marker('grep', codePoints(before[2].content[0].content)));
    assert.deepEqual(msgs[4], before[4]);
  });
});

test.describe('names, errors and odd results', () => {
  test('a result whose call is missing gets the tool name "unknown"', () => {
    const msgs = loadFixture('missing-call.anthropic');
    const before = structuredClone(msgs);
    assert.equal(microCompact(msgs, { keepRecent: 1 }).cleared, 1);
    assert.equal(msgs[0].content[0].content, marker('unknown', codePoints(before[0].content[0].content)));
    assert.deepEqual(msgs[0].content[1], before[0].content[1], 'the user text next to it is untouched');
  });

  test('an OpenAI tool message answering no call gets "unknown"', () => {
    const msgs = [{ role: 'tool', tool_call_id: 'call_lost', content: 'z'.repeat(100) }, ...openaiRound('c2', 'bash', {}, 'k'.repeat(100))];
    microCompact(msgs, { keepRecent: 1 });
    assert.equal(msgs[0].content, '[truncated: unknown result, 100 chars]');
  });

  test('Anthropic error result: content becomes the marker, is_error stays true', () => {
    const msgs = loadFixture('error-result.anthropic');
    const text = msgs[2].content[0].content;
    microCompact(msgs, { keepRecent: 1 });
    assert.deepEqual(msgs[2].content[0], { type: 'tool_result', tool_use_id: 'toolu_err_1', is_error: true, content: marker('read_file', codePoints(text)) });
  });

  test('AI SDK error output becomes {type: "error-text", value: marker}', () => {
    const msgs = loadFixture('error-result.ai-sdk');
    const text = msgs[2].content[0].output.value;
    microCompact(msgs, { keepRecent: 1 });
    assert.deepEqual(msgs[2].content[0].output, { type: 'error-text', value: marker('read_file', codePoints(text)) });
  });

  test('AI SDK json output becomes a text output holding the marker', () => {
    const msgs = [
      ...aisdkRound('c1', 'http_get', { url: 'https://api.example.com/items' }, { items: Array.from({ length: 40 }, (_, i) => ({ id: i + 1, name: `item number ${i + 1}`, tags: ['alpha', 'beta'] })), next: null, total: 40 }, 'json'),
      ...aisdkRound('c2', 'bash', {}, 'v'.repeat(100)),
    ];
    microCompact(msgs, { keepRecent: 1 });
    assert.equal(msgs[1].content[0].output.type, 'text');
    assert.match(msgs[1].content[0].output.value, /^\[truncated: http_get result, \d+ chars\]$/);
  });

  test('AI SDK v4 result field is replaced by the marker string', () => {
    const msgs = [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'search', args: { q: 'midfold' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'search', result: 'r'.repeat(150) }] },
      ...aisdkRound('c2', 'bash', {}, 'v'.repeat(100)),
    ];
    microCompact(msgs, { keepRecent: 1 });
    assert.equal(msgs[1].content[0].result, '[truncated: search result, 150 chars]');
  });

  test('a result shorter than its marker is left as it is (clearing it would free nothing)', () => {
    const msgs = [...anthropicRound('t1', 'bash', { command: 'true' }, 'ok'), ...anthropicRound('t2', 'bash', { command: 'pwd' }, '/home/dev/project')];
    const before = structuredClone(msgs);
    assert.equal(microCompact(msgs, { keepRecent: 0 }).cleared, 0);
    assert.deepEqual(msgs, before);
  });

  test('a non-ASCII tool name is kept in the marker', () => {
    const msgs = [...anthropicRound('t1', '读取文件', { path: 'a' }, '内容'.repeat(40)), ...anthropicRound('t2', 'bash', {}, 'q'.repeat(60))];
    microCompact(msgs, { keepRecent: 1 });
    assert.equal(msgs[1].content[0].content, '[truncated: 读取文件 result, 80 chars]');
  });
});

test.describe('read-only input', () => {
  const deepFreeze = (v) => { if (v && typeof v === 'object') { Object.values(v).forEach(deepFreeze); Object.freeze(v); } return v; };

  test('frozen messages: MidfoldError "read-only-input" and nothing changed', () => {
    const msgs = deepFreeze(loadFixture('coding-session.anthropic'));
    const before = structuredClone(msgs);
    assert.throws(() => microCompact(msgs), (e) => e instanceof MidfoldError && e.code === 'read-only-input');
    assert.deepEqual(msgs, before);
  });

  test('one frozen result among many: the error comes before any edit, so nothing changes', () => {
    const msgs = loadFixture('coding-session.anthropic');
    Object.freeze(msgs[12].content[0]); // the last result that would be cleared
    const before = structuredClone(msgs);
    assert.throws(() => microCompact(msgs), { code: 'read-only-input' });
    assert.deepEqual(msgs, before);
  });

  test('a frozen OpenAI tool message: read-only-input with its index as position', () => {
    const msgs = loadFixture('coding-session.openai');
    Object.freeze(msgs[4]);
    const before = structuredClone(msgs);
    assert.throws(() => microCompact(msgs), (e) => e.code === 'read-only-input' && e.position === 4);
    assert.deepEqual(msgs, before);
  });

  test('frozen messages that need no edit are fine', () => {
    const msgs = loadFixture('coding-session.anthropic');
    for (const i of [14, 16, 20, 21]) deepFreeze(msgs[i]);
    assert.equal(microCompact(msgs).cleared, 8);
  });

  test('after a read-only error the same call on a writable copy works', () => {
    const frozen = deepFreeze(loadFixture('coding-session.ai-sdk'));
    assert.throws(() => microCompact(frozen), { code: 'read-only-input' });
    assert.equal(microCompact(loadFixture('coding-session.ai-sdk')).cleared, 8);
  });
});

test('an AI SDK loop whose OpenAI encrypted reasoning is in flight: the clearing waits for the turn to end, and the reasoning is never removed', () => {
  // @ai-sdk/openai with store: false keeps each reasoning item as a part with reasoningEncryptedContent; OpenAI drops
  // reasoning whose history changed (docs/provider-rules.md), so the loop's own reasoning must not follow an edit.
  const log = Array.from({ length: 120 }, (_, i) => `PASS src/ledger.test.js > rounds row ${i} (${i % 7} ms)`).join('\n');
  const reasoning = (n, text) => ({ type: 'reasoning', text, providerOptions: { openai: { itemId: `rs_${n}`, reasoningEncryptedContent: `gAAAAB${n}qJ8x` } } });
  const step = (n) => [
    { role: 'assistant', content: [reasoning(n, `第 ${n} 步：先跑测试。`), { type: 'tool-call', toolCallId: `call_${n}`, toolName: 'bash', input: { command: 'npm test' } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: `call_${n}`, toolName: 'bash', output: { type: 'text', value: log } }] },
  ];
  const messages = [{ role: 'user', content: 'Fix the rounding in the ledger and run the tests.' }, ...step(1), ...step(2), ...step(3)];
  const inFlight = microCompact(structuredClone(messages), { keepRecent: 1 });
  assert.equal(inFlight.deferred, 'in-flight-thinking');
  assert.equal(inFlight.cleared, 0);
  assert.equal(microCompact(structuredClone(messages), { keepRecent: 1, thinking: 'unbound' }).cleared, 2, "'unbound' clears inside the loop");

  messages.push({ role: 'assistant', content: [reasoning(4, 'Done.'), { type: 'text', text: 'Fixed: integer cents, 120 passed.' }] }, { role: 'user', content: 'Thanks. Now the report.' });
  const boundary = microCompact(messages, { keepRecent: 1 });
  assert.equal(boundary.cleared, 2);
  assert.equal(boundary.thinkingRemoved, undefined);
  assert.equal(messages.filter((m) => m.role === 'assistant' && m.content.some((p) => p.type === 'reasoning')).length, 4, 'every reasoning part stays');
});

test.describe('a loop whose last calls still wait for their results is in flight (its thinking is checked in the next request)', () => {
  const log = Array.from({ length: 80 }, (_, i) => `PASS src/ledger.test.js > rounds row ${i} (${i % 7} ms)`).join('\n');
  const sig = 'EqQBCkgIARABGAIiQL2vX3c9';
  /** A finished Anthropic turn with a long result, the next request, then `last` (the message the list ends with). */
  const anthropic = (last) => [
    { role: 'user', content: 'Run the ledger tests.' },
    { role: 'assistant', content: [{ type: 'thinking', thinking: 'Run the suite first.', signature: sig }, { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'npm test' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: log }] },
    { role: 'assistant', content: [{ type: 'text', text: 'All 80 pass.' }] },
    { role: 'user', content: 'Now look up the half-even rule and apply it.' },
    last,
  ];
  const cases = [
    ['Anthropic: [thinking, tool_use]', anthropic({ role: 'assistant', content: [{ type: 'thinking', thinking: 'Read the helper.', signature: sig }, { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'src/round.ts' } }] }), true],
    ['Anthropic, a turn paused with pause_turn: [thinking, server_tool_use]', anthropic({ role: 'assistant', content: [{ type: 'thinking', thinking: 'Search the rule.', signature: sig }, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'banker rounding half even' } }] }), true],
    ['Anthropic, a finished server-tool turn: [thinking, server_tool_use, web_search_tool_result, text]', anthropic({ role: 'assistant', content: [
      { type: 'thinking', thinking: 'Search the rule.', signature: sig },
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'banker rounding half even' } },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', title: 'Rounding half to even', url: 'https://en.wikipedia.org/wiki/Rounding', encrypted_content: 'EqgfCioIARgBIiQ3' }] },
      { type: 'text', text: 'Half-even rounds 0.5 to the nearest even digit.' }] }), false],
  ];
  const aisdk = (last) => [
    { role: 'user', content: 'Run the ledger tests.' },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'bash', input: { command: 'npm test' } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'bash', output: { type: 'text', value: log } }] },
    { role: 'assistant', content: [{ type: 'text', text: 'All 80 pass.' }] },
    { role: 'user', content: 'Now look up the half-even rule and apply it.' },
    last,
  ];
  const reasoning = { type: 'reasoning', text: 'Search first.', providerOptions: { anthropic: { signature: sig } } };
  cases.push(
    ['AI SDK: [signed reasoning, tool-call]', aisdk({ role: 'assistant', content: [reasoning, { type: 'tool-call', toolCallId: 'c2', toolName: 'read_file', input: { path: 'src/round.ts' } }] }), true],
    ['AI SDK, a provider-executed tool answered in the message: finished', aisdk({ role: 'assistant', content: [reasoning,
      { type: 'tool-call', toolCallId: 'ws1', toolName: 'web_search', input: { query: 'half even' }, providerExecuted: true },
      { type: 'tool-result', toolCallId: 'ws1', toolName: 'web_search', output: { type: 'json', value: [{ title: 'Rounding', url: 'https://en.wikipedia.org/wiki/Rounding' }] } },
      { type: 'text', text: 'Half-even rounds 0.5 to even.' }] }), false],
    ['Claude behind OpenRouter (Chat Completions): tool_calls with signed reasoning_details', [
      { role: 'user', content: 'Run the ledger tests.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"npm test"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: log },
      { role: 'assistant', content: 'All 80 pass.' },
      { role: 'user', content: 'Now apply half-even rounding.' },
      { role: 'assistant', content: null, reasoning: 'Read the helper.', reasoning_details: [{ type: 'reasoning.text', text: 'Read the helper.', signature: sig, format: 'anthropic-claude-v1', index: 0 }],
        tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/round.ts"}' } }] },
    ], true],
    ['OpenAI Responses: encrypted reasoning, then a function_call', [
      { type: 'message', role: 'user', content: 'Run the ledger tests.' },
      { type: 'function_call', call_id: 'fc_1', name: 'bash', arguments: '{"command":"npm test"}' },
      { type: 'function_call_output', call_id: 'fc_1', output: log },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'All 80 pass.' }] },
      { type: 'message', role: 'user', content: 'Now apply half-even rounding.' },
      { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'gAAAAABpQ7x' },
      { type: 'function_call', call_id: 'fc_2', name: 'read_file', arguments: '{"path":"src/round.ts"}' },
    ], true],
  );
  for (const [name, messages, inFlight] of cases) {
    test(`${name}: ${inFlight ? 'the clearing waits' : 'finished, the clearing runs'}`, () => {
      const copy = structuredClone(messages);
      const report = microCompact(messages, { keepRecent: 0 });
      if (inFlight) {
        assert.equal(report.deferred, 'in-flight-thinking');
        assert.equal(report.cleared, 0);
        assert.deepStrictEqual(messages, copy);
      } else {
        assert.equal(report.deferred, undefined);
        assert.equal(report.cleared, 1);
      }
    });
  }
});
