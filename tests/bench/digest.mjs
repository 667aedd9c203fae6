#!/usr/bin/env node
/**
 * digest.mjs — `make bench`: what the offline digest keeps of what a continuation needs.
 *
 *   node tests/bench/digest.mjs [--show NAME]
 *
 * For every probed session (tests/fixtures/digest/*.probes.json: bundled fixtures in their
 * own format, the sessions written as turns in all five formats) the digest is written at a
 * fifth of the conversation's estimated tokens (at most the default 2,000) and the table
 * gives the probes kept / total (recall) and conversation tokens → digest tokens (the
 * reduction). Probes a digest misses are listed under the table. --show NAME prints that
 * session's digests. Deterministic: no timing, no network.
 */
import { init, digest, estimateTokens } from '../../js/hosts/node.js';
import { budgetFor, kept, probedSessions } from '../fixtures/digest/probes.mjs';

const show = process.argv.includes('--show') ? process.argv[process.argv.indexOf('--show') + 1] : null;
await init();

const rows = [];
const missed = [];
for (const s of await probedSessions()) {
  const tokens = estimateTokens(s.messages, { format: s.format });
  const text = digest(s.messages, { format: s.format, maxTokens: budgetFor(tokens) });
  const out = estimateTokens(text);
  const lost = s.probes.filter((p) => !kept(text, p));
  rows.push({ ...s, tokens, out, keptCount: s.probes.length - lost.length });
  for (const p of lost) missed.push(`${s.name} (${s.format}): ${p.kind} ${JSON.stringify(p.text)}${p.line ? ` on the ${JSON.stringify(p.line)} line` : ''}`);
  if (show === s.name) console.log(`--- ${s.name} (${s.format}), ${out} tokens\n${text}\n`);
}

const pct = (a, b) => `${((100 * a) / b).toFixed(0)} %`;
console.log('## Offline digest: probes kept at a fifth of the tokens\n');
console.log('| session | format | probes kept | recall | tokens → digest | reduction |');
console.log('|---|---|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(`| ${r.name} | ${r.format} | ${r.keptCount} / ${r.probes.length} | ${pct(r.keptCount, r.probes.length)} | ` +
    `${r.tokens.toLocaleString('en-US')} → ${r.out.toLocaleString('en-US')} | ${(r.tokens / r.out).toFixed(1)}× |`);
}
const all = rows.reduce((a, r) => a + r.probes.length, 0), got = rows.reduce((a, r) => a + r.keptCount, 0);
const worst = rows.reduce((m, r) => Math.min(m, r.keptCount / r.probes.length), 1);
const least = rows.reduce((m, r) => Math.min(m, r.tokens / r.out), Infinity);
console.log(`\nAll sessions: ${got} / ${all} probes kept (${pct(got, all)}); lowest recall ${pct(worst, 1)}, lowest reduction ${least.toFixed(1)}×` +
  ` (target: ≥ 90 % at ≥ 5× on every session).`);
if (missed.length) console.log(`\nMissed:\n${missed.map((m) => `- ${m}`).join('\n')}`);
