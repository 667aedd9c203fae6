// serialize: the transcript a summarizer reads, the same for all three formats.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init, serialize } from '../../js/hosts/node.js';
import { loadFixture, pyJson } from '../helpers/fixtures.mjs';

await init();

const SEED_TRANSCRIPT = `[user]
Please read the config file

[assistant]
[tool_use:read_file] {"file_path": "config.toml"}

[user]
[tool_result:read_file] 1: [provider]
2: name = "anthropic"`;

test('the seed example gives exactly the DESIGN.md transcript', () => {
  assert.equal(serialize(loadFixture('seed-example.anthropic')), SEED_TRANSCRIPT);
});

test('the seed example written in OpenAI shape gives the same transcript', () => {
  const msgs = [
    { role: 'user', content: 'Please read the config file' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"file_path":"config.toml"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: '1: [provider]\n2: name = "anthropic"' },
  ];
  assert.equal(serialize(msgs), SEED_TRANSCRIPT);
});

test('the seed example written in AI SDK shape gives the same transcript', () => {
  const msgs = [
    { role: 'user', content: 'Please read the config file' },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { file_path: 'config.toml' } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: { type: 'text', value: '1: [provider]\n2: name = "anthropic"' } }] },
  ];
  assert.equal(serialize(msgs), SEED_TRANSCRIPT);
});

test('the coding session gives the same transcript in Anthropic, OpenAI and AI SDK format', () => {
  const a = serialize(loadFixture('coding-session.anthropic'));
  assert.equal(serialize(loadFixture('coding-session.openai')), a);
  assert.equal(serialize(loadFixture('coding-session.ai-sdk')), a);
});

test('the coding session transcript holds every tool result text verbatim', () => {
  const msgs = loadFixture('coding-session.anthropic');
  const t = serialize(msgs);
  for (const m of msgs) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) if (b.type === 'tool_result') assert.ok(t.includes(b.content), `missing result of ${b.tool_use_id}`);
  }
});

test('the error result gives the same transcript in Anthropic and AI SDK format', () => {
  assert.equal(serialize(loadFixture('error-result.ai-sdk')), serialize(loadFixture('error-result.anthropic')));
});

test('parallel results in one user message and in consecutive OpenAI tool messages serialize alike', () => {
  assert.equal(serialize(loadFixture('parallel-read.openai')), serialize(loadFixture('parallel-read.anthropic')));
});

test('consecutive OpenAI tool messages are one [user] section, one result per line', () => {
  const t = serialize(loadFixture('parallel-read.openai'));
  assert.ok(t.includes('\n\n[user]\n[tool_result:read_file] ' + '     1\t{\n'));
  assert.equal(t.split('[user]').length - 1, 5); // the question + 4 tool-result turns
  assert.ok(t.includes('    13\t}\n[tool_result:read_file] ' + '     1\texport class Queue {'));
});

test.describe('tool_use arguments are JSON with ": " and ", " separators', () => {
  const call = (input) => serialize([{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input }] }]);
  test('keys, strings, numbers, booleans, null, arrays and nested objects', () => {
    assert.equal(call({ path: 'a.txt', lines: [1, 2, 3], opts: { recursive: true, depth: null, ratio: 0.5 } }),
      '[assistant]\n[tool_use:f] {"path": "a.txt", "lines": [1, 2, 3], "opts": {"recursive": true, "depth": null, "ratio": 0.5}}');
  });
  test('non-ASCII is left unescaped (Chinese, accents, emoji)', () => {
    assert.equal(call({ path: '报告/总结.md', who: 'Zoë', mood: '🚀' }),
      '[assistant]\n[tool_use:f] {"path": "报告/总结.md", "who": "Zoë", "mood": "🚀"}');
  });
  test('quotes, backslashes and control characters are escaped as in JSON', () => {
    assert.equal(call({ s: 'a"b\\c\nd\te\u0001' }), '[assistant]\n[tool_use:f] {"s": "a\\"b\\\\c\\nd\\te\\u0001"}');
  });
  test('empty object and empty array', () => {
    assert.equal(call({ a: {}, b: [] }), '[assistant]\n[tool_use:f] {"a": {}, "b": []}');
  });
  test('the mixed Chinese-and-code edit in the Chinese fixture is written like Python json.dumps', () => {
    const msgs = loadFixture('chinese-coding.anthropic');
    const input = msgs[5].content[1].input;
    assert.ok(serialize(msgs).includes(`[tool_use:edit_file] ${pyJson(input)}`));
    assert.ok(serialize(msgs).includes('# 没有订单的大区客单价记为 0，避免除以零\\n'));
  });
  test('an OpenAI arguments string is re-printed with the same separators', () => {
    const t = serialize([{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'get_weather', arguments: '{"city":"杭州","days":[1,2]}' } }] }]);
    assert.equal(t, '[assistant]\n[tool_use:get_weather] {"city": "杭州", "days": [1, 2]}');
  });
  test('an OpenAI arguments string that is not JSON is written as it is', () => {
    const t = serialize([{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"unterminated' } }] }]);
    assert.equal(t, '[assistant]\n[tool_use:f] {"unterminated');
  });
  test('empty OpenAI arguments are written as {}', () => {
    const t = serialize([{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '' } }] }]);
    assert.equal(t, '[assistant]\n[tool_use:f] {}');
  });
  test('a Date in the arguments is written by its toJSON()', () => {
    assert.equal(call({ when: new Date(0) }), '[assistant]\n[tool_use:f] {"when": "1970-01-01T00:00:00.000Z"}');
  });
  test('undefined and function members are skipped like JSON.stringify does', () => {
    assert.equal(call({ a: 1, b: undefined, c() {}, d: [undefined] }), '[assistant]\n[tool_use:f] {"a": 1, "d": [null]}');
  });
  test('every tool call of the coding session appears as pyJson(input)', () => {
    const msgs = loadFixture('coding-session.anthropic');
    const t = serialize(msgs);
    for (const m of msgs) {
      if (!Array.isArray(m.content)) continue;
      for (const b of m.content) if (b.type === 'tool_use') assert.ok(t.includes(`[tool_use:${b.name}] ${pyJson(b.input)}`));
    }
  });
});

test.describe('roles, thinking, errors, media', () => {
  test('a system message in an Anthropic list is written as [system]', () => {
    assert.ok(serialize(loadFixture('thinking-system.anthropic')).startsWith(
      '[system]\nYou are a careful SRE assistant. Prefer read-only commands.\n\n[user]\nIs the disk on db-2 filling up?\n\n'));
  });
  test('an OpenAI system and a developer message are both [system]', () => {
    assert.equal(serialize([{ role: 'system', content: 'A' }, { role: 'developer', content: 'B' }, { role: 'user', content: 'C' }]),
      '[system]\nA\n\n[system]\nB\n\n[user]\nC');
  });
  test('thinking is written as "[thinking] text", its signature left out', () => {
    const t = serialize(loadFixture('thinking-system.anthropic'));
    assert.ok(t.includes('[assistant]\n[thinking] The user asks about disk usage on db-2. df -h on the data volume answers it without changing anything.\n[tool_use:bash]'));
    assert.ok(!t.includes('EqQBCkgIARABGAIiQL2m'));
  });
  test('redacted thinking is the bare marker "[redacted_thinking]"', () => {
    const t = serialize(loadFixture('thinking-system.anthropic'));
    assert.ok(t.endsWith('[assistant]\n[redacted_thinking]\nYes: the PostgreSQL volume on db-2 is 93% full (37 GB left of 500 GB).'));
  });
  test('an AI SDK reasoning part is written as [thinking]', () => {
    assert.equal(serialize([{ role: 'assistant', content: [{ type: 'reasoning', text: 'check the disk first' }, { type: 'text', text: 'On it.' }] }]),
      '[assistant]\n[thinking] check the disk first\nOn it.');
  });
  test('an error result is "[tool_error:NAME] text"', () => {
    const t = serialize(loadFixture('error-result.anthropic'));
    assert.ok(t.includes("[user]\n[tool_error:read_file] Error: ENOENT: no such file or directory, open '/srv/app/config/secrets.local.yaml'\n    at Object.openSync"));
    assert.ok(t.includes('[user]\n[tool_result:bash] total 24\n'));
  });
  test('an AI SDK error-text output is "[tool_error:NAME] text"', () => {
    assert.ok(serialize(loadFixture('error-result.ai-sdk')).includes('[tool_error:read_file] Error: ENOENT'));
  });
  test('a result whose call is missing is "[tool_result:unknown] text"', () => {
    const t = serialize(loadFixture('missing-call.anthropic'));
    assert.ok(t.startsWith('[user]\n[tool_result:unknown] PID   USER     %CPU %MEM    RSS COMMAND\n'));
    assert.ok(t.includes('[tool_result:bash] strace: Process 4121 attached'));
  });
  test('an image block is "[image]" (escaped on a line of its own inside a result); a tool result given as blocks joins them with newlines', () => {
    const t = serialize(loadFixture('tool-result-blocks.anthropic'));
    assert.ok(t.includes('(disabled: "Enter a phone number for express delivery")\n\\[image]\n\n[assistant]'));
    assert.ok(t.includes('[tool_result:browser_get_html] <form id="shipping" method="post" action="/checkout/shipping">\n  <input name="phone"'));
    assert.ok(!t.includes('iVBORw0KGgo'));
  });
  test('a user image (Anthropic, OpenAI, AI SDK) is "[image]"', () => {
    const expected = '[user]\nWhat is this?\n[image]';
    assert.equal(serialize([{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } }] }]), expected);
    assert.equal(serialize([{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } }] }]), expected);
    assert.equal(serialize([{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', image: 'https://example.com/cat.jpg', mediaType: 'image/jpeg' }] }]), expected);
  });
  test('a document is "[document: TITLE]" with a title, "[document]" without', () => {
    assert.equal(serialize([{ role: 'user', content: [
      { type: 'document', title: 'Q3 report', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' } },
    ] }]), '[user]\n[document: Q3 report]\n[document]');
  });
  test('Chinese text is written as it is', () => {
    const t = serialize(loadFixture('chinese-travel.openai'));
    assert.ok(t.startsWith('[system]\n你是一个旅行规划助手。回答使用简体中文，行程按天列出，并考虑天气。\n\n[user]\n我下周五到周日（4月12日–14日）想去杭州和苏州玩三天'));
    assert.ok(t.includes('[tool_use:get_weather] {"city": "杭州", "start_date": "2024-04-12", "end_date": "2024-04-14"}\n[tool_use:get_weather] {"city": "苏州"'));
    assert.ok(t.includes('[tool_result:get_weather] {\n  "city": "杭州",'));
    assert.ok(t.includes('[tool_result:search_route] {\n  "from": "杭州东站",'));
  });
  test('a Python traceback inside a Chinese conversation is kept line for line', () => {
    const t = serialize(loadFixture('chinese-coding.anthropic'));
    assert.ok(t.includes('[tool_result:bash] 共读取 1287 笔有效订单\nTraceback (most recent call last):\n  File "/home/lin/projects/sales-report/scripts/monthly_report.py", line 56, in <module>\n'));
    assert.ok(t.includes('\n          ~~~~~~^~~~~~~~~~~~~~\ndecimal.InvalidOperation'));
  });
  test('messages are separated by exactly one blank line and the transcript has no trailing newline', () => {
    const t = serialize([{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }]);
    assert.equal(t, '[user]\na\n\n[assistant]\nb\n\n[user]\nc');
  });
  test('an empty list is the empty transcript', () => assert.equal(serialize([]), ''));
  test('the last user message of a mid-loop conversation holds its tool results', () => {
    const t = serialize(loadFixture('mid-tool-loop.anthropic'));
    assert.ok(t.endsWith('[user]\n[tool_result:edit_file] Edited config/default.json (1 replacement).\n[tool_result:edit_file] Edited config/production.json (1 replacement).\n[tool_result:edit_file] Edited src/http/client.js (1 replacement).'));
  });
  test('an explicit format gives the same transcript as detection', () => {
    const msgs = loadFixture('coding-session.ai-sdk');
    assert.equal(serialize(msgs, { format: 'ai-sdk' }), serialize(msgs));
  });
  test('serializing never changes the input', () => {
    const msgs = loadFixture('tool-result-blocks.anthropic');
    const before = structuredClone(msgs);
    serialize(msgs);
    assert.deepEqual(msgs, before);
  });
});
