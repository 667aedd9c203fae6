// The midfold demo page: loads a conversation, shows what the estimator, the serializer and
// the planner see, and runs micro-compaction and compaction on it — all in this tab, on the
// WebAssembly core (the passes over a whole conversation in two workers: analysis-worker.js
// and cost-worker.js). No build step, no inline code (the page runs under a strict CSP).

import {
  initFull, estimateTokens, EstimateCache, microCompact, detectFormat,
  Compactor, digestSummarizer, openAISummarizer, anthropicSummarizer, readAgentLog, agentLogFormat,
} from '../js/hosts/browser.js';
import { showCost } from './cost-chart.js';
import { analyse, setConversation } from './analysis.js';

const SAMPLES = [
  {
    id: 'coding-anthropic', file: 'coding-session.anthropic.json',
    title: 'Coding agent', detail: 'English · Anthropic · read_file, grep, bash',
  },
  {
    id: 'travel-zh', file: 'travel-planning.zh.anthropic.json',
    title: '云南旅行规划', detail: '中文 · Anthropic · get_weather, search',
  },
  {
    id: 'coding-openai', file: 'coding-session.openai.json',
    title: 'Coding agent (OpenAI)', detail: 'English · OpenAI Chat · tool_calls',
  },
];

const SUMMARY_MARK = '[Context Compressed]';
// The estimator profiles (src/midfold.h), with what each is fitted to. The page lists those
// the library accepts, and selects the Compactor's default, 'safe' (a trigger must err high).
const DEFAULT_PROFILE = 'safe';
const PROFILE_NOTES = {
  safe: 'the largest of the five fitted profiles (the default)',
  bareagent: 'the reference profile (estimateTokens\' default)',
  o200k: 'fitted to o200k_base: GPT-4o, GPT-4.1, GPT-5',
  cl100k: 'fitted to cl100k_base: GPT-4, GPT-3.5',
  deepseek: 'fitted to DeepSeek-V3',
  qwen: 'fitted to Qwen3',
  claude: 'fitted to the legacy public Claude vocabulary, plus a margin',
};
const PREVIEW_CHARS = 220;
/** A paste this long is kept out of the textarea (HOLD), which shows its first PASTE_PREVIEW characters. */
const HOLD_PASTE_CHARS = 64 * 1024;
const PASTE_PREVIEW_CHARS = 2000;
const ENDPOINT_DEFAULTS = {
  openai: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
  anthropic: { baseURL: 'https://api.anthropic.com', model: 'claude-3-5-haiku-latest' },
};

const $ = (id) => document.getElementById(id);
const fmt = new Intl.NumberFormat('en-US');
const num = (n) => fmt.format(n);
const sizeText = (chars) => (chars >= 1e6 ? `${(chars / 1e6).toFixed(1)} million characters` : `${num(chars)} characters`);

const state = {
  messages: [],      // the live conversation; the library edits it in place
  original: null,    // the text it was loaded from, for Reset
  source: '',        // a sample id, 'pasted' or 'uploaded'
  format: 'unknown',
  profiles: [],
  busy: false,
  controller: null,
  before: null,      // the estimate before the last operation, for the meter's outline
  openRows: new Set(),
  heldPaste: null,   // a long paste, kept out of the textarea
  page: 0,           // of the Messages list, PAGE_ROWS a page
  rows: null,        // what the rows of the last render need (rowContext)
};

// ---------------------------------------------------------------- small DOM helpers

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function setStatus(kind, text) {
  const status = $('status');
  status.className = `status ${kind || ''}`;
  status.textContent = text || '';
}

function describeError(error) {
  if (!error) return 'unknown error';
  const code = error.code ? `${error.code}: ` : '';
  return `${code}${error.message || String(error)}`;
}

// ---------------------------------------------------------------- reading messages

function textOf(value, depth = 0) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || depth > 6) return String(value);
  if (Array.isArray(value)) return value.map((v) => textOf(v, depth + 1)).filter(Boolean).join(' ');
  if (typeof value.text === 'string') return value.text;
  if (value.type === 'image' || value.type === 'image_url') return '[image]';
  if ('value' in value) return textOf(value.value, depth + 1);
  if ('content' in value) return textOf(value.content, depth + 1);
  try { return JSON.stringify(value); } catch { return '[value]'; }
}

function argsOf(value) {
  if (value === undefined) return '';
  if (typeof value === 'string') {
    try { return JSON.stringify(JSON.parse(value)); } catch { return value; }
  }
  try { return JSON.stringify(value); } catch { return ''; }
}

/** Tool call ids to tool names, over the whole conversation (results name their calls by id). */
function toolNames(messages) {
  const names = new Map();
  for (const m of messages) {
    if (!m || typeof m !== 'object') continue;
    if (Array.isArray(m.tool_calls)) {
      for (const c of m.tool_calls) if (c && c.id && c.function) names.set(c.id, c.function.name);
    }
    if (Array.isArray(m.content)) {
      for (const b of m.content) {
        if (!b || typeof b !== 'object') continue;
        if (b.type === 'tool_use' && b.id) names.set(b.id, b.name);
        if (b.type === 'tool-call' && b.toolCallId) names.set(b.toolCallId, b.toolName);
      }
    }
  }
  return names;
}

/** The parts of a message worth showing: text, tool calls, tool results, thinking. */
function partsOf(message, names) {
  const parts = [];
  if (!message || typeof message !== 'object') return [{ kind: 'text', text: String(message) }];
  const content = message.content;
  if (message.role === 'tool') {
    const name = message.name || names.get(message.tool_call_id) || 'tool';
    parts.push({ kind: 'result', name, text: textOf(content) });
  } else if (typeof content === 'string') {
    parts.push({ kind: 'text', text: content });
  } else if (Array.isArray(content)) {
    for (const b of content) {
      if (typeof b === 'string') { parts.push({ kind: 'text', text: b }); continue; }
      if (!b || typeof b !== 'object') continue;
      switch (b.type) {
        case 'text': parts.push({ kind: 'text', text: b.text || '' }); break;
        case 'tool_use': case 'server_tool_use':
          parts.push({ kind: 'call', name: b.name, text: argsOf(b.input) }); break;
        case 'tool-call':
          parts.push({ kind: 'call', name: b.toolName, text: argsOf(b.input ?? b.args) }); break;
        case 'tool_result':
          parts.push({ kind: b.is_error ? 'error' : 'result', name: names.get(b.tool_use_id) || 'tool', text: textOf(b.content) }); break;
        case 'tool-result':
          parts.push({ kind: 'result', name: b.toolName || names.get(b.toolCallId) || 'tool', text: textOf(b.output ?? b.result) }); break;
        case 'thinking': case 'reasoning':
          parts.push({ kind: 'thinking', text: b.thinking || b.text || '' }); break;
        case 'redacted_thinking': parts.push({ kind: 'thinking', text: '[redacted]' }); break;
        case 'image': case 'image_url': parts.push({ kind: 'media', name: 'image', text: '' }); break;
        case 'document': case 'file': parts.push({ kind: 'media', name: b.type, text: b.title || b.filename || '' }); break;
        default: parts.push({ kind: 'other', name: b.type || 'block', text: textOf(b) });
      }
    }
  }
  if (Array.isArray(message.tool_calls)) {
    for (const c of message.tool_calls) {
      if (c && c.function) parts.push({ kind: 'call', name: c.function.name, text: argsOf(c.function.arguments) });
    }
  }
  return parts;
}

function oneLine(text, max = PREVIEW_CHARS) {
  const full = String(text);
  // (a tool result can be megabytes: only its start is read)
  const head = full.length > max * 8 ? full.slice(0, max * 8) : full;
  const flat = head.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > max || head !== full ? `${chars.slice(0, max).join('')}…` : flat;
}

function isSummary(message) {
  // (a fold writes it as a text block where nothing else kept shows the conversation's format)
  const text = !message ? '' : typeof message.content === 'string' ? message.content
    : Array.isArray(message.content) && message.content[0] && typeof message.content[0].text === 'string' ? message.content[0].text : '';
  return message && message.role === 'user' && text.startsWith(SUMMARY_MARK);
}

function isUserSide(message) {
  return message && (message.role === 'user' || message.role === 'tool');
}

// ---------------------------------------------------------------- settings

function intField(id, { fallback, min = 0, optional = false }) {
  const input = $(id);
  const raw = input.value.trim();
  if (raw === '' && optional) { input.removeAttribute('aria-invalid'); return { value: undefined }; }
  const value = raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < min) {
    input.setAttribute('aria-invalid', 'true');
    return { error: `${input.closest('label').querySelector('span').firstChild.textContent.trim()} must be a whole number ≥ ${min}` };
  }
  input.removeAttribute('aria-invalid');
  return { value };
}

/** The format option for midfold's calls: the detected one, or none (auto) while it is unknown. */
function formatOption() {
  return state.format && state.format !== 'unknown' ? state.format : undefined;
}

function readSettings() {
  const threshold = intField('threshold', { fallback: 50000, min: 1 });
  const keepRecent = intField('keep-recent', { fallback: 3 });
  const keepTail = intField('keep-tail', { optional: true });
  const modelWindow = intField('window', { fallback: 200000, min: 1 });
  const error = threshold.error || keepRecent.error || keepTail.error || modelWindow.error;
  if (error) return { error };
  return {
    threshold: threshold.value,
    keepRecent: keepRecent.value,
    keepTail: keepTail.value ?? Math.floor(threshold.value / 5),
    window: modelWindow.value,
    // One profile for everything: the meter, the plan, micro-compaction and the Compactor.
    profile: $('profile').value || DEFAULT_PROFILE,
    language: $('language').value,
    format: formatOption(),
  };
}

/** The estimator profiles this build knows: the names it lists (and the documented ones), checked one by one. */
function discoverProfiles() {
  const candidates = new Set([DEFAULT_PROFILE, ...Object.keys(PROFILE_NOTES)]);
  try {
    estimateTokens('x', { profile: '\u0000probe' });
  } catch (error) {
    const known = /known:\s*(.+)$/.exec(String(error && error.message));
    if (known) for (const name of known[1].split(',')) if (name.trim()) candidates.add(name.trim());
  }
  const accepted = [];
  for (const name of candidates) {
    try { estimateTokens('x', { profile: name }); accepted.push(name); } catch { /* not in this build */ }
  }
  return accepted;
}

function summarizerChoice() {
  return document.querySelector('input[name="summarizer"]:checked').value;
}

/** The summarize callback for the chosen summarizer; the API key is read here and kept only in the closure. */
function makeSummarizer() {
  const kind = summarizerChoice();
  if (kind === 'digest') return { summarize: digestSummarizer(), label: 'offline digest', remote: false };
  const model = $('model').value.trim();
  const baseURL = $('base-url').value.trim() || ENDPOINT_DEFAULTS[kind].baseURL;
  const apiKey = $('api-key').value.trim() || undefined;
  if (!model) throw new Error('enter a model name for the endpoint');
  let url;
  try { url = new URL(baseURL); } catch { throw new Error(`the base URL is not a URL: ${baseURL}`); }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('the base URL must be http(s)');
  const summarize = kind === 'openai'
    ? openAISummarizer({ baseURL, model, apiKey })
    : anthropicSummarizer({ baseURL, model, apiKey, browser: true });
  return {
    summarize,
    label: `${model} at ${url.host}`,
    remote: true,
    fallback: $('fallback').checked,
  };
}

// ---------------------------------------------------------------- rendering

/** Each message's zone (head, middle, kept, tail, summary) under `plan` (null: all kept as the tail). */
function zonesOf(messages, plan) {
  const zones = new Array(messages.length).fill('tail');
  if (plan) {
    for (let i = 0; i < messages.length; i++) zones[i] = i >= plan.tailStart ? 'tail' : 'kept';
    for (const i of plan.head) zones[i] = 'head';
    // A middle that is only the previous summary is not folded again (the compactor says
    // "nothing to summarize").
    if (!plan.onlyPreviousSummary) for (const i of plan.middle) zones[i] = 'middle';
  }
  messages.forEach((m, i) => {
    if (m && m.role === 'system') zones[i] = 'head';
    else if (isSummary(m) && zones[i] !== 'middle') zones[i] = 'summary';
  });
  return zones;
}

// One EstimateCache per profile and format: a render after a settings change, or after an
// edit to a few messages, estimates only what changed.
const estimateCaches = new Map();
function estimateCache(settings) {
  const key = `${settings.profile} ${settings.format ?? ''}`;
  if (!estimateCaches.has(key)) estimateCaches.set(key, new EstimateCache({ profile: settings.profile, format: settings.format }));
  return estimateCaches.get(key);
}

function estimateEach(messages, settings, cache) {
  return messages.map((m) => {
    try { return estimateTokens([m], { profile: settings.profile, format: settings.format, cache }); } catch { return 0; }
  });
}

/** Most problems listed; a conversation with more says how many it leaves out. */
const PROBLEMS_SHOWN = 200;

/** The badges, from the worker's {value: validate()'s answer} or {error}. */
function renderBadges(answer) {
  const badges = $('badges');
  badges.replaceChildren();
  if (!state.messages.length) { $('problems').hidden = true; return; }
  badges.append(el('span', { class: 'badge', text: state.format }));
  const check = answer.error
    ? { ok: false, problems: [{ code: answer.error.code || 'error', message: describeError(answer.error), severity: 'error' }] }
    : answer.value;
  const errors = check.problems.filter((p) => p.severity !== 'warning').length;
  badges.append(check.ok
    ? el('span', { class: 'badge ok', text: 'valid' })
    : el('span', { class: 'badge warn', text: `${num(errors)} problem${errors === 1 ? '' : 's'}` }));
  badges.append(el('span', { class: 'badge', text: `${num(state.messages.length)} messages` }));
  renderProblems(check.problems, errors);
}

/**
 * What validate() found, as a list that opens with a click, a tap, Enter or Space (a
 * <details>, not a tooltip); each problem names its message and can jump to it.
 */
function renderProblems(problems, errors) {
  const box = $('problems');
  box.hidden = problems.length === 0;
  if (!problems.length) { box.open = false; return; }
  const warnings = problems.length - errors;
  const counts = [errors && `${num(errors)} problem${errors === 1 ? '' : 's'} the provider would refuse`,
    warnings && `${num(warnings)} warning${warnings === 1 ? '' : 's'}`].filter(Boolean).join(' and ');
  $('problems-summary').textContent = counts;
  box.classList.toggle('only-warnings', errors === 0);
  const items = problems.slice(0, PROBLEMS_SHOWN).map((p) => el('li', { class: `problem ${p.severity === 'warning' ? 'warning' : 'error'}` },
    Number.isInteger(p.index)
      ? el('button', { type: 'button', class: 'problem-at', onclick: () => showMessage(p.index) }, `message ${p.index}`)
      : null,
    p.code ? el('code', { text: p.code }) : null,
    el('span', { text: p.message })));
  if (problems.length > PROBLEMS_SHOWN) items.push(el('li', { class: 'problem more', text: `and ${num(problems.length - PROBLEMS_SHOWN)} more` }));
  $('problem-list').replaceChildren(...items);
}

/** Opens message `index` in the Messages tab and brings it into view. */
async function showMessage(index) {
  selectTab('tab-messages');
  const page = Math.floor(index / PAGE_ROWS);
  if (page !== state.page) await showPage(page);
  const row = document.querySelector(`#messages > li[data-index="${index}"]`);
  if (!row) return;
  openRow(row, true);
  row.scrollIntoView({ block: 'center' });
  row.querySelector('.msg-row').focus({ preventScroll: true });
}

function renderMeter(total, perMessage, zones, settings) {
  const meter = $('meter');
  const { threshold } = settings;
  const before = state.before;
  const scale = Math.max(threshold, total, before ?? 0) * 1.12 || 1;
  const sums = { head: 0, middle: 0, summary: 0, tail: 0 };
  perMessage.forEach((t, i) => { sums[zones[i] === 'kept' ? 'tail' : zones[i]] += t; });
  const parts = Object.values(sums).reduce((a, b) => a + b, 0) || 1;
  for (const key of Object.keys(sums)) {
    $(`seg-${key}`).style.width = `${((sums[key] / parts) * (total / scale) * 100).toFixed(3)}%`;
  }
  $('meter-threshold').style.left = `${((threshold / scale) * 100).toFixed(3)}%`;
  // After an operation, a dashed outline shows where the window stood before it.
  const showBefore = before !== null && before !== total;
  $('meter-before').hidden = !showBefore;
  $('legend-before').hidden = !showBefore;
  if (showBefore) {
    $('meter-before').style.width = `${((before / scale) * 100).toFixed(3)}%`;
    $('legend-before-text').textContent = `before · ${num(before)}`;
  }
  meter.dataset.tokens = String(total);
  meter.dataset.threshold = String(threshold);
  meter.dataset.profile = settings.profile;
  meter.setAttribute('aria-valuenow', String(total));
  meter.setAttribute('aria-valuemax', String(threshold));
  meter.setAttribute('aria-valuetext', `${num(total)} of ${num(threshold)} tokens`);
  const over = total > threshold;
  meter.classList.toggle('over', over);
  $('total').textContent = num(total);
  $('total').classList.toggle('over', over);
  const pct = Math.round((total / threshold) * 100);
  $('of').textContent = `of ${num(threshold)} · ${pct}% of the threshold${over ? ' — over' : ''} · ${settings.profile} profile`;
}

/** What every message row needs to know of the others. */
function rowContext(perMessage, zones) {
  let max = 1;
  for (const t of perMessage) if (t > max) max = t;
  let lastUser = -1;
  state.messages.forEach((m, i) => { if (isUserSide(m)) lastUser = i; });
  return { names: toolNames(state.messages), perMessage, zones, max, lastUser };
}

/** Rows `from` to `to` of the Messages list; the first batch replaces what the list showed. */
function renderMessages(from, to, { names, perMessage, zones, max, lastUser }) {
  const list = $('messages');
  const rows = [];
  for (let i = from; i < to; i++) {
    const message = state.messages[i];
    const parts = partsOf(message, names);
    const role = message && typeof message.role === 'string' ? message.role : '?';
    const zone = zones[i];
    const tags = [];
    if (zone === 'middle') tags.push(el('span', { class: 'tag tag-middle', text: 'folds' }));
    if (zone === 'summary') tags.push(el('span', { class: 'tag tag-summary', text: 'summary' }));
    if (i === lastUser) tags.push(el('span', { class: 'tag tag-pending', text: 'pending turn' }));
    const chips = [];
    for (const p of parts) {
      if (p.kind === 'call') chips.push(el('span', { class: 'chip chip-call', text: `→ ${p.name}` }));
      else if (p.kind === 'result') chips.push(el('span', { class: 'chip chip-result', text: `← ${p.name}` }));
      else if (p.kind === 'error') chips.push(el('span', { class: 'chip chip-error', text: `✕ ${p.name}` }));
      else if (p.kind === 'thinking') chips.push(el('span', { class: 'chip', text: 'thinking' }));
      else if (p.kind === 'media' || p.kind === 'other') chips.push(el('span', { class: 'chip', text: p.name }));
    }
    const main = parts.find((p) => p.kind === 'text' && p.text.trim())
      || parts.find((p) => p.kind === 'result' || p.kind === 'error')
      || parts.find((p) => p.kind === 'call')
      || parts[0];
    let preview = main ? main.text : '';
    if (isSummary(message)) preview = preview.slice(SUMMARY_MARK.length).replace(/^#{1,6}\s+/gm, '');
    const truncated = parts.some((p) => (p.kind === 'result' || p.kind === 'error') && p.text.startsWith('[truncated:'));
    if (truncated) tags.push(el('span', { class: 'tag tag-truncated', text: 'truncated' }));
    const bar = el('span', { class: 'tok-bar' });
    bar.style.width = `${Math.max(2, (perMessage[i] / max) * 100).toFixed(1)}%`;
    // A button, not a <details>: each <details> brings a shadow root with its own style sheet,
    // which thousands of rows make the browser's style engine pay for on every frame.
    const row = el('li', { class: `msg zone-${zone}`, dataset: { index: String(i), role, tokens: String(perMessage[i]) } },
      el('button', { type: 'button', class: 'msg-row', 'aria-expanded': 'false' },
        el('span', { class: 'idx', text: String(i) }),
        el('span', { class: `role role-${role.replace(/[^a-z-]/gi, '')}`, text: role }),
        el('span', { class: 'msg-body' },
          (chips.length || tags.length) ? el('span', { class: 'chips' }, chips, tags) : null,
          el('span', { class: `preview${preview.trim() ? '' : ' empty'}`, text: preview.trim() ? oneLine(preview) : '(no text)' })),
        el('span', { class: 'tok' }, el('span', { class: 'tok-num', text: num(perMessage[i]) }), el('span', { class: 'tok-track' }, bar))));
    if (state.openRows.has(i)) openRow(row, true);
    rows.push(row);
  }
  if (from === state.page * PAGE_ROWS) list.replaceChildren(...rows);
  else list.append(...rows);
  $('count').textContent = String(state.messages.length);
}

/** The steps that show the Messages list's current page. */
function pageSteps(rows) {
  const count = state.messages.length;
  const pages = Math.max(1, Math.ceil(count / PAGE_ROWS));
  state.page = Math.min(state.page, pages - 1);
  const first = state.page * PAGE_ROWS;
  const end = Math.min(count, first + PAGE_ROWS);
  const steps = [];
  for (let from = first; from < Math.max(first + 1, end); from += ROWS_PER_STEP) {
    steps.push(() => renderMessages(from, Math.min(from + ROWS_PER_STEP, end), rows));
  }
  steps.push(() => {
    $('pager').hidden = pages === 1;
    $('page-info').textContent = `Messages ${num(first)}–${num(end - 1)} of ${num(count)}`;
    $('page-prev').disabled = state.page === 0;
    $('page-next').disabled = state.page === pages - 1;
  });
  return steps;
}

let pageJob = 0;
/** Shows page `page` of the Messages list (the rows of the last render); resolves once shown. */
function showPage(page) {
  if (!state.rows) return Promise.resolve();
  state.page = page;
  const job = ++pageJob;
  const render = renderJob;
  return runSteps(pageSteps(state.rows), () => job === pageJob && render === renderJob);
}

/** Opens (or closes) a message row: its JSON below it, written when it is first opened. */
function openRow(row, open) {
  const index = Number(row.dataset.index);
  row.querySelector('.msg-row').setAttribute('aria-expanded', String(open));
  let pre = row.querySelector('pre');
  if (open) {
    state.openRows.add(index);
    if (!pre) {
      let text;
      try { text = JSON.stringify(state.messages[index], null, 2); } catch { text = String(state.messages[index]); }
      pre = el('pre', { class: 'code msg-json', text });
      row.append(pre);
    }
    pre.hidden = false;
  } else {
    state.openRows.delete(index);
    if (pre) pre.hidden = true;
  }
}

function codePoints(text) {
  let n = text.length;
  for (let i = 0; i + 1 < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) { n--; i++; }
  }
  return n;
}

/** The transcript pane, from the worker's {value: {text, tokens}} or {error}. */
function renderTranscript(answer) {
  if (answer.error) {
    $('transcript').textContent = `(cannot serialize: ${describeError(answer.error)})`;
    $('transcript-info').textContent = '';
    return;
  }
  const { text, tokens } = answer.value;
  $('transcript').textContent = text;
  $('transcript-info').textContent = `What a summarizer reads: ${num(codePoints(text))} characters, about ${num(tokens)} tokens.`;
}

// A render is spread over tasks, so that a long conversation never stops the page for long:
// the estimates on this thread in slices (an EstimateCache keeps them, so the next render
// after a settings change or an edit reads only what changed), the plan, the problems, the
// transcript and the JSON in analysis-worker.js, the rows in batches; each task runs steps
// for at most TASK_BUDGET_MS.
const TASK_BUDGET_MS = 12;
const ROWS_PER_STEP = 25;
// A page of the Messages list: a conversation of thousands keeps a few hundred rows in the
// page, so that each frame's style, layout and paint stay small.
const PAGE_ROWS = 200;
const MESSAGES_PER_ESTIMATE = 100;
let renderJob = 0;
let rendering = false;
let lastZones = [];

/** The body's state for the page and its tests: busy (an operation), rendering (a render under way), ready. */
function showState() {
  document.body.dataset.state = state.busy ? 'busy' : rendering ? 'rendering' : 'ready';
}

/**
 * Just after the next frame (or soon, in a tab that draws none), in a task of its own: each
 * batch of steps is drawn before the next runs, so a frame lays out one batch of rows, never
 * all of them at once, and never in the same task as the batch's own work.
 */
function nextFrame(fn) {
  if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(fn, 0)); else setTimeout(fn, 0);
}

/**
 * Runs `steps` in order, TASK_BUDGET_MS of them a frame, from the next frame on (the task
 * that asked has done its own share); resolves when done, or once `live()` turns false.
 */
function runSteps(steps, live) {
  return new Promise((resolve) => {
    let i = 0;
    const work = () => {
      if (!live()) { resolve(); return; }
      const start = performance.now();
      while (i < steps.length && (performance.now() - start < TASK_BUDGET_MS)) steps[i++]();
      if (i < steps.length) nextFrame(work); else resolve();
    };
    nextFrame(work);
  });
}

/** The conversation changed on the page (an operation, a reset): the worker is given its new JSON. */
function conversationChanged() {
  setConversation(JSON.stringify(state.messages));
}

/** Everything that depends on the conversation or the settings; resolves when it is all shown (or a newer render took over). */
async function render({ texts = false } = {}) {
  const settings = readSettings();
  if (settings.error) { setStatus('error', settings.error); return; }
  const job = ++renderJob;
  const live = () => job === renderJob;
  rendering = true;
  showState();
  if (state.format === null) {
    // (a pass over the whole conversation in wasm: a task of its own)
    await runSteps([() => { try { state.format = detectFormat(state.messages); } catch { state.format = 'unknown'; } }], live);
    if (!live()) return;
  }
  settings.format = formatOption();
  const answers = analyse({ keepTail: settings.keepTail, language: settings.language, profile: settings.profile, format: settings.format },
    texts ? ['plan', 'problems', 'transcript', 'json'] : ['plan', 'problems']);
  const cache = estimateCache(settings);
  const messages = state.messages;
  let total = 0;
  let perMessage = [];
  let failed = false;
  const estimate = (list) => {
    if (failed) return 0;
    try { return estimateTokens(list, { profile: settings.profile, format: settings.format, cache }); } catch (error) {
      failed = true;
      setStatus('error', `Cannot estimate this conversation: ${describeError(error)}`);
      return 0;
    }
  };
  const steps = [];
  for (let from = 0; from < messages.length; from += MESSAGES_PER_ESTIMATE) steps.push(() => estimate(messages.slice(from, from + MESSAGES_PER_ESTIMATE)));
  steps.push(() => { total = estimate(messages); });
  steps.push(() => {
    perMessage = estimateEach(messages, settings, cache);
    // Until the plan comes, the zones of the last render stand in, when they fit.
    renderMeter(total, perMessage, lastZones.length === messages.length ? lastZones : messages.map(() => 'tail'), settings);
  });
  await runSteps(steps, live);
  const planned = await answers.plan;
  if (!live() || planned === undefined) return;
  const zones = zonesOf(messages, planned.value ?? null);
  lastZones = zones;
  renderMeter(total, perMessage, zones, settings);
  state.rows = rowContext(perMessage, zones);
  ++pageJob;
  await runSteps(pageSteps(state.rows), live);
  const problems = await answers.problems;
  if (!live() || problems === undefined) return;
  renderBadges(problems);
  if (texts) {
    const transcript = await answers.transcript;
    if (!live() || transcript === undefined) return;
    renderTranscript(transcript);
    const json = await answers.json;
    if (!live() || json === undefined) return;
    $('json').textContent = json.error ? `(cannot show the JSON: ${describeError(json.error)})` : json.value;
  }
  rendering = false;
  showState();
}

// ---------------------------------------------------------------- the result card

function figure(label, value, note, kind = '') {
  return el('div', { class: `figure ${kind}` },
    el('span', { class: 'figure-label', text: label }),
    el('span', { class: 'figure-value', text: value }),
    note ? el('span', { class: 'figure-note', text: note }) : null);
}

function renderSummary(text) {
  const box = $('summary');
  box.replaceChildren();
  let list = null;
  const inline = (line) => {
    // **bold** only; everything else is text.
    const out = [];
    const re = /\*\*(.+?)\*\*/g;
    let last = 0;
    for (let m; (m = re.exec(line));) {
      if (m.index > last) out.push(line.slice(last, m.index));
      out.push(el('strong', { text: m[1] }));
      last = m.index + m[0].length;
    }
    if (last < line.length) out.push(line.slice(last));
    return out;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    const bullet = /^\s*(?:[-*•]|\d+[.)])\s+(.*)$/.exec(line);
    if (bullet) {
      if (!list) { list = el('ul'); box.append(list); }
      list.append(el('li', {}, inline(bullet[1])));
      continue;
    }
    list = null;
    if (!line.trim()) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    box.append(heading ? el('h4', { text: heading[1] }) : el('p', {}, inline(line)));
  }
}

function showResult({ title, kind, figures, summary, summaryTitle, warnings }) {
  $('result').hidden = false;
  $('result').dataset.kind = kind;
  $('result-title').textContent = title;
  $('figures').replaceChildren(...figures);
  const list = $('warnings');
  list.hidden = !warnings || !warnings.length;
  list.replaceChildren(...(warnings || []).map((w) => el('li', { text: w })));
  $('summary-box').hidden = !summary;
  if (summary) {
    $('summary-title').textContent = summaryTitle;
    renderSummary(summary);
  } else {
    $('summary').replaceChildren();
  }
}

// ---------------------------------------------------------------- actions

function setBusy(busy, label) {
  state.busy = busy;
  showState();
  const has = state.messages.length > 0;
  $('micro').disabled = busy || !has;
  $('reset').disabled = busy || state.original === null;
  $('compact').disabled = !has && !busy;
  $('compact').classList.toggle('cancel', busy);
  $('compact').replaceChildren(...(busy ? ['Cancel'] : ['Compact ', el('kbd', { text: '/compact' })]));
  for (const b of document.querySelectorAll('#samples button')) b.disabled = busy;
  $('load-paste').disabled = busy;
  $('upload').disabled = busy;
  if (label) setStatus('info', label);
}

/** Shows `messages`; `text` is their JSON when the caller has it (a paste of the array itself). */
function load(messages, source, note, text) {
  state.messages = messages;
  state.original = text ?? JSON.stringify(messages);
  state.source = source;
  state.openRows.clear();
  state.before = null;
  state.page = 0;
  state.format = null; // (detected by the render)
  document.body.dataset.loaded = source;
  for (const b of document.querySelectorAll('#samples button')) b.setAttribute('aria-pressed', String(b.dataset.sample === source));
  $('result').hidden = true;
  setConversation(state.original);
  render({ texts: true });
  setBusy(false);
  setStatus(note ? 'warn' : '', note || '');
  updateCost();
}

/** The cost card replays the conversation as loaded, with the settings as they stand. */
function updateCost() {
  const settings = readSettings();
  if (settings.error || state.original === null) return;
  const { threshold, keepRecent, keepTail, profile, language } = settings;
  showCost(state.original, { threshold, keepRecent, keepTail, profile, language, window: settings.window });
}

// Agent logs as people have them on disk are JSON Lines, not JSON: Claude Code's session
// .jsonl, Codex CLI's rollout .jsonl. readAgentLog reads either as the conversation it records
// (docs/agent-logs.md); the note says what it was and what was left out.
const LOG_NAMES = { 'claude-code': 'a Claude Code session', codex: 'a Codex CLI rollout' };
function readLog(text) {
  const log = readAgentLog(text);
  const skipped = Object.values(log.skipped).reduce((a, b) => a + b, 0);
  const repaired = log.repaired.length ? `; ${log.repaired.length} interrupted call${log.repaired.length === 1 ? '' : 's'} answered "aborted"` : '';
  return { messages: log.messages, note: `Read ${LOG_NAMES[log.format]}: ${log.messages.length} messages, ${skipped} log line${skipped === 1 ? '' : 's'} left out (subagents, snapshots, events)${repaired}.` };
}

/**
 * A pasted or uploaded text to {messages, note}: JSON (an array, or an object with `messages`,
 * whose top-level `system` joins the list), else an agent log read by `readLog`.
 */
function parseConversation(text) {
  let value;
  try { value = JSON.parse(text); } catch (error) {
    if (agentLogFormat(text)) return readLog(text);
    throw new Error(`not valid JSON (nor a Claude Code or Codex CLI log): ${error.message}`);
  }
  const conversation = Array.isArray(value) || (value && typeof value === 'object' && Array.isArray(value.messages));
  if (!conversation && agentLogFormat(text)) return readLog(text);
  let note = '';
  if (value && !Array.isArray(value) && typeof value === 'object' && Array.isArray(value.messages)) {
    const { system } = value;
    value = value.messages.slice();
    if (typeof system === 'string' ? system.trim() : Array.isArray(system) && system.length) {
      value.unshift({ role: 'system', content: system });
      note = 'The top-level "system" was added to the list as a system message.';
    }
    if (!value.length) throw new Error('the conversation is empty');
    return { messages: value, note };
  }
  if (!Array.isArray(value)) throw new Error('expected a JSON array of messages, or an object with "messages"');
  if (!value.length) throw new Error('the conversation is empty');
  return { messages: value, note, text };
}

async function loadSample(id) {
  const sample = SAMPLES.find((s) => s.id === id);
  if (!sample || state.busy) return;
  setBusy(true, `Loading ${sample.title}…`);
  try {
    const response = await fetch(new URL(`samples/${sample.file}`, import.meta.url));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const { messages, text } = parseConversation(await response.text());
    load(messages, id, '', text);
  } catch (error) {
    setBusy(false);
    setStatus('error', `Cannot load the sample: ${describeError(error)}`);
  }
}

function loadText(text, source) {
  try {
    const { messages, note, text: json } = parseConversation(text);
    load(messages, source, note, json);
  } catch (error) {
    setStatus('error', `Cannot load that conversation: ${describeError(error)}`);
  }
}

async function doMicro() {
  const settings = readSettings();
  if (settings.error) { setStatus('error', settings.error); return; }
  const count = state.messages.length;
  let report;
  try {
    report = microCompact(state.messages, { keepRecent: settings.keepRecent, profile: settings.profile, format: settings.format });
  } catch (error) {
    setStatus('error', `Micro-compaction failed: ${describeError(error)}`);
    return;
  }
  state.before = report.tokensBefore;
  conversationChanged();
  await render({ texts: true });
  const saved = report.tokensBefore - report.tokensAfter;
  showResult({
    kind: report.cleared ? 'micro' : 'none',
    title: report.cleared
      ? `Micro-compacted · ${report.cleared} old tool result${report.cleared === 1 ? '' : 's'} cleared`
      : 'Micro-compaction · nothing to clear',
    figures: [
      figure('Before', num(report.tokensBefore), 'tokens'),
      figure('After', num(report.tokensAfter), 'tokens', 'after'),
      figure('Saved', num(saved), report.tokensBefore ? `${Math.round((saved / report.tokensBefore) * 100)}%` : '', 'saved'),
      figure('Characters cleared', num(report.charsCleared), `${count} messages, none removed`),
    ],
    warnings: report.cleared ? [] : [`The ${settings.keepRecent} most recent tool-result turns stay whole; older results are already cleared or cheaper than their marker.`],
  });
  setStatus('ok', report.cleared ? 'Old tool results now read “[truncated: …]”; user and assistant text is untouched.' : 'Nothing changed.');
}

async function doCompact() {
  if (state.busy) {
    if (state.controller) state.controller.abort(new DOMException('cancelled from the page', 'AbortError'));
    return;
  }
  const settings = readSettings();
  if (settings.error) { setStatus('error', settings.error); return; }
  let chosen;
  try { chosen = makeSummarizer(); } catch (error) { setStatus('error', `Summarizer: ${error.message}`); return; }
  const warnings = [];
  let compactor;
  try {
    compactor = new Compactor({
      summarize: chosen.summarize,
      threshold: settings.threshold,
      keepRecent: settings.keepRecent,
      keepTail: { tokens: settings.keepTail },
      language: settings.language,
      profile: settings.profile,
      format: settings.format,
      fallback: chosen.fallback ? 'digest' : undefined,
      timeoutMs: chosen.remote ? 120000 : undefined,
      onWarn: (message, error) => warnings.push(error && error.message ? `${message} (${error.message})` : message),
    });
  } catch (error) {
    setStatus('error', `Settings: ${describeError(error)}`);
    return;
  }
  const countBefore = state.messages.length;
  const focus = $('focus').value.trim();
  state.controller = new AbortController();
  setBusy(true, chosen.remote ? `Asking ${chosen.label} for a summary…` : 'Compacting…');
  const started = performance.now();
  let report;
  try {
    report = await compactor.compact(state.messages, { force: true, signal: state.controller.signal, instructions: focus || undefined });
  } catch (error) {
    state.controller = null;
    setBusy(false);
    setStatus('error', `Compaction failed: ${describeError(error)}`);
    return;
  }
  const ms = performance.now() - started;
  state.controller = null;
  state.openRows.clear();
  if (report.compacted || report.micro?.cleared) state.before = report.tokensBefore;
  conversationChanged();
  await render({ texts: true });
  setBusy(false);
  const saved = report.tokensBefore - report.tokensAfter;
  const pct = report.tokensBefore ? Math.round((saved / report.tokensBefore) * 100) : 0;
  const by = report.reason === 'compacted-with-digest' ? 'offline digest (the model failed)' : chosen.label;
  const figures = [
    figure('Before', num(report.tokensBefore), `tokens · ${countBefore} messages`),
    figure('After', num(report.tokensAfter), `tokens · ${state.messages.length} messages`, 'after'),
    figure('Saved', report.compacted ? `${pct}%` : '0%', report.compacted ? `${num(saved)} tokens` : 'nothing changed', 'saved'),
    figure('Folded', num(report.summarizedMessages), `messages${report.micro && report.micro.cleared ? ` · ${report.micro.cleared} results cleared first` : ''}`),
    figure('Summary by', by, `${ms < 1000 ? `${Math.max(1, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`}${report.language ? ` · ${report.language}` : ''}`, 'small'),
  ];
  if (report.compacted) {
    showResult({
      kind: 'compact',
      title: `Compacted · ${report.summarizedMessages} messages folded into one summary`,
      figures,
      warnings,
      summary: report.summary,
      summaryTitle: `The summary that replaced ${report.summarizedMessages} messages`,
    });
    setStatus('ok', 'System messages and the live tail are kept verbatim; the middle now reads as one summary.');
  } else {
    const why = {
      'nothing-to-summarize': 'there is no resolved middle to fold (everything is head or tail). Try a smaller keep tail.',
      aborted: 'cancelled.',
      timeout: 'the summarizer did not answer in time.',
      'summarizer-error': 'the summarizer failed.',
      'empty-summary': 'the summarizer returned nothing.',
      'bad-summary': 'the summarizer returned something that is not text.',
      conflict: 'the conversation changed meanwhile.',
    }[report.reason] || report.reason;
    showResult({ kind: 'none', title: 'Nothing folded — the conversation is unchanged', figures, warnings });
    setStatus('warn', `Not compacted: ${why}`);
  }
}

// ---------------------------------------------------------------- wiring

function selectTab(id) {
  for (const tab of document.querySelectorAll('[role="tab"]')) {
    const selected = tab.id === id;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
    $(tab.getAttribute('aria-controls')).hidden = !selected;
  }
}

function wire() {
  const samples = $('samples');
  for (const s of SAMPLES) {
    samples.append(el('button', { type: 'button', class: 'sample', dataset: { sample: s.id }, 'aria-pressed': 'false', onclick: () => loadSample(s.id) },
      el('strong', { text: s.title }), el('small', { text: s.detail })));
  }
  // A long paste is held aside and the field shows its start: laying out megabytes of
  // one-line JSON in a textarea would stop the page for seconds.
  $('paste').addEventListener('paste', (event) => {
    const text = event.clipboardData ? event.clipboardData.getData('text/plain') : '';
    if (text.length < HOLD_PASTE_CHARS) return;
    event.preventDefault();
    state.heldPaste = text;
    $('paste').value = `${text.slice(0, PASTE_PREVIEW_CHARS)}…`;
    setStatus('info', `Pasted ${sizeText(text.length)}: the field shows its start, Load reads all of it.`);
  });
  $('paste').addEventListener('input', () => { state.heldPaste = null; });
  $('load-paste').addEventListener('click', () => {
    const text = state.heldPaste ?? $('paste').value;
    if (!text.trim()) { setStatus('warn', 'Paste a conversation first.'); return; }
    loadText(text, 'pasted');
  });
  $('upload').addEventListener('change', async (event) => {
    const file = event.target.files && event.target.files[0];
    event.target.value = '';
    if (!file) return;
    try { loadText(await file.text(), 'uploaded'); } catch (error) { setStatus('error', `Cannot read ${file.name}: ${error.message}`); }
  });
  for (const id of ['threshold', 'keep-recent', 'keep-tail', 'window', 'language']) {
    $(id).addEventListener('input', () => { if (state.messages.length) { render(); updateCost(); } });
  }
  $('profile').addEventListener('change', () => { if (state.messages.length) { render({ texts: true }); updateCost(); } });
  for (const radio of document.querySelectorAll('input[name="summarizer"]')) {
    radio.addEventListener('change', () => {
      const kind = summarizerChoice();
      $('endpoint').hidden = kind === 'digest';
      if (kind !== 'digest') {
        $('base-url').placeholder = ENDPOINT_DEFAULTS[kind].baseURL;
        $('model').placeholder = ENDPOINT_DEFAULTS[kind].model;
      }
    });
  }
  $('endpoint').addEventListener('submit', (event) => event.preventDefault());
  $('micro').addEventListener('click', doMicro);
  $('compact').addEventListener('click', doCompact);
  $('focus').addEventListener('keydown', (event) => { if (event.key === 'Enter' && !state.busy) doCompact(); });
  $('reset').addEventListener('click', () => {
    if (state.original !== null) load(JSON.parse(state.original), state.source, '', state.original);
    setStatus('', 'Back to the conversation as loaded.');
  });
  for (const tab of document.querySelectorAll('[role="tab"]')) tab.addEventListener('click', () => selectTab(tab.id));
  $('page-prev').addEventListener('click', () => showPage(state.page - 1));
  $('page-next').addEventListener('click', () => showPage(state.page + 1));
  // One listener for every message row.
  $('messages').addEventListener('click', (event) => {
    const button = event.target.closest('.msg-row');
    if (button) openRow(button.parentElement, button.getAttribute('aria-expanded') !== 'true');
  });
  document.querySelector('.tabs').addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const tabs = [...document.querySelectorAll('[role="tab"]')];
    const at = tabs.findIndex((t) => t.getAttribute('aria-selected') === 'true');
    const next = tabs[(at + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
    selectTab(next.id);
    next.focus();
  });
  $('copy-json').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText($('json').textContent);
      setStatus('ok', 'The conversation JSON is on the clipboard.');
    } catch {
      setStatus('warn', 'The clipboard is not available here; select the text instead.');
    }
  });
  $('download-json').addEventListener('click', () => {
    const blob = new Blob([$('json').textContent], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const a = el('a', { href: url, download: `${state.source || 'conversation'}.midfold.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
}

async function main() {
  wire();
  const started = performance.now();
  try {
    // The page validates and digests: the full module, not init()'s lite one.
    await initFull();
  } catch (error) {
    document.body.dataset.state = 'error';
    $('engine').textContent = 'WebAssembly failed to load';
    $('engine').classList.add('bad');
    setStatus('error', `Cannot load midfold's WebAssembly module: ${describeError(error)}`);
    return;
  }
  $('engine').textContent = `WebAssembly core ready · ${Math.max(1, Math.round(performance.now() - started))} ms`;
  state.profiles = discoverProfiles();
  $('profile').replaceChildren(...state.profiles.map((p) => el('option', {
    value: p, text: p, title: PROFILE_NOTES[p], selected: p === DEFAULT_PROFILE,
  })));
  $('profile').value = state.profiles.includes(DEFAULT_PROFILE) ? DEFAULT_PROFILE : state.profiles[0];
  await loadSample(SAMPLES[0].id);
}

main();
