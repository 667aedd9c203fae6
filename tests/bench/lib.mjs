/**
 * lib.mjs — what bench.mjs and boundary.mjs share: realistic text and conversation
 * generators (seeded, so every run measures the same input), the plain-JS reference
 * estimator a user could write instead of midfold (same weights), and a timing harness
 * that interleaves implementations and reports medians.
 */
import fs from 'node:fs';
import os from 'node:os';
import { prng as rng } from '../helpers/prng.mjs';

// ---------------------------------------------------------------- seeded randomness

/** mulberry32 (tests/helpers/prng.mjs): seeded floats in [0, 1). */
export { rng };
export const pickFrom = (r, list) => list[Math.floor(r() * list.length)];
export const intIn = (r, lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
export const randStr = (r, alphabet, n) => { let s = ''; for (let i = 0; i < n; i++) s += alphabet[Math.floor(r() * alphabet.length)]; return s; };

/** A fresh, flat (sequential) copy of a string, as JSON.parse would give it. */
export const flat = (s) => JSON.parse(JSON.stringify(s));

// ---------------------------------------------------------------- content pools

const PROSE = [
  'The parser reads the input once and builds a tree of nodes that borrow their strings from the buffer.',
  'When the buffer is released before the document, every string in the tree points at freed memory.',
  'We keep the arena alive until the caller frees the document, which makes the lifetime rules simple.',
  'This change moves the estimator into a single pass over the text, so long tool outputs cost one scan.',
  'Most of the time goes into copying strings across the boundary, not into the estimate itself.',
  'If the request exceeds the context window, the oldest tool results are cleared first.',
  'Run the test suite again after the migration; two of the fixtures still use the old field names.',
  'The configuration file is read at startup, and environment variables override any value it sets.',
  'I looked at the failing test: it expects the error position to be the byte offset, not the character index.',
  'Let me check how the retry logic handles a timeout that arrives after the response has started streaming.',
  'The function returns early when the list is empty, which hides the bug for single-message conversations.',
  'Caching the per-message estimate is safe only while the message objects are not edited in place.',
  'Both callers pass the same options object, so a default set by one leaks into the other.',
  'According to the documentation, the limit applies to the sum of input and output tokens.',
  'The benchmark shows a linear cost in the number of messages, with a constant overhead per call.',
  'We should validate the input before touching it, so that an error leaves the caller\'s data unchanged.',
  'A frozen object cannot be edited, so the compactor reports it and changes nothing at all.',
  'The server sends the wrong MIME type for the module, which breaks streaming compilation in some browsers.',
  'After the refactor, the adapter for each format is about fifty lines and shares the helpers.',
  'Note that the old implementation counted field names like "type" and "id", which the model never sees.',
];
const WORDS = ('buffer parser token estimate message result request context window cache arena document node '
  + 'value string array object format adapter compactor summary transcript option error status callback handler '
  + 'module worker stream chunk offset length index limit budget profile weight class input output config').split(' ');
const IDENTS = ['msg', 'doc', 'buf', 'node', 'count', 'len', 'offset', 'result', 'options', 'ctx', 'item', 'parts',
  'text', 'profile', 'arena', 'items', 'value', 'status', 'err', 'out', 'milli', 'scratch', 'view', 'format'];
const CODE = [
  'static size_t ${a}_len(const mf_node *${b})',
  '{',
  '    if (!${b} || ${b}->kind != MF_STRING) return 0;',
  '    for (uint32_t i = 0; i < ${b}->count; i++) {',
  '        const mf_node *${a} = &${b}->items[i];',
  '        sum += mf_estimate_node(${a}, profile);',
  '    }',
  '    return ${a} ? ${a}->len : ${n};',
  '}',
  'export function ${a}(${b}, options = {}) {',
  '  const ${c} = options.${a} ?? ${n};',
  '  for (const ${c} of ${b}) total += ${c}.length;',
  '  if (typeof ${b} !== \'string\') throw new TypeError(`expected a string, got ${typeof ${b}}`);',
  '  return { ${a}, ${c}, total: ${n} };',
  '};',
  'def ${a}(${b}, ${c}=None):',
  '    """Return the ${a} of ${b}, or ${c} when it is missing."""',
  '    if ${b} is None:',
  '        return ${c}',
  '    return [x.${a} for x in ${b} if x.${c} > ${n}]',
  '#include <stdint.h>',
  '#define MAX_${A} ${n}',
  '    assert.equal(${a}(${b}), ${n});',
  '    mf_status st = mf_${a}(${b}, &${c}, err);',
  '    if (st != MF_OK) goto fail;',
  '    memcpy(${c}, ${b}->str, ${b}->len);',
  '  const ${a} = await fetch(url, { method: \'POST\', body: JSON.stringify(${b}) });',
];
const ZH = [
  '这个函数在列表为空时会提前返回，所以单条消息的对话里看不到这个问题。',
  '上下文窗口快满的时候，最早的工具输出会先被清除，只保留最近三轮的结果。',
  '请先运行测试，然后检查解析器在遇到嵌套数组时是否正确处理了深度限制。',
  '我们把估算器改成了对文本只扫描一遍，这样很长的工具输出也只需要线性时间。',
  '大部分时间花在跨越边界复制字符串上，而不是估算本身。',
  '配置文件在启动时读取，环境变量会覆盖其中的任何设置。',
  '如果请求超过了模型的上下文长度，服务端会直接返回错误，而不会自动截断。',
  '这里的缓存只有在消息对象不被原地修改时才是安全的，否则估算结果会过期。',
  '根据文档，这个限制针对的是输入和输出令牌的总和，而不仅仅是输入部分。',
  '重构之后，每种格式的适配器大约只有五十行代码，并且共用同一组辅助函数。',
  '冻结的对象无法修改，因此压缩器会报告错误并且不做任何改动。',
  '中文文本的令牌数通常比按字符估算的要少，常用汉字大约零点六到零点九个令牌。',
  '请把第二个测试用例改成使用新的字段名，旧的名字已经在上个版本中废弃了。',
  '服务器返回了错误的内容类型，导致部分浏览器无法进行流式编译。',
  '日志显示在第三次重试之后连接超时，但是响应其实已经开始传输了。',
  '我们需要在修改之前先验证输入，这样出错时调用者的数据保持不变。',
];
const FILES = ['src/estimate.c', 'src/view.c', 'src/micro.c', 'src/serialize.c', 'src/tree_decode.c', 'js/core.js',
  'js/encode.js', 'js/apply.js', 'tests/core.test.mjs', 'README.md', 'docs/设计说明.md', 'src/adapt_openai.c',
  'package.json', 'Makefile', 'scripts/build.sh', 'lib/retry.py', 'lib/config.py', 'web/src/App.tsx'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function codeLine(r) {
  const a = pickFrom(r, IDENTS), b = pickFrom(r, IDENTS), c = pickFrom(r, IDENTS), n = String(intIn(r, 0, 4096));
  return pickFrom(r, CODE).replace(/\$\{a\}/g, a).replace(/\$\{A\}/g, a.toUpperCase()).replace(/\$\{b\}/g, b)
    .replace(/\$\{c\}/g, c).replace(/\$\{n\}/g, n);
}
export function proseSentence(r) {
  if (r() < 0.7) return pickFrom(r, PROSE);
  const n = intIn(r, 6, 16), w = [];
  for (let i = 0; i < n; i++) w.push(pickFrom(r, WORDS));
  w[0] = w[0][0].toUpperCase() + w[0].slice(1);
  return `${w.join(' ')}${r() < 0.2 ? ` (${intIn(r, 1, 999)} ms)` : ''}.`;
}
export function zhSentence(r) {
  let s = pickFrom(r, ZH);
  if (r() < 0.15) s = s.replace('，', `（共 ${intIn(r, 2, 500)} 条）`);
  return s;
}

/** ASCII text: English prose paragraphs and code blocks, about half and half. */
export function asciiText(r, bytes) {
  const out = [];
  let n = 0;
  while (n < bytes) {
    let piece;
    if (r() < 0.5) {
      const k = intIn(r, 2, 6), s = [];
      for (let i = 0; i < k; i++) s.push(proseSentence(r));
      piece = s.join(' ') + '\n\n';
    } else {
      const k = intIn(r, 4, 14), s = ['```'];
      for (let i = 0; i < k; i++) s.push(codeLine(r));
      s.push('```', '', '');
      piece = s.join('\n');
    }
    out.push(piece);
    n += piece.length;
  }
  return flat(out.join('').slice(0, bytes));
}

/** Chinese text: Chinese prose paragraphs (full-width punctuation, a few digits). */
export function chineseText(r, bytes) {
  const out = [];
  let n = 0;
  while (n < bytes) {
    const k = intIn(r, 2, 6), s = [];
    for (let i = 0; i < k; i++) s.push(zhSentence(r));
    const piece = s.join('') + '\n\n';
    out.push(piece);
    n += Buffer.byteLength(piece);
  }
  let s = out.join('');
  // trim to about `bytes` UTF-8 bytes (3 bytes per CJK character)
  while (Buffer.byteLength(s) > bytes) s = s.slice(0, s.length - Math.max(1, Math.floor((Buffer.byteLength(s) - bytes) / 3)));
  return flat(s);
}

// ---------------------------------------------------------------- tool outputs

export function lsOutput(r, bytes) {
  const lines = [`total ${intIn(r, 40, 900)}`];
  let n = 0;
  while (n < bytes) {
    const dir = r() < 0.2;
    const name = dir ? pickFrom(r, ['src', 'js', 'tests', 'wasm', 'docs', 'scripts', 'build', 'node_modules'])
      : `${pickFrom(r, IDENTS)}${pickFrom(r, ['', '_', '-'])}${pickFrom(r, WORDS)}${pickFrom(r, ['.c', '.h', '.js', '.mjs', '.md', '.json', '.py', '.ts'])}`;
    const line = `${dir ? 'drwxr-xr-x' : '-rw-r--r--'} ${intIn(r, 1, 12)} dev dev ${String(intIn(r, 96, 99999)).padStart(6)} ${pickFrom(r, MONTHS)} ${String(intIn(r, 1, 28)).padStart(2)} ${String(intIn(r, 0, 23)).padStart(2, '0')}:${String(intIn(r, 0, 59)).padStart(2, '0')} ${name}`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join('\n');
}
export function grepOutput(r, bytes) {
  const lines = [];
  let n = 0;
  while (n < bytes) {
    const line = `${pickFrom(r, FILES)}:${intIn(r, 1, 1400)}:${codeLine(r)}`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join('\n');
}
export function catOutput(r, bytes, zh) {
  const lines = [];
  let n = 0, ln = intIn(r, 1, 300);
  while (n < bytes) {
    const body = zh && r() < 0.3 ? `    // ${zhSentence(r)}` : r() < 0.1 ? '' : codeLine(r);
    const line = `${String(ln++).padStart(6)}\t${body}`;
    lines.push(line);
    n += Buffer.byteLength(line) + 1;
  }
  return lines.join('\n');
}
export function testOutput(r, bytes) {
  const lines = [];
  let n = 0, i = 1;
  while (n < bytes) {
    const ok = r() < 0.93;
    const line = r() < 0.85
      ? `${ok ? 'ok' : 'not ok'} ${i++} - ${pickFrom(r, WORDS)} ${pickFrom(r, WORDS)} ${pickFrom(r, ['keeps identity', 'is idempotent', 'handles Chinese text', 'rejects cycles', 'counts parallel calls'])} (${(r() * 40).toFixed(3)}ms)`
      : `  ---\n  duration_ms: ${(r() * 900).toFixed(6)}\n  error: 'Expected values to be strictly equal: ${intIn(r, 0, 9999)} !== ${intIn(r, 0, 9999)}'\n  ...`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join('\n');
}
export function gitLogOutput(r, bytes) {
  const lines = [];
  let n = 0;
  while (n < bytes) {
    const line = `commit ${randStr(r, HEX, 40)}\nAuthor: Dev ${pickFrom(r, ['Li', 'Wang', 'Smith', 'Garcia'])} <dev@example.com>\nDate:   ${pickFrom(r, ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])} ${pickFrom(r, MONTHS)} ${intIn(r, 1, 28)} ${String(intIn(r, 0, 23)).padStart(2, '0')}:${String(intIn(r, 0, 59)).padStart(2, '0')}:${String(intIn(r, 0, 59)).padStart(2, '0')} 2026 +0800\n\n    ${r() < 0.25 ? zhSentence(r) : proseSentence(r)}\n`;
    lines.push(line);
    n += Buffer.byteLength(line) + 1;
  }
  return lines.join('\n');
}

const TOOLS = ['bash', 'read_file', 'grep', 'edit_file', 'list_dir'];
const toolId = (r) => `toolu_01${randStr(r, B62, 22)}`;

function toolCall(r) {
  const tool = pickFrom(r, TOOLS);
  const file = pickFrom(r, FILES);
  let input, output;
  const size = intIn(r, 1024, 8192);
  const zh = r() < 0.2;
  switch (tool) {
    case 'bash':
      if (r() < 0.5) { input = { command: `npm test -- --grep "${pickFrom(r, WORDS)}"`, timeout: 120000 }; output = testOutput(r, size); }
      else { input = { command: `git log -n ${intIn(r, 5, 30)} -- ${file}` }; output = gitLogOutput(r, size); }
      break;
    case 'read_file': input = { path: file, view_range: [1, intIn(r, 40, 400)] }; output = catOutput(r, size, zh); break;
    case 'grep': input = { pattern: `${pickFrom(r, IDENTS)}_${pickFrom(r, WORDS)}`, path: 'src', '-n': true, glob: '*.{c,h,js}' }; output = grepOutput(r, size); break;
    case 'edit_file':
      input = { path: file, old_str: [codeLine(r), codeLine(r), codeLine(r)].join('\n'), new_str: [codeLine(r), codeLine(r), codeLine(r), codeLine(r)].join('\n') };
      output = `The file ${file} has been edited. Here's the result of running \`cat -n\` on a snippet:\n${catOutput(r, size, zh)}`;
      break;
    default: input = { path: pickFrom(r, ['.', 'src', 'js', 'tests']), all: r() < 0.5 }; output = lsOutput(r, size);
  }
  return { tool, input, output };
}

/**
 * An Anthropic-format coding-agent conversation of exactly `count` messages: a task,
 * then assistant turns with (sometimes parallel) tool_use blocks answered by user turns
 * with tool_result blocks (1–8 KB outputs: ls, grep -n, cat -n, test runs, git log;
 * some with Chinese), now and then thinking, a text reply and a follow-up (some in
 * Chinese). Returned through JSON, so strings are flat as they are after JSON.parse.
 */
export function conversation(count, seed = 1) {
  const r = rng(seed);
  const msgs = [{ role: 'user', content: r() < 0.5 ? `Please fix the failing tests in ${pickFrom(r, FILES)}. ${proseSentence(r)}` : `请修复 ${pickFrom(r, FILES)} 里失败的测试。${zhSentence(r)}` }];
  while (msgs.length < count) {
    if (r() < 0.12) {
      msgs.push({ role: 'assistant', content: [{ type: 'text', text: [proseSentence(r), proseSentence(r), proseSentence(r)].join(' ') }] });
      msgs.push({ role: 'user', content: r() < 0.3 ? `${zhSentence(r)}${zhSentence(r)}` : proseSentence(r) });
      continue;
    }
    const calls = [];
    const k = r() < 0.2 ? 2 : 1;
    for (let i = 0; i < k; i++) calls.push({ id: toolId(r), ...toolCall(r) });
    const a = [];
    if (r() < 0.2) a.push({ type: 'thinking', thinking: [proseSentence(r), proseSentence(r)].join(' '), signature: randStr(r, B62, 344) });
    if (r() < 0.6) a.push({ type: 'text', text: proseSentence(r) });
    for (const c of calls) a.push({ type: 'tool_use', id: c.id, name: c.tool, input: c.input });
    msgs.push({ role: 'assistant', content: a });
    msgs.push({
      role: 'user',
      content: calls.map((c) => r() < 0.15
        ? { type: 'tool_result', tool_use_id: c.id, content: [{ type: 'text', text: c.output }] }
        : { type: 'tool_result', tool_use_id: c.id, content: c.output, ...(r() < 0.05 ? { is_error: true } : {}) }),
    });
  }
  msgs.length = count;
  return JSON.parse(JSON.stringify(msgs));
}

/** A conversation whose JSON is about `bytes` long (whole messages; ends after a result). */
export function conversationOfSize(bytes, seed = 7) {
  let n = 200, msgs = conversation(n, seed);
  const per = JSON.stringify(msgs).length / n;
  n = Math.round(bytes / per / 2) * 2;
  for (;;) {
    msgs = conversation(n, seed);
    const len = JSON.stringify(msgs).length;
    if (Math.abs(len - bytes) / bytes < 0.02) return msgs;
    n = Math.max(2, Math.round((n * bytes) / len / 2) * 2);
  }
}

/** A coding-agent conversation whose tool outputs and texts are Chinese (same shape). */
export function chineseConversation(n, seed) {
  const r = rng(seed);
  const msgs = conversation(n, seed);
  const zh = (s) => chineseText(r, Math.max(30, Buffer.byteLength(s)));
  for (const m of msgs) {
    if (typeof m.content === 'string') { m.content = zh(m.content); continue; }
    for (const b of m.content) {
      if (b.type === 'text') b.text = zh(b.text);
      if (b.type === 'tool_result') {
        if (typeof b.content === 'string') b.content = zh(b.content);
        else for (const t of b.content) t.text = zh(t.text);
      }
    }
  }
  return JSON.parse(JSON.stringify(msgs));
}

// ---------------------------------------------------------------- reference JS estimator

/**
 * Milli-tokens per UTF-16 unit: CJK 1500, ASCII letter/digit 250, whitespace 250 (Python's
 * `\s`), other 500; 0 marks a surrogate, handled by code point in the loop.
 */
export const WEIGHTS = (() => {
  const w = new Uint16Array(65536).fill(500);
  const set = (lo, hi, v) => { for (let c = lo; c <= hi; c++) w[c] = v; };
  for (const [lo, hi] of [[0x2e80, 0x2fdf], [0x3001, 0x303f], [0x3040, 0x30ff], [0x3100, 0x31ff], [0x3400, 0x4dbf],
    [0x4e00, 0x9fff], [0xac00, 0xd7af], [0xf900, 0xfaff], [0xff00, 0xffef]]) set(lo, hi, 1500);
  set(0x30, 0x39, 250); set(0x41, 0x5a, 250); set(0x61, 0x7a, 250);
  for (const [lo, hi] of [[0x09, 0x0d], [0x1c, 0x20], [0x85, 0x85], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a],
    [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000]]) set(lo, hi, 250);
  set(0xd800, 0xdfff, 0);
  return w;
})();

/** Reference weights over a string, code point by code point, in milli-tokens. */
export function jsTextMilli(s) {
  const W = WEIGHTS;
  const n = s.length;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const w = W[c];
    if (w !== 0) { m += w; continue; }
    if (c <= 0xdbff && i + 1 < n) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        const cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        m += cp >= 0x20000 && cp <= 0x2fa1f ? 1500 : 500;
        i++;
        continue;
      }
    }
    m += 500; // a lone surrogate: one "other" code point
  }
  return m;
}

/** The plain JS text estimator: ceiling of the reference weights. */
export const jsEstimateText = (s) => Math.ceil(jsTextMilli(s) / 1000);

const NULL_M = 1000, TRUE_M = 1000, FALSE_M = 1250; // "null" "true" "false" by the weights

/** Any JSON value: strings and numbers by their text, literals by theirs, objects by keys and values. */
function jsValueMilli(v) {
  switch (typeof v) {
    case 'string': return jsTextMilli(v);
    case 'number': return Number.isFinite(v) ? jsTextMilli(String(v)) : NULL_M;
    case 'boolean': return v ? TRUE_M : FALSE_M;
    case 'object': break;
    default: return 0;
  }
  if (v === null) return NULL_M;
  let m = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) { const x = v[i]; m += x === undefined ? NULL_M : jsValueMilli(x); }
    return m;
  }
  for (const k in v) {
    const x = v[k];
    if (x === undefined || typeof x === 'function') continue;
    m += jsTextMilli(k) + jsValueMilli(x);
  }
  return m;
}

function jsResultMilli(c) {
  if (c === undefined || c === null) return 0;
  if (typeof c === 'string') return jsTextMilli(c);
  if (!Array.isArray(c)) return jsValueMilli(c);
  let m = 0;
  for (const b of c) {
    const t = b && b.type;
    if (t === 'text') m += typeof b.text === 'string' ? jsTextMilli(b.text) : 0;
    else if (t === 'image') m += 1600000;
    else if (t === 'document') m += 3000000;
    else m += jsValueMilli(b);
  }
  return m;
}

/**
 * The plain JS walker a user would write: per message 4 tokens, then its text, thinking,
 * tool calls (name + input keys and values) and tool results (content text), by the
 * reference weights; rounded up once. Anthropic format.
 */
export function jsEstimateMessages(messages) {
  let m = 0;
  for (let i = 0; i < messages.length; i++) {
    const msg = messages[i];
    m += 4000; // role markers and delimiters
    const c = msg.content;
    if (typeof c === 'string') { m += jsTextMilli(c); continue; }
    if (!Array.isArray(c)) continue;
    for (let j = 0; j < c.length; j++) {
      const b = c[j];
      switch (b.type) {
        case 'text': if (typeof b.text === 'string') m += jsTextMilli(b.text); break;
        case 'thinking': if (typeof b.thinking === 'string') m += jsTextMilli(b.thinking); break;
        case 'redacted_thinking': if (typeof b.data === 'string') m += jsTextMilli(b.data); break;
        case 'tool_use': m += (typeof b.name === 'string' ? jsTextMilli(b.name) : 0) + (b.input === undefined ? 0 : jsValueMilli(b.input)); break;
        case 'tool_result': m += jsResultMilli(b.content); break;
        case 'image': m += 1600000; break;
        case 'document': m += b.source && b.source.type === 'text' && typeof b.source.data === 'string' ? jsTextMilli(b.source.data) : 3000000; break;
        default: m += jsValueMilli(b);
      }
    }
  }
  return Math.ceil(m / 1000);
}

// ---------------------------------------------------------------- timing

export const now = () => performance.now();
export let sink = 0; // results are folded in here so no call is dead code
export const consume = (v) => { sink = (sink + (typeof v === 'number' ? v : typeof v === 'string' ? v.length : 1)) | 0; };

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Measures several implementations on one input, interleaved: each round runs every
 * implementation once for about `sampleMs` (as many calls as fit, at least one), so
 * machine noise hits them alike. `impls` are {name, run(i) -> value, prepare?(k)} where
 * run(i) is the i-th call of a sample (for input pools) and prepare(k) sets up k calls
 * untimed (e.g. fresh clones). Returns {name: {ms: median ms per call, samples: [...]}}.
 */
export function measure(impls, { rounds, sampleMs }) {
  const out = {};
  const calls = {};
  for (const im of impls) {
    // one untimed-for-the-result call to size the sample
    if (im.prepare) im.prepare(1);
    const t0 = now();
    consume(im.run(0));
    const t = now() - t0;
    calls[im.name] = Math.max(1, Math.min(100000, Math.round(sampleMs / Math.max(t, 1e-4))));
    out[im.name] = { ms: 0, samples: [], calls: calls[im.name] };
  }
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [...impls].reverse() : impls;
    for (const im of order) {
      const k = calls[im.name];
      if (im.prepare) im.prepare(k);
      const t0 = now();
      for (let i = 0; i < k; i++) consume(im.run(i));
      out[im.name].samples.push((now() - t0) / k);
    }
  }
  for (const im of impls) out[im.name].ms = median(out[im.name].samples);
  return out;
}

/** Thrown (by an implementation's own hook, e.g. its token counter) when a call passes its deadline. */
export class Stopped extends Error {
  constructor() { super('stopped at the deadline'); this.name = 'Stopped'; }
}

/**
 * measure() for implementations that may be async (every call's result is awaited, so
 * a sync one pays one microtask per call, far below the ms these take) and that may be
 * too slow to repeat. An implementation may carry:
 *   budgetMs  — time it may spend in the timed rounds; when one call takes longer than a
 *               sample, it joins only as many rounds as fit (at least one);
 *   deadlineMs — for its first call, which sizes the samples: run(i, deadline) may throw
 *               Stopped once performance.now() passes `deadline` (checked by the
 *               implementation, e.g. in the token counter it calls); the result is then
 *               {stopped: true, ms: time until stopped} and it joins no round.
 * Returns {name: {ms: median ms per call over its rounds, samples, calls, stopped?}}.
 */
export async function measureAsync(impls, { rounds, sampleMs }) {
  const out = {};
  const calls = {};
  const joins = {};
  for (const im of impls) {
    if (im.prepare) im.prepare(1);
    const t0 = now();
    try {
      consume(await im.run(0, im.deadlineMs ? t0 + im.deadlineMs : Infinity));
    } catch (e) {
      if (!(e instanceof Stopped)) throw e;
      out[im.name] = { ms: now() - t0, samples: [], calls: 0, stopped: true };
      continue;
    }
    const t = now() - t0;
    calls[im.name] = Math.max(1, Math.min(100000, Math.round(sampleMs / Math.max(t, 1e-4))));
    joins[im.name] = im.budgetMs ? Math.min(rounds, Math.max(1, Math.floor(im.budgetMs / (t * calls[im.name])))) : rounds;
    out[im.name] = { ms: t, samples: [], calls: calls[im.name] };
  }
  const live = impls.filter((im) => !out[im.name].stopped);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [...live].reverse() : live;
    for (const im of order) {
      if (out[im.name].samples.length >= joins[im.name]) continue;
      const k = calls[im.name];
      if (im.prepare) im.prepare(k);
      const t0 = now();
      for (let i = 0; i < k; i++) consume(await im.run(i, Infinity));
      out[im.name].samples.push((now() - t0) / k);
    }
  }
  for (const im of live) out[im.name].ms = median(out[im.name].samples);
  return out;
}

// ---------------------------------------------------------------- machine

export function machine() {
  let cpu = os.cpus()[0]?.model || 'unknown';
  try {
    const m = fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m);
    if (m) cpu = m[1].trim();
  } catch { /* not Linux */ }
  return { cpu, cores: os.cpus().length, node: process.version, v8: process.versions.v8, platform: `${os.platform()} ${os.arch()}`, date: new Date().toISOString(), load: os.loadavg()[0] };
}

/** Formats a number for a table: 3 significant digits, thousands separators. */
export function fmt(x, digits = 3) {
  if (x === undefined || x === null || Number.isNaN(x)) return '—';
  if (x === 0) return '0';
  const p = Math.max(0, digits - 1 - Math.floor(Math.log10(Math.abs(x))));
  return x.toLocaleString('en-US', { maximumFractionDigits: Math.min(p, 3), minimumFractionDigits: Math.min(p, 3) });
}

/** A markdown table from a header row and rows of cells. */
export function table(head, rows) {
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i ? '---:' : '---')).join('|')}|`];
  for (const r of rows) lines.push(`| ${r.join(' | ')} |`);
  return lines.join('\n');
}
