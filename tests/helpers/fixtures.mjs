// Test helpers for the core suites: fixture loading, and small reference functions
// written from the documented rules (DESIGN.md, issue 2) so tests can state expected
// values without asking the library under test.
import { readFileSync, readdirSync } from 'node:fs';

const DIR = new URL('../fixtures/', import.meta.url);
const cache = new Map();

/** A fresh, mutable copy of tests/fixtures/NAME.json (NAME without ".json"). */
export function loadFixture(name) {
  if (!cache.has(name)) cache.set(name, readFileSync(new URL(`${name}.json`, DIR), 'utf8'));
  return JSON.parse(cache.get(name));
}

/** Every fixture's name (without ".json"), sorted. */
export function fixtureNames() {
  return readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
}

/** The format a fixture is written in, from its file name ("x.anthropic" -> "anthropic"). */
export function fixtureFormat(name) {
  return name.slice(name.lastIndexOf('.') + 1);
}

/** Unicode code points in a JS string (a lone surrogate counts as one). */
export const codePoints = (s) => [...s].length;

/** The micro-compaction marker for a result of `chars` code points. */
export const marker = (tool, chars) => `[truncated: ${tool} result, ${chars} chars]`;

// ---- the reference estimator (profile "bareagent"), in milli-tokens ----------------

const CJK_RANGES = [
  [0x2e80, 0x2fdf], [0x3001, 0x303f], [0x3040, 0x30ff], [0x3100, 0x31ff], [0x3400, 0x4dbf],
  [0x4e00, 0x9fff], [0xac00, 0xd7af], [0xf900, 0xfaff], [0xff00, 0xffef], [0x20000, 0x2fa1f],
];
const SPACE_RANGES = [
  [0x09, 0x0d], [0x1c, 0x1f], [0x20, 0x20], [0x85, 0x85], [0xa0, 0xa0], [0x1680, 0x1680],
  [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000],
];
const inRanges = (cp, ranges) => ranges.some(([a, b]) => cp >= a && cp <= b);

/** 'cjk' | 'alnum' | 'space' | 'other' for one code point. */
export function charClass(cp) {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return 'alnum';
  if (inRanges(cp, SPACE_RANGES)) return 'space';
  if (inRanges(cp, CJK_RANGES)) return 'cjk';
  return 'other';
}

export const WEIGHT_MILLI = { cjk: 1500, alnum: 250, space: 250, other: 500 };
export const MESSAGE_MILLI = 4000;
export const IMAGE_MILLI = 1600000;
export const DOCUMENT_MILLI = 3000000;

/** The text estimate in milli-tokens (lone surrogates count as "other"). */
export function textMilli(s) {
  let milli = 0;
  for (const ch of s) milli += WEIGHT_MILLI[charClass(ch.codePointAt(0))];
  return milli;
}

export const ceilTokens = (milli) => Math.ceil(milli / 1000);

/** Any JSON value: strings and numbers by their text, literals by their name, objects by keys and values. */
export function valueMilli(v) {
  if (v === null || v === undefined) return textMilli('null');
  if (typeof v === 'object' && typeof v.toJSON === 'function') return valueMilli(v.toJSON());
  switch (typeof v) {
    case 'string': return textMilli(v);
    case 'number': return textMilli(Number.isFinite(v) ? String(v) : 'null');
    case 'boolean': return textMilli(String(v));
    case 'object': {
      let sum = 0;
      if (Array.isArray(v)) {
        for (const item of v) sum += valueMilli(typeof item === 'function' ? null : item);
      } else {
        for (const [k, item] of Object.entries(v)) {
          if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
          sum += textMilli(k) + valueMilli(item);
        }
      }
      return sum;
    }
    default: return 0;
  }
}

const isMedia = (t) => t === 'image' || t === 'image_url' || t === 'media';
const isDoc = (t) => t === 'document' || t === 'file';

/** A tool result's content: a string, blocks, or an AI SDK output {type, value}. */
export function resultMilli(c) {
  if (c === null || c === undefined) return 0;
  if (typeof c === 'string') return textMilli(c);
  if (Array.isArray(c)) {
    let sum = 0;
    for (const b of c) {
      if (b && b.type === 'text') sum += typeof b.text === 'string' ? textMilli(b.text) : 0;
      else if (b && isMedia(b.type)) sum += IMAGE_MILLI;
      else if (b && isDoc(b.type)) sum += DOCUMENT_MILLI;
      else sum += valueMilli(b);
    }
    return sum;
  }
  if (typeof c === 'object' && typeof c.type === 'string' && 'value' in c) {
    if (c.type === 'content' && Array.isArray(c.value)) return resultMilli(c.value);
    return valueMilli(c.value);
  }
  return valueMilli(c);
}

function anthropicBlock(b) {
  switch (b.type) {
    case 'text': return textMilli(b.text ?? '');
    case 'thinking': return textMilli(b.thinking ?? '');
    case 'redacted_thinking': return textMilli(b.data ?? '');
    case 'tool_use': return textMilli(b.name ?? '') + (b.input === undefined ? 0 : valueMilli(b.input));
    case 'tool_result': return resultMilli(b.content);
    case 'image': return IMAGE_MILLI;
    case 'document': return b.source && b.source.type === 'text' && typeof b.source.data === 'string'
      ? textMilli(b.source.data) : DOCUMENT_MILLI;
    default: return valueMilli(b);
  }
}

function openaiMessage(m) {
  if (m.role === 'tool' || m.role === 'function') return resultMilli(m.content);
  let sum = 0;
  if (typeof m.content === 'string') sum += textMilli(m.content);
  else if (Array.isArray(m.content)) {
    for (const p of m.content) {
      if (p.type === 'text') sum += textMilli(p.text ?? '');
      else if (p.type === 'refusal') sum += textMilli(p.refusal ?? '');
      else if (p.type === 'image_url') sum += IMAGE_MILLI;
      else if (p.type === 'file') sum += DOCUMENT_MILLI;
      else sum += valueMilli(p);
    }
  }
  for (const c of m.tool_calls ?? []) {
    sum += textMilli(c.function?.name ?? '');
    if (c.function && c.function.arguments !== undefined) sum += valueMilli(c.function.arguments);
  }
  return sum;
}

function aisdkPart(p) {
  switch (p.type) {
    case 'text': case 'reasoning': return textMilli(p.text ?? '');
    case 'tool-call': {
      const args = p.input !== undefined ? p.input : p.args;
      return textMilli(p.toolName ?? '') + (args === undefined ? 0 : valueMilli(args));
    }
    case 'tool-result': return resultMilli(p.output !== undefined ? p.output : p.result);
    case 'image': return IMAGE_MILLI;
    case 'file': return String(p.mediaType ?? p.mimeType ?? '').startsWith('image/') ? IMAGE_MILLI : DOCUMENT_MILLI;
    default: return valueMilli(p);
  }
}

/** The documented estimate of a list of messages in `format`, in milli-tokens. */
export function messagesMilli(messages, format) {
  let sum = 0;
  for (const m of messages) {
    sum += MESSAGE_MILLI;
    if (format === 'openai') { sum += openaiMessage(m); continue; }
    if (typeof m.content === 'string') { sum += textMilli(m.content); continue; }
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) sum += format === 'anthropic' ? anthropicBlock(b) : aisdkPart(b);
  }
  return sum;
}

// ---- the transcript's JSON: Python json.dumps(ensure_ascii=False) separators --------

/** A JSON value as compact JSON with ": " and ", " separators, non-ASCII unescaped. */
export function pyJson(v) {
  if (v !== null && typeof v === 'object' && typeof v.toJSON === 'function') return pyJson(v.toJSON());
  if (Array.isArray(v)) return `[${v.map((x) => (x === undefined || typeof x === 'function' ? 'null' : pyJson(x))).join(', ')}]`;
  if (v !== null && typeof v === 'object') {
    const items = [];
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
      items.push(`${JSON.stringify(k)}: ${pyJson(x)}`);
    }
    return `{${items.join(', ')}}`;
  }
  return JSON.stringify(v);
}

// ---- small builders for hand-made conversations --------------------------------------

/** Anthropic: one tool round (assistant tool_use, user tool_result). */
export function anthropicRound(id, name, input, result, extra = {}) {
  return [
    { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result, ...extra }] },
  ];
}

/** OpenAI: one tool round (assistant tool_calls, tool message). */
export function openaiRound(id, name, input, result) {
  return [
    { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(input) } }] },
    { role: 'tool', tool_call_id: id, content: result },
  ];
}

/** AI SDK v5: one tool round (assistant tool-call part, tool message with tool-result). */
export function aisdkRound(id, name, input, result, outputType = 'text') {
  return [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: name, input }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: name, output: { type: outputType, value: result } }] },
  ];
}
