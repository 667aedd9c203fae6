#!/usr/bin/env node
/**
 * digest.mjs — `make bench`: what a summary keeps of what a continuation needs.
 *
 *   node tests/bench/digest.mjs                      both tables (the offline digest)
 *   node tests/bench/digest.mjs --show NAME          also print that session's digest
 *   node tests/bench/digest.mjs --request NAME       print the summarizer's request for a long
 *                                                    session (system prompt, then the prompt), to
 *                                                    hand to a model
 *   node tests/bench/digest.mjs --session NAME --summary FILE
 *                                                    score FILE (a model's summary of that
 *                                                    session's folded middle) beside the digest
 *
 * 1. Long agent sessions (tests/fixtures/digest/long/: Claude Code and Codex CLI shapes, English
 *    and Chinese, hundreds of messages): each is folded as a Compactor does with
 *    keepTail {tokens: 2000} and the default maxSummaryTokens (2,000); the summary of the
 *    middle is scored against the session's probes (kept), its false claims (a tool's text
 *    presented as a request, a stale value presented as current, harness text presented as
 *    the user's) and the reduction (the middle's tokens ÷ the summary's).
 *    Target: ≥ 90 % of the probes kept at ≥ 5× on every session, no false claim.
 * 2. The bundled fixtures' probes (tests/fixtures/digest/*.probes.json), digested at a fifth
 *    of each conversation's tokens (at most 2,000).
 * Missed probes and false claims are listed under each table. Deterministic: no timing, no
 * network.
 */
import { readFileSync } from 'node:fs';
import { init, digest, estimateTokens } from '../../js/hosts/node.js';
import { budgetFor, kept, probedSessions } from '../fixtures/digest/probes.mjs';
import { sessions as longSessions, fold, score } from '../fixtures/digest/long/evaluate.mjs';

const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : null);
const show = arg('--show'), requestOf = arg('--request'), summaryFile = arg('--summary'), only = arg('--session');
if (summaryFile && !only) throw new Error('--summary FILE needs --session NAME');
await init();

const pct = (a, b) => `${((100 * a) / b).toFixed(0)} %`;
const num = (n) => n.toLocaleString('en-US');

// ---- 1. long sessions ------------------------------------------------------------------------
const long = (await longSessions()).filter((s) => !only || s.name === only);
if (only && !long.length) throw new Error(`no long session named ${only}`);
if (requestOf) {
  const s = long.find((x) => x.name === requestOf) ?? (await longSessions()).find((x) => x.name === requestOf);
  if (!s) throw new Error(`no long session named ${requestOf}`);
  const { request } = await fold(s.messages);
  console.log(`${request.system}\n\n${request.prompt}`);
  process.exit(0);
}
const rows = [];
const notes = [];
for (const s of long) {
  const f = await fold(s.messages);
  const r = score(f.summary, s.spec);
  rows.push({ name: s.name, who: 'digest', s, f, r });
  if (summaryFile) {
    const text = readFileSync(summaryFile, 'utf8');
    const m = await fold(s.messages, { summarize: async () => text });
    rows.push({ name: s.name, who: `summary (${summaryFile})`, s, f: m, r: score(m.summary, s.spec) });
  }
  if (show === s.name) console.log(`--- ${s.name}: ${f.summaryTokens} tokens\n${f.summary}\n`);
}
console.log('## Long agent sessions: a fold with keepTail 2,000 tokens, the summary of the middle\n');
console.log('| session | shape | language | messages | summary | probes kept | false claims | middle → summary tokens | reduction |');
console.log('|---|---|---|---:|---|---:|---:|---:|---:|');
for (const { name, who, s, f, r } of rows) {
  console.log(`| ${name} | ${s.spec.style} | ${s.spec.language} | ${f.messages} | ${who} | ${r.kept} / ${r.total} (${pct(r.kept, r.total)}) | ` +
    `${r.falseClaims.length} | ${num(f.middleTokens)} → ${num(f.summaryTokens)} | ${f.reduction.toFixed(1)}× |`);
  for (const p of r.missed) notes.push(`- ${name}, ${who}: missed ${p.kind}: ${p.fact}`);
  for (const c of r.falseClaims) notes.push(`- ${name}, ${who}: FALSE CLAIM (${c.claim}): ${JSON.stringify(c.line.slice(0, 160))}`);
}
const digests = rows.filter((r) => r.who === 'digest');
const all = digests.reduce((a, x) => a + x.r.total, 0), got = digests.reduce((a, x) => a + x.r.kept, 0);
const worst = digests.reduce((m, x) => Math.min(m, x.r.kept / x.r.total), 1);
const least = digests.reduce((m, x) => Math.min(m, x.f.reduction), Infinity);
const claims = digests.reduce((a, x) => a + x.r.falseClaims.length, 0);
console.log(`\nThe digest: ${got} / ${all} probes kept (${pct(got, all)}); lowest ${pct(worst, 1)}, lowest reduction ${least.toFixed(1)}×, ` +
  `${claims} false claim${claims === 1 ? '' : 's'} (target: ≥ 90 % at ≥ 5× on every session, none false).`);
if (notes.length) console.log(`\n${notes.join('\n')}`);
if (only) process.exit(0);

// ---- 2. the bundled fixtures -----------------------------------------------------------------
const fixtureRows = [];
const missed = [];
for (const s of await probedSessions()) {
  const tokens = estimateTokens(s.messages, { format: s.format });
  const text = digest(s.messages, { format: s.format, maxTokens: budgetFor(tokens) });
  const out = estimateTokens(text);
  const lost = s.probes.filter((p) => !kept(text, p));
  fixtureRows.push({ ...s, tokens, out, keptCount: s.probes.length - lost.length });
  for (const p of lost) missed.push(`${s.name} (${s.format}): ${p.kind} ${JSON.stringify(p.text)}${p.line ? ` on the ${JSON.stringify(p.line)} line` : ''}`);
  if (show === s.name) console.log(`--- ${s.name} (${s.format}), ${out} tokens\n${text}\n`);
}
console.log('\n## Bundled fixtures: probes kept at a fifth of the tokens\n');
console.log('| session | format | probes kept | recall | tokens → digest | reduction |');
console.log('|---|---|---:|---:|---:|---:|');
for (const r of fixtureRows) {
  console.log(`| ${r.name} | ${r.format} | ${r.keptCount} / ${r.probes.length} | ${pct(r.keptCount, r.probes.length)} | ` +
    `${num(r.tokens)} → ${num(r.out)} | ${(r.tokens / r.out).toFixed(1)}× |`);
}
const fAll = fixtureRows.reduce((a, r) => a + r.probes.length, 0), fGot = fixtureRows.reduce((a, r) => a + r.keptCount, 0);
const fWorst = fixtureRows.reduce((m, r) => Math.min(m, r.keptCount / r.probes.length), 1);
const fLeast = fixtureRows.reduce((m, r) => Math.min(m, r.tokens / r.out), Infinity);
console.log(`\nAll fixtures: ${fGot} / ${fAll} probes kept (${pct(fGot, fAll)}); lowest recall ${pct(fWorst, 1)}, lowest reduction ${fLeast.toFixed(1)}×` +
  ` (target: ≥ 90 % at ≥ 5× on every session).`);
if (missed.length) console.log(`\nMissed:\n${missed.map((m) => `- ${m}`).join('\n')}`);
