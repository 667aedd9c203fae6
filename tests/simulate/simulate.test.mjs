// simulate(): the cost arithmetic on small sessions whose bills can be worked out by hand
// from each message's token count (the simulator prices a message as estimateTokens([m])
// in the provider's profile), for each provider's caching rules; the CLI; the SVG chart.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init, estimateTokens, simulate, simulationChart, Compactor, digestSummarizer } from '../../js/hosts/node.js';
import { sessionTurns } from '../../js/simulate/simulate.js';
import { PRICING } from '../../js/pricing/index.js';
import { agentSession } from '../bench/sessions.mjs';
import { docSnippet } from '../helpers/doc-snippets.mjs';

before(() => init());

const CLI = new URL('../../js/cli.js', import.meta.url).pathname;

/** Realistic tool output of about `lines` lines (a test run). */
function testRun(seed, lines) {
  const out = [];
  for (let i = 1; i <= lines; i++) out.push(`ok ${i} - estimate ${seed} keeps identity of message ${i * 7 + seed} (${(i % 9) + 0.25}ms)`);
  return out.join('\n');
}

/** [task, (assistant tool_use, user tool_result) × n, closing answer] in Anthropic format. */
function session(n, lines = 60, withTimes) {
  const messages = [{ role: 'user', content: 'The estimate tests fail on main; find out why.' }];
  for (let i = 0; i < n; i++) {
    const id = `toolu_${String(i).padStart(4, '0')}`;
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'bash', input: { command: `npm test -- part ${i}` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: testRun(i, lines) }] });
  }
  messages.push({ role: 'assistant', content: 'All parts pass now.' });
  if (withTimes) messages.forEach((m, i) => { if (m.role === 'assistant') m.timestamp = withTimes(i); });
  return messages;
}

const tokens = (messages, profile) => messages.map((m) => estimateTokens([m], { profile }));
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const close = (actual, expected, what) => assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} != ${expected}`);

describe('turns', () => {
  test('each run of assistant messages is one model call, whose request is the prefix before it', () => {
    const turns = sessionTurns(session(3));
    assert.deepEqual(turns.map((t) => [t.start, t.end]), [[1, 2], [3, 4], [5, 6], [7, 8]]);
  });

  test('OpenAI Responses items: function_call and reasoning items are the model\'s side', () => {
    const items = [
      { type: 'message', role: 'user', content: 'hi' }, { type: 'reasoning', id: 'r1', summary: [] },
      { type: 'function_call', call_id: 'c1', name: 'ls', arguments: '{}' }, { type: 'function_call_output', call_id: 'c1', output: 'a' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] },
    ];
    assert.deepEqual(sessionTurns(items).map((t) => [t.start, t.end]), [[1, 3], [4, 5]]);
  });
});

describe('Anthropic (breakpoint on the last message)', () => {
  const P = PRICING.anthropic.models['claude-sonnet-4-5'];

  test('no management: each request reads the previous one and writes what is new, at 0.1x and 1.25x', async () => {
    const messages = session(3);
    const t = tokens(messages, 'claude');
    const report = await simulate(messages, { pricing: 'anthropic', policies: ['none'] });
    const r = report.results[0];
    assert.equal(report.turns, 4);
    // Requests: [0], [0..2], [0..4], [0..6]; one under the minimum is billed at the base price.
    const sizes = [1, 3, 5, 7].map((n) => sum(t.slice(0, n)));
    let expected = 0, read = 0, cachedSoFar = 0;
    for (const size of sizes) {
      if (size < P.minCacheable) { expected += size * P.input; continue; }
      expected += cachedSoFar * P.cacheRead + (size - cachedSoFar) * P.cacheWrite5m;
      read += cachedSoFar;
      cachedSoFar = size;
    }
    close(r.inputUsd, expected / 1e6, 'input cost');
    assert.equal(r.cachedShare, read / sum(sizes));
    assert.equal(r.peakContext, sizes[3]);
    assert.equal(r.meanContext, Math.round(sum(sizes) / 4));
    assert.deepEqual(r.perTurn.map((p) => p.context), sizes);
  });

  test('below the minimum cacheable length nothing is read or written: all at the base price', async () => {
    const messages = session(2, 3); // a few short lines per result
    const t = tokens(messages, 'claude');
    const sizes = [1, 3, 5].map((n) => sum(t.slice(0, n)));
    assert.ok(sizes[2] < P.minCacheable);
    const r = (await simulate(messages, { policies: ['none'] })).results[0];
    close(r.inputUsd, (sum(sizes) * P.input) / 1e6, 'input cost');
    assert.equal(r.cachedShare, 0);
  });

  test('an entry lives 5 minutes: turns 6 minutes apart write everything again; with the 1-hour cache they read', async () => {
    const messages = session(2, 80, (i) => new Date(Date.UTC(2026, 11, 1, 9, 0) + i * 180_000).toISOString()); // 6 min per turn
    const t = tokens(messages, 'claude');
    const sizes = [1, 3, 5].map((n) => sum(t.slice(0, n)));
    assert.ok(sizes[1] >= P.minCacheable);
    const five = (await simulate(messages, { policies: ['none'] })).results[0];
    const writes5 = sizes.map((s) => (s < P.minCacheable ? s * P.input : s * P.cacheWrite5m));
    close(five.inputUsd, sum(writes5) / 1e6, '5m: every request written whole');
    assert.equal(five.cachedShare, 0);
    const hour = (await simulate(messages, { policies: ['none'], ttl: '1h' })).results[0];
    const first = sizes[0] < P.minCacheable;
    let expected = first ? sizes[0] * P.input : sizes[0] * P.cacheWrite1h;
    expected += (first ? sizes[1] * P.cacheWrite1h : sizes[0] * P.cacheRead + (sizes[1] - sizes[0]) * P.cacheWrite1h);
    expected += sizes[1] * P.cacheRead + (sizes[2] - sizes[1]) * P.cacheWrite1h;
    close(hour.inputUsd, expected / 1e6, '1h: reads');
    // turnSeconds overrides the timestamps: 0 puts every turn inside the lifetime.
    const inside = (await simulate(messages, { policies: ['none'], turnSeconds: 0 })).results[0];
    assert.ok(inside.cachedShare > 0);
  });

  test('clearing an old result every turn leaves no entry the next request matches whole: nothing is read', async () => {
    const messages = session(8, 60);
    const r = (await simulate(messages, { policies: ['micro-every-turn'] })).results[0];
    const none = (await simulate(messages, { policies: ['none'] })).results[0];
    assert.ok(r.perTurn.slice(5).every((p) => p.read === 0), 'a request after a clearing reads nothing');
    assert.ok(none.perTurn.slice(3).every((p) => p.read > 0));
    // With every earlier prefix cached ('prefix'), the part before the cleared result is
    // read: here a long system prompt (the request's head) and the older markers.
    const system = testRun(99, 80);
    const prefix = (await simulate({ system, messages }, { policies: ['micro-every-turn'], cacheMatch: 'prefix' })).results[0];
    const head = estimateTokens(system, { profile: 'claude' });
    assert.ok(head >= 1024 && prefix.perTurn.slice(5).every((p) => p.read > head));
    const bp = (await simulate({ system, messages }, { policies: ['micro-every-turn'] })).results[0];
    // With breakpoints only the first request's entry (system prompt and task) still matches.
    assert.ok(bp.perTurn.slice(5).every((p) => p.read === bp.perTurn[0].context));
  });
});

describe('OpenAI (automatic prefix caching)', () => {
  const P = PRICING.openai.models[PRICING.openai.defaultModel];

  test('the shared prefix is cached from 1,024 tokens on, in steps of 128; no write premium', async () => {
    const messages = session(3, 40);
    const t = tokens(messages, 'o200k');
    const sizes = [1, 3, 5, 7].map((n) => sum(t.slice(0, n)));
    const r = (await simulate(messages, { pricing: 'openai', policies: ['none'] })).results[0];
    let expected = 0, read = 0;
    sizes.forEach((size, i) => {
      const shared = i === 0 ? 0 : sizes[i - 1];
      const cached = shared >= 1024 ? Math.floor(shared / 128) * 128 : 0;
      read += cached;
      expected += cached * P.cachedInput + (size - cached) * P.input;
    });
    assert.ok(sizes[1] < 1024 && sizes[2] >= 1024, `the fixture straddles the minimum: ${sizes}`);
    close(r.inputUsd, expected / 1e6, 'input cost');
    assert.deepEqual(r.perTurn.map((p) => p.read), sizes.map((s, i) => (i && sizes[i - 1] >= 1024 ? Math.floor(sizes[i - 1] / 128) * 128 : 0)));
    assert.equal(r.cachedShare, read / sum(sizes));
  });

  test('in-memory retention: after 10 idle minutes nothing is cached; 24h retention keeps it', async () => {
    const messages = session(3, 80);
    const gone = (await simulate(messages, { pricing: 'openai', policies: ['none'], turnSeconds: 600 })).results[0];
    assert.equal(gone.cachedShare, 0);
    const kept = (await simulate(messages, { pricing: 'openai', policies: ['none'], turnSeconds: 600, ttl: '24h' })).results[0];
    assert.ok(kept.perTurn.slice(2).every((p) => p.read > 0));
  });
});

describe('DeepSeek (cache prefix units)', () => {
  const P = PRICING.deepseek.models[PRICING.deepseek.defaultModel];

  test('a request hits the end of the previous input and output, in 64-token units, at the hit price', async () => {
    const messages = session(3, 40);
    const t = tokens(messages, 'deepseek');
    const sizes = [1, 3, 5, 7].map((n) => sum(t.slice(0, n)));
    const r = (await simulate(messages, { pricing: 'deepseek', policies: ['none'] })).results[0];
    // The previous request plus its output (the assistant message) is a unit: the hit is
    // everything but the newest result.
    let expected = 0;
    const reads = sizes.map((size, i) => (i === 0 ? 0 : Math.floor((sizes[i - 1] + t[2 * i - 1]) / 64) * 64));
    sizes.forEach((size, i) => { expected += reads[i] * P.cacheHit + (size - reads[i]) * P.cacheMiss; });
    assert.deepEqual(r.perTurn.map((p) => p.read), reads);
    close(r.inputUsd, expected / 1e6, 'input cost');
  });

  test('a prefix two requests share becomes a unit the next request can hit', async () => {
    const messages = session(8, 40);
    const r = (await simulate(messages, { pricing: 'deepseek', policies: ['micro-every-turn'] })).results[0];
    // Clearing rewrites the middle every turn; the common prefix detected between two
    // requests (everything before the newly cleared result) is still hit.
    assert.ok(r.perTurn.slice(6).every((p) => p.read > 0 && p.read % 64 === 0));
  });
});

describe('policies and summaries', () => {
  test('the Compactor policy prices each summary as the summarizer\'s input plus output at base prices', async () => {
    const messages = session(10, 60);
    const report = await simulate(messages, { pricing: 'anthropic', policies: ['compactor:threshold=2000,keepTail=500'] });
    const r = report.results[0];
    assert.ok(r.summaries >= 1);
    const P = report.prices;
    close(r.summaryUsd, (r.summaryInputTokens * P.input + r.summaryOutputTokens * P.output) / 1e6, 'summary cost');
    close(r.totalUsd, r.inputUsd + r.summaryUsd, 'total');
    // The same Compactor, run by hand before each call, writes as many summaries.
    const ctx = [];
    let count = 0, next = 0;
    const compactor = new Compactor({ summarize: digestSummarizer(), threshold: 2000, keepTail: { tokens: 500 } });
    for (const turn of sessionTurns(messages)) {
      while (next < turn.start) ctx.push(structuredClone(messages[next++]));
      if ((await compactor.compact(ctx)).compacted) count++;
    }
    assert.equal(r.summaries, count);
  });

  test('context editing clears the full history anew once it passes its trigger, keeping the last 3 results', async () => {
    const messages = session(12, 60);
    const r = (await simulate(messages, { policies: ['context-editing:trigger=3000,keep=3'] })).results[0];
    const none = (await simulate(messages, { policies: ['none'] })).results[0];
    const over = none.perTurn.findIndex((p) => p.context > 3000);
    assert.ok(over > 0);
    assert.deepEqual(r.perTurn.slice(0, over).map((p) => p.context), none.perTurn.slice(0, over).map((p) => p.context));
    // At `over` there are only 3 results, all kept; from the next turn on the older ones go.
    assert.equal(r.perTurn[over].context, none.perTurn[over].context);
    assert.ok(r.perTurn.slice(over + 1).every((p, i) => p.context < none.perTurn[over + 1 + i].context));
  });

  test('turns over the window are counted', async () => {
    const messages = session(6, 60);
    const r = (await simulate(messages, { policies: ['none'], window: 2000 })).results[0];
    assert.equal(r.turnsOverWindow, r.perTurn.filter((p) => p.context > 2000).length);
    assert.equal(r.firstTurnOverWindow, r.perTurn.findIndex((p) => p.context > 2000));
  });

  test('bad options are MidfoldError invalid-option; a non-array session is invalid-input', async () => {
    await assert.rejects(simulate([], { pricing: 'acme' }), { code: 'invalid-option' });
    await assert.rejects(simulate([], { policies: ['sometimes'] }), { code: 'invalid-option' });
    await assert.rejects(simulate([], { policies: ['micro:often=1'] }), { code: 'invalid-option' });
    await assert.rejects(simulate([], { ttl: '2h' }), { code: 'invalid-option' });
    await assert.rejects(simulate({ nope: 1 }), { code: 'invalid-input' });
    // A misspelt part made a policy that manages nothing, billed as "no management" under its label.
    await assert.rejects(simulate([], { policies: [{ label: 'batched', compactr: { threshold: 80000 } }] }),
      (e) => e.code === 'invalid-option' && /policy: unknown option "compactr"/.test(e.message));
    await assert.rejects(simulate([], { policies: [{ contextEditing: { trigger: 100000, keepRecent: 3 } }] }),
      (e) => e.code === 'invalid-option' && /unknown option "keepRecent"; known: trigger, keep, clearAtLeast/.test(e.message));
  });
});

describe("the Compactor's defaults (batched micro-compaction)", () => {
  test('below microTrigger nothing is cleared, so the prompt prefix stays byte for byte', async () => {
    const messages = session(8, 30);
    const copy = structuredClone(messages);
    const report = await new Compactor({ summarize: digestSummarizer() }).compact(messages);
    assert.ok(report.tokensBefore < 40000);
    assert.equal(report.micro.cleared, 0);
    assert.deepStrictEqual(messages, copy);
  });

  test('above microTrigger, every old result goes in one batch when at least clearAtLeast is freed', async () => {
    const messages = session(12, 60);
    const report = await new Compactor({ summarize: digestSummarizer(), microTrigger: 3000, clearAtLeast: 1000, threshold: 1_000_000 }).compact(messages);
    assert.equal(report.micro.cleared, 12 - 3);
    const small = await new Compactor({ summarize: digestSummarizer(), microTrigger: 3000, clearAtLeast: 1_000_000, threshold: 1_000_000 }).compact(session(12, 60));
    assert.equal(small.micro.cleared, 0, 'too little to repay the cache rewrite');
  });

  test("policy: 'every-turn' clears on every call: one more result each time", async () => {
    const messages = session(5, 30);
    const report = await new Compactor({ summarize: digestSummarizer(), policy: 'every-turn' }).compact(messages);
    assert.equal(report.micro.cleared, 2);
    assert.throws(() => new Compactor({ summarize: digestSummarizer(), policy: 'sometimes' }), { code: 'invalid-option' });
  });

  test('past the threshold micro-compaction runs whatever microTrigger says, and spares the summary', async () => {
    const messages = session(12, 60);
    const report = await new Compactor({ summarize: digestSummarizer(), threshold: 6000, microTrigger: 1_000_000, clearAtLeast: 1000 }).compact(messages);
    assert.equal(report.micro.cleared, 12 - 3);
    assert.equal(report.reason, 'below-threshold');
  });

  test('past the threshold, when micro-compaction cannot free clearAtLeast, a summary is written instead', async () => {
    const messages = session(12, 60);
    const report = await new Compactor({ summarize: digestSummarizer(), threshold: 6000, clearAtLeast: 1_000_000 }).compact(messages);
    assert.equal(report.micro.cleared, 0);
    assert.equal(report.reason, 'compacted');
  });
});

describe("the Compactor's defaults by provider (pricing)", () => {
  test("pricing 'deepseek' raises the default threshold to 150,000, and the micro gate with it; an explicit threshold wins", () => {
    const of = (options) => { const c = new Compactor({ summarize: digestSummarizer(), ...options }); return [c.threshold, c.microTrigger, c.clearAtLeast, c.keepTailTokens]; };
    assert.deepEqual(of({}), [50000, 40000, 20000, 10000]);
    assert.deepEqual(of({ pricing: 'anthropic' }), [50000, 40000, 20000, 10000]);
    assert.deepEqual(of({ pricing: 'openai' }), [50000, 40000, 20000, 10000]);
    assert.deepEqual(of({ pricing: 'deepseek' }), [150000, 120000, 60000, 30000]);
    assert.deepEqual(of({ pricing: 'deepseek', threshold: 50000 }), [50000, 40000, 20000, 10000]);
    assert.throws(() => of({ pricing: 'DeepSeek' }), (e) => e.code === 'invalid-option' && /pricing must be one of 'anthropic', 'openai', 'deepseek'/.test(e.message));
  });

  test("a price list of the host's own (provider 'acme') runs the Compactor with the default threshold", async () => {
    const acme = { ...PRICING.anthropic, provider: 'acme' };
    const report = await simulate(agentSession(30, 1), { pricing: acme, policies: ['defaults'] });
    const anthropic = await simulate(agentSession(30, 1), { pricing: 'anthropic', policies: ['defaults'] });
    assert.equal(report.provider, 'acme');
    assert.equal(report.results[0].billedTokens, anthropic.results[0].billedTokens);
  });

  test('under DeepSeek prices a 30-turn session bills no more than no management; the 50k threshold billed 5.5 % more', async () => {
    // Seed 1: at 50k the clearings at turns 18 and 28 of 31 are not repaid before the end (a hit costs 2 % of a miss).
    const report = await simulate(agentSession(30, 1), { pricing: 'deepseek', policies: ['none', 'defaults', 'compactor:threshold=50k'] });
    const [none, defaults, at50k] = report.results.map((r) => r.billedTokens);
    assert.ok(defaults <= none, `defaults ${defaults} <= no management ${none}`);
    assert.ok(at50k > 1.05 * none, `50k ${at50k} > 1.05 x ${none}`);
    assert.equal(report.results[1].turnsOverWindow, 0);
    assert.deepEqual(report.results.map((r) => r.compactor), [undefined,
      { threshold: 150000, microTrigger: 120000, clearAtLeast: 60000, keepRecent: 3 },
      { threshold: 50000, microTrigger: 40000, clearAtLeast: 20000, keepRecent: 3 }], 'each result says what its Compactor ran with');
  });
});

test('onProgress hears of every turn of every policy, in order; anything but a function is refused', async () => {
  const messages = session(4);
  const heard = [];
  const report = await simulate(messages, { policies: ['none', 'micro-every-turn'], onProgress: (p) => heard.push(p) });
  const expected = [];
  for (const [policyIndex, policy] of ['none', 'micro-every-turn'].entries())
    for (let turn = 1; turn <= report.turns; turn++) expected.push({ policy, label: report.results[policyIndex].label, policyIndex, policies: 2, turn, turns: report.turns });
  assert.deepEqual(heard, expected);
  await assert.rejects(simulate(messages, { onProgress: true }), (e) => e.code === 'invalid-option' && /onProgress/.test(e.message));
});

describe('CLI and chart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'midfold-sim-'));
  const file = join(dir, 'session.json');
  writeFileSync(file, JSON.stringify(agentSession(30, 3)));

  test('midfold simulate prints one line per policy with cost, cached share, peak, mean, summaries, overflow', () => {
    const out = execFileSync(process.execPath, [CLI, 'simulate', file, '--pricing', 'openai', '--policy', 'none', '--policy', 'every-turn'], { encoding: 'utf8' });
    // The CLI counts in the Compactor's profile, as every command does (simulate() itself: the provider's).
    assert.match(out, /^31 turns, openai gpt-5\.4 \(cache in_memory\), tokens by the safe profile, window 200000$/m);
    const o200k = execFileSync(process.execPath, [CLI, 'simulate', file, '--pricing', 'openai', '--policy', 'none', '--profile', 'o200k'], { encoding: 'utf8' });
    assert.match(o200k, /tokens by the o200k profile/);
    assert.match(out, /^no management\s+\$\d+\.\d{4}\s+\d+\.\d %\s+\d+k\s+\d+k\s+0 \(\$0\.0000\)\s+0$/m);
    assert.match(out, /^every turn: micro keep 3, compact at 50k\s+\$\d+\.\d{4}/m);
  });

  test('--json gives the report; --chart writes a well-formed SVG with a line per policy', () => {
    const svg = join(dir, 'chart.svg');
    const out = execFileSync(process.execPath, [CLI, 'simulate', file, '--json', '--chart', svg], { encoding: 'utf8' });
    const report = JSON.parse(out);
    assert.equal(report.results.length, 5);
    const text = readFileSync(svg, 'utf8');
    assert.match(text, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.equal((text.match(/<polyline /g) || []).length, 2 * report.results.length);
    assertWellFormed(text);
  });

  test('bad usage exits 2 with a reason', () => {
    const r = spawnSync(process.execPath, [CLI, 'simulate', file, '--pricing', 'acme'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown pricing "acme"/);
  });

  test('the chart tells coinciding lines apart and stops a policy\'s cost at its first turn over the window', async () => {
    // Two policies that manage nothing draw the same line; a small window is passed at turn 12.
    const report = await simulate(agentSession(30, 3), { window: 20000, policies: ['none', { name: 'also-none', label: 'also nothing' }, 'compactor:threshold=12k'] });
    const over = report.results[0].perTurn.findIndex((p) => p.context > 20000);
    assert.ok(over > 0 && report.results[0].firstTurnOverWindow === over);
    const svg = simulationChart(report);
    assertWellFormed(svg);
    const lines = [...svg.matchAll(/<polyline ([^>]*)>/g)].map((m) => ({
      style: `${/stroke="([^"]+)"/.exec(m[1])[1]} ${(/stroke-dasharray="([^"]+)"/.exec(m[1]) || [])[1] || ''}`,
      points: /points="([^"]*)"/.exec(m[1])[1].split(' ').filter(Boolean).length,
    }));
    assert.equal(new Set(lines.slice(0, 3).map((l) => l.style)).size, 3, 'a colour and a dash pattern per policy');
    assert.deepEqual(lines.slice(3).map((l) => l.points), [over, over, report.turns], 'cost lines stop at the first turn over the window');
    assert.match(svg, /no management \(impossible: turn \d+ is over the window\)/);
    assert.equal((svg.match(/stroke-width="2"\/>/g) || []).length >= 2, true, 'a cross where each stops');
    // Drawn narrow, every title still fits: it is wrapped.
    const narrow = simulationChart(report, { width: 320 });
    assertWellFormed(narrow);
    for (const [, text] of narrow.matchAll(/<text [^>]*>([^<]*)<\/text>/g)) assert.ok(text.length * 6.4 <= 320, text);
  });

  test('labels are escaped in the SVG', () => {
    const svg = simulationChart({ turns: 2, window: 10, provider: 'p', model: 'm<&>', results: [{ label: 'a "b" <c> & d', perTurn: [{ context: 1, cumulativeUsd: 0 }, { context: 2, cumulativeUsd: 1 }] }] });
    assertWellFormed(svg);
    assert.ok(svg.includes('a &quot;b&quot; &lt;c&gt; &amp; d'));
  });
});

/** Tags balance and nest, attributes are quoted, no raw & or < in text. */
function assertWellFormed(xml) {
  const stack = [];
  const re = /<(\/?)([a-zA-Z]+)((?:\s+[a-zA-Z0-9:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/g;
  let m, at = 0;
  while ((m = re.exec(xml))) {
    assert.equal(m.index, at, `unparsed text at ${at}: ${xml.slice(at, at + 40)}`);
    at = re.lastIndex;
    if (m[5] !== undefined) { assert.ok(!/&(?!amp;|lt;|gt;|quot;|#39;)/.test(m[5]), `raw & in ${m[5]}`); continue; }
    if (m[1]) assert.equal(stack.pop(), m[2], `</${m[2]}> closes the wrong tag`);
    else if (!m[4]) stack.push(m[2]);
  }
  assert.equal(at, xml.length);
  assert.deepEqual(stack, []);
}

describe('turn timing', () => {
  test('timestamps count only when every turn has one; otherwise turns are inside the lifetime', async () => {
    const messages = session(3, 80, (i) => new Date(Date.UTC(2026, 11, 1, 9, 0) + i * 180_000).toISOString());
    const stamped = (await simulate(messages, { policies: ['none'] })).results[0];
    assert.equal(stamped.cachedShare, 0, '6 minutes between turns: every 5-minute entry expired');
    delete messages[3].timestamp;
    const partial = (await simulate(messages, { policies: ['none'] })).results[0];
    assert.ok(partial.cachedShare > 0);
  });

  test("policy specs take a profile: 'micro:trigger=5k,profile=safe' counts the trigger in safe tokens", async () => {
    const messages = session(8, 60);
    const [a, b] = (await simulate(messages, { policies: ['micro:trigger=5k,clearAtLeast=1k', 'micro:trigger=5k,clearAtLeast=1k,profile=safe'] })).results;
    assert.equal(a.name, 'micro:trigger=5k,clearAtLeast=1k');
    // safe errs high, so its trigger is passed sooner and the context stays smaller.
    assert.ok(b.peakContext < a.peakContext, `${b.peakContext} < ${a.peakContext}`);
    await assert.rejects(simulate(messages, { policies: 'none' }), { code: 'invalid-option' });
  });
});

test("combinations: 'compactor:…+context-editing:…' runs the client's Compactor, then the server's clearing on what it sends", async () => {
  const messages = session(12, 60);
  const spec = 'compactor:threshold=8000,keepTail=2000+context-editing:trigger=3000,keep=3';
  const [client, server, both] = (await simulate(messages, {
    policies: ['compactor:threshold=8000,keepTail=2000', 'context-editing:trigger=3000,keep=3', spec],
  })).results;
  assert.equal(both.name, spec);
  assert.ok(client.summaries > 0 && both.summaries > 0, 'the client side compacts');
  assert.ok(both.perTurn.every((p, i) => p.context <= client.perTurn[i].context), 'the server clears what the client sends');
  assert.ok(both.perTurn.some((p, i) => p.context < server.perTurn[i].context), 'and the client\'s summaries count');
});

test('Anthropic: leading system messages get their own breakpoint; beyond 20 blocks only it is found', async () => {
  const system = { role: 'system', content: testRun(98, 80) };
  const messages = [system, ...session(14, 60)];
  const r = (await simulate(messages, { policies: ['micro-every-turn'] })).results[0];
  const systemTokens = estimateTokens([system], { profile: 'claude' });
  const first = r.perTurn[0].context; // system + task: the first request's own entry
  assert.ok(systemTokens >= 1024);
  // Early on the first request's entry (system and task) is within 20 blocks of the end.
  assert.equal(r.perTurn[5].read, first);
  // Later it is not, and the system prompt's breakpoint is what still matches.
  const late = r.perTurn.slice(-3);
  assert.ok(late.every((p) => p.read === systemTokens), late.map((p) => p.read).join(' '));
});

test("docs/cost.md's simulate snippet runs as written", () => {
  const code = docSnippet('simulate');
  const entry = new URL('../../js/hosts/node.js', import.meta.url).href;
  const body = code.replace(/from 'midfold';/, `from ${JSON.stringify(entry)};`);
  assert.notEqual(body, code, 'the snippet imports from midfold');
  const dir = mkdtempSync(join(tmpdir(), 'midfold-snippet-'));
  const file = join(dir, 'snippet.mjs');
  writeFileSync(file, `const messages = ${JSON.stringify(agentSession(30, 5))};\n${body}\nconsole.log(JSON.stringify(report.results.map((r) => [r.name, r.summaries, r.turnsOverWindow])));\n`);
  const out = JSON.parse(execFileSync('node', [file], { encoding: 'utf8' }));
  assert.deepEqual(out.map((r) => r[0]), ['none', 'every-turn', 'defaults']);
});

test('with signed thinking, each turn is priced as the request the Compactor leaves: the thinking it drops from kept turns is not billed', async () => {
  const { claudeCodeLog } = await import('../fixtures/logs/build.mjs');
  const { readAgentLog } = await import('../../js/hosts/node.js');
  const { messages } = readAgentLog(claudeCodeLog());
  const report = await simulate(messages, { policies: ['defaults'] });
  // The same Compactor, driven by hand over the same turns, each request priced from fresh copies.
  const compactor = new Compactor({ pricing: 'anthropic', summarize: digestSummarizer() });
  const ctx = [];
  let next = 0, dropped = 0;
  const contexts = [];
  for (const { start } of sessionTurns(messages)) {
    for (; next < start; next++) ctx.push(structuredClone(messages[next]));
    const r = await compactor.compact(ctx);
    dropped += r.thinkingRemoved || 0;
    contexts.push(sum(ctx.map((m) => estimateTokens([structuredClone(m)], { profile: 'claude' }))));
  }
  assert.ok(dropped > 0, 'the Compactor dropped signed thinking from kept turns');
  assert.deepEqual(report.results[0].perTurn.map((p) => p.context), contexts);
});
