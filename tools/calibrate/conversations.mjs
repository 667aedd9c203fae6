#!/usr/bin/env node
// How the fitted profiles price whole conversations: midfold's estimateTokens(messages, { profile }) against the
// exact count of what the model is sent, on the bench's 1,000-message coding-agent conversations (English and
// code; Chinese texts and outputs: tests/bench/lib.mjs, the seeds of `make bench`).
//
//   make -C ../.. wasm && node conversations.mjs [PROFILE ...]     (o200k cl100k by default; also deepseek, qwen)
//
// The exact side counts what the estimator walks (src/estimate.c): every text, thinking and tool-result text; a
// tool call's name and its arguments' keys and values, each string on its own; plus the profile's measured
// per-message and per-tool-call costs (overheads.json, from each tokenizer's chat template). Texts are priced one
// by one on both sides, so the ratio is the estimator's error over the texts a conversation really holds
// (thousands of strings of 10 B - 8 KB), not over calibration chunks.
import fs from 'node:fs';
import path from 'node:path';
import { HERE } from './lib.mjs';
import { loadTokenizer } from './tokenizers.mjs';
import { init, estimateTokens } from '../../js/hosts/node.js';
import { conversation, chineseConversation } from '../../tests/bench/lib.mjs';

const profiles = process.argv.slice(2).length ? process.argv.slice(2) : ['o200k', 'cl100k'];
const overheads = JSON.parse(fs.readFileSync(path.join(HERE, 'overheads.json'), 'utf8')).profiles;

// Every string the estimator prices in a value: object keys, strings, numbers and literals by their text.
function valueTexts(v, out) {
  if (v === null || typeof v !== 'object') out.push(String(v));
  else if (Array.isArray(v)) for (const x of v) valueTexts(x, out);
  else for (const [k, x] of Object.entries(v)) { out.push(k); valueTexts(x, out); }
  return out;
}

// The texts of an Anthropic-format conversation and its number of tool calls.
function walk(messages) {
  const texts = [];
  let calls = 0;
  for (const m of messages) {
    if (typeof m.content === 'string') { texts.push(m.content); continue; }
    for (const b of m.content) {
      if (b.type === 'text') texts.push(b.text);
      else if (b.type === 'thinking') texts.push(b.thinking);
      else if (b.type === 'tool_use') { calls++; texts.push(b.name, ...valueTexts(b.input, [])); }
      else if (b.type === 'tool_result') {
        if (typeof b.content === 'string') texts.push(b.content);
        else for (const t of b.content) texts.push(t.text);
      } else throw new Error(`conversations.mjs: no rule for a ${b.type} block`);
    }
  }
  return { texts: texts.filter((t) => t.length > 0), calls };
}

await init();
const cases = [['1,000 msgs', conversation(1000, 12)], ['1,000 msgs, Chinese', chineseConversation(1000, 15)]];
console.log('| conversation | profile | texts | exact | estimate | ratio |\n|---|---|---:|---:|---:|---:|');
for (const profile of profiles) {
  const tok = await loadTokenizer(profile);
  const o = overheads[profile];
  for (const [name, messages] of cases) {
    const { texts, calls } = walk(messages);
    const exact = texts.reduce((a, t) => a + tok.encode(t).length, 0) + messages.length * o.perMessage + calls * o.perToolCall;
    const est = estimateTokens(messages, { profile });
    console.log(`| ${name} | ${profile} | ${texts.length.toLocaleString('en-US')} | ${exact.toLocaleString('en-US')} | ${est.toLocaleString('en-US')} | ${(est / exact).toFixed(3)} |`);
  }
}
