// The midfold demo page: loads a conversation, shows what the estimator, the serializer and
// the planner see, and runs micro-compaction and compaction on it — all in this tab, on the
// WebAssembly core. No build step, no inline code (the page runs under a strict CSP).

import {
  initFull, estimateTokens, serialize, microCompact, validate, detectFormat, planCompaction,
  Compactor, digestSummarizer, openAISummarizer, anthropicSummarizer,
} from '../js/hosts/browser.js';
import { showCost } from './cost-chart.js';

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
const ENDPOINT_DEFAULTS = {
  openai: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
  anthropic: { baseURL: 'https://api.anthropic.com', model: 'claude-3-5-haiku-latest' },
};

const $ = (id) => document.getElementById(id);
const fmt = new Intl.NumberFormat('en-US');
const num = (n) => fmt.format(n);

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
  const flat = String(text).replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : flat;
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

function readSettings() {
  const threshold = intField('threshold', { fallback: 50000, min: 1 });
  const keepRecent = intField('keep-recent', { fallback: 3 });
  const keepTail = intField('keep-tail', { optional: true });
  const error = threshold.error || keepRecent.error || keepTail.error;
  if (error) return { error };
  return {
    threshold: threshold.value,
    keepRecent: keepRecent.value,
    keepTail: keepTail.value ?? Math.floor(threshold.value / 5),
    // One profile for everything: the meter, the plan, micro-compaction and the Compactor.
    profile: $('profile').value || DEFAULT_PROFILE,
    language: $('language').value,
    format: state.format === 'unknown' ? undefined : state.format,
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

function classify(messages, settings) {
  const zones = new Array(messages.length).fill('tail');
  let plan = null;
  try {
    plan = planCompaction(messages, {
      keepTailTokens: settings.keepTail, language: settings.language, profile: settings.profile, format: settings.format,
    });
  } catch { /* shown as all kept */ }
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
  return { zones, plan };
}

function estimateEach(messages, settings) {
  return messages.map((m) => {
    try { return estimateTokens(m, { profile: settings.profile, format: settings.format }); } catch { return 0; }
  });
}

function renderBadges(settings) {
  const badges = $('badges');
  badges.replaceChildren();
  if (!state.messages.length) return;
  badges.append(el('span', { class: 'badge', text: state.format }));
  let check;
  try { check = validate(state.messages, { format: settings.format }); } catch (error) { check = { ok: false, problems: [{ message: describeError(error) }] }; }
  badges.append(check.ok
    ? el('span', { class: 'badge ok', text: 'valid' })
    : el('span', { class: 'badge warn', title: check.problems.slice(0, 5).map((p) => p.message).join('\n'), text: `${check.problems.length} problem${check.problems.length === 1 ? '' : 's'}` }));
  badges.append(el('span', { class: 'badge', text: `${state.messages.length} messages` }));
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

function renderMessages(perMessage, zones) {
  const list = $('messages');
  const names = toolNames(state.messages);
  const max = Math.max(1, ...perMessage);
  let lastUser = -1;
  state.messages.forEach((m, i) => { if (isUserSide(m)) lastUser = i; });
  const rows = state.messages.map((message, i) => {
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
    const details = el('details', { class: 'msg-details', ontoggle: (event) => toggleRow(event.currentTarget, i) });
    if (state.openRows.has(i)) details.open = true;
    details.append(
      el('summary', { class: 'msg-row' },
        el('span', { class: 'idx', text: String(i) }),
        el('span', { class: `role role-${role.replace(/[^a-z-]/gi, '')}`, text: role }),
        el('span', { class: 'msg-body' },
          (chips.length || tags.length) ? el('span', { class: 'chips' }, chips, tags) : null,
          el('span', { class: `preview${preview.trim() ? '' : ' empty'}`, text: preview.trim() ? oneLine(preview) : '(no text)' })),
        el('span', { class: 'tok' }, el('span', { class: 'tok-num', text: num(perMessage[i]) }), el('span', { class: 'tok-track' }, bar))),
    );
    return el('li', { class: `msg zone-${zone}`, dataset: { index: String(i), role, tokens: String(perMessage[i]) } }, details);
  });
  list.replaceChildren(...rows);
  $('count').textContent = String(state.messages.length);
}

function toggleRow(details, index) {
  if (details.open) {
    state.openRows.add(index);
    if (!details.querySelector('pre')) {
      let text;
      try { text = JSON.stringify(state.messages[index], null, 2); } catch { text = String(state.messages[index]); }
      details.append(el('pre', { class: 'code msg-json', text }));
    }
  } else {
    state.openRows.delete(index);
  }
}

function renderTexts(settings) {
  let transcript = '';
  try { transcript = serialize(state.messages, { format: settings.format }); } catch (error) { transcript = `(cannot serialize: ${describeError(error)})`; }
  $('transcript').textContent = transcript;
  let tokens = 0;
  try { tokens = estimateTokens(transcript, { profile: settings.profile }); } catch { /* shown as 0 */ }
  $('transcript-info').textContent = `What a summarizer reads: ${num([...transcript].length)} characters, about ${num(tokens)} tokens.`;
  $('json').textContent = JSON.stringify(state.messages, null, 2);
}

/** Everything that depends on the conversation or the settings. */
function render({ texts = false } = {}) {
  const settings = readSettings();
  if (settings.error) { setStatus('error', settings.error); return; }
  let total = 0;
  try { total = estimateTokens(state.messages, { profile: settings.profile, format: settings.format }); } catch (error) {
    setStatus('error', `Cannot estimate this conversation: ${describeError(error)}`);
  }
  const perMessage = estimateEach(state.messages, settings);
  const { zones } = classify(state.messages, settings);
  renderMeter(total, perMessage, zones, settings);
  renderBadges(settings);
  renderMessages(perMessage, zones);
  if (texts) renderTexts(settings);
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
  document.body.dataset.state = busy ? 'busy' : 'ready';
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

function load(messages, source, note) {
  state.messages = messages;
  state.original = JSON.stringify(messages);
  state.source = source;
  state.openRows.clear();
  state.before = null;
  try { state.format = detectFormat(messages); } catch { state.format = 'unknown'; }
  document.body.dataset.loaded = source;
  for (const b of document.querySelectorAll('#samples button')) b.setAttribute('aria-pressed', String(b.dataset.sample === source));
  $('result').hidden = true;
  render({ texts: true });
  setBusy(false);
  setStatus(note ? 'warn' : '', note || '');
  showCost(messages);
}

/** A JSON text to a messages array: an array, or an object with `messages` (a top-level `system` joins the list). */
function parseConversation(text) {
  let value;
  try { value = JSON.parse(text); } catch (error) { throw new Error(`not valid JSON: ${error.message}`); }
  let note = '';
  if (value && !Array.isArray(value) && typeof value === 'object' && Array.isArray(value.messages)) {
    const { system } = value;
    value = value.messages.slice();
    if (typeof system === 'string' ? system.trim() : Array.isArray(system) && system.length) {
      value.unshift({ role: 'system', content: system });
      note = 'The top-level "system" was added to the list as a system message.';
    }
  }
  if (!Array.isArray(value)) throw new Error('expected a JSON array of messages, or an object with "messages"');
  if (!value.length) throw new Error('the conversation is empty');
  return { messages: value, note };
}

async function loadSample(id) {
  const sample = SAMPLES.find((s) => s.id === id);
  if (!sample || state.busy) return;
  setBusy(true, `Loading ${sample.title}…`);
  try {
    const response = await fetch(new URL(`samples/${sample.file}`, import.meta.url));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const { messages } = parseConversation(await response.text());
    load(messages, id);
  } catch (error) {
    setBusy(false);
    setStatus('error', `Cannot load the sample: ${describeError(error)}`);
  }
}

function loadText(text, source) {
  try {
    const { messages, note } = parseConversation(text);
    load(messages, source, note);
  } catch (error) {
    setStatus('error', `Cannot load that conversation: ${describeError(error)}`);
  }
}

function doMicro() {
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
  render({ texts: true });
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
  render({ texts: true });
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
  $('load-paste').addEventListener('click', () => {
    const text = $('paste').value;
    if (!text.trim()) { setStatus('warn', 'Paste a conversation first.'); return; }
    loadText(text, 'pasted');
  });
  $('upload').addEventListener('change', async (event) => {
    const file = event.target.files && event.target.files[0];
    event.target.value = '';
    if (!file) return;
    try { loadText(await file.text(), 'uploaded'); } catch (error) { setStatus('error', `Cannot read ${file.name}: ${error.message}`); }
  });
  for (const id of ['threshold', 'keep-recent', 'keep-tail', 'language']) {
    $(id).addEventListener('input', () => { if (state.messages.length) render(); });
  }
  $('profile').addEventListener('change', () => { if (state.messages.length) render({ texts: true }); });
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
    if (state.original !== null) load(JSON.parse(state.original), state.source, '');
    setStatus('', 'Back to the conversation as loaded.');
  });
  for (const tab of document.querySelectorAll('[role="tab"]')) tab.addEventListener('click', () => selectTab(tab.id));
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
