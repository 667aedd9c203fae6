// The offline digest on long agent sessions (tests/fixtures/digest/long/: Claude Code and
// Codex CLI shapes, English and Chinese, 240-400 messages), folded as a Compactor folds them
// (keepTail 2,000 tokens): every session keeps at least 90 % of its probes at 5x or more and
// makes no false claim; and what the digest does with the shapes those logs have — harness
// text, boilerplate turns, apply_patch, shell paths, retries, several test suites, a long
// report. The digest is deterministic, so the figures are facts, not timings.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';

import { init, digest, estimateTokens, planCompaction } from '../../js/hosts/node.js';
import { sessions, fold, score, kept, falseClaims } from '../fixtures/digest/long/evaluate.mjs';

let all;
const folded = new Map();
before(async () => {
  await init();
  all = await sessions();
  for (const s of all) folded.set(s.name, await fold(s.messages));
});

/** The lines of the section whose heading matches `heading`. */
function section(text, heading) {
  const lines = text.split('\n');
  const from = lines.findIndex((l) => l.startsWith('## ') && heading.test(l));
  if (from < 0) return [];
  const to = lines.findIndex((l, i) => i > from && l.startsWith('## '));
  return lines.slice(from + 1, to < 0 ? undefined : to).filter((l) => l.startsWith('- '));
}
const REQUESTS = /^## (User requests|用户的请求)/;

describe('the digest on long agent sessions', () => {
  test('six sessions or more, hundreds of messages each, in both shapes and both languages', () => {
    assert.ok(all.length >= 6);
    for (const s of all) assert.ok(s.messages.length >= 200 && s.spec.probes.length >= 15, s.name);
    for (const style of ['claude-code', 'codex']) for (const language of ['en', 'zh'])
      assert.ok(all.some((s) => s.spec.style === style && s.spec.language === language), `${style} ${language}`);
  });

  test('every session keeps at least 90 % of its probes, at 5x or more, with no false claim', () => {
    for (const s of all) {
      const f = folded.get(s.name);
      const r = score(f.summary, s.spec);
      assert.ok(f.reduction >= 5, `${s.name}: ${f.middleTokens} -> ${f.summaryTokens}`);
      assert.ok(r.kept >= 0.9 * r.total, `${s.name} missed ${r.missed.map((p) => p.fact).join('; ')}\n${f.summary}`);
      assert.deepEqual(r.falseClaims, [], s.name);
    }
  });

  test('it stays within the Compactor\'s maxSummaryTokens (2,000), and the fold is the same twice', async () => {
    for (const s of all) {
      const f = folded.get(s.name);
      assert.ok(estimateTokens(f.summary, { profile: 'safe' }) <= 2000, s.name);
      assert.equal((await fold(s.messages)).summary, f.summary, s.name);
    }
  });
});

describe('the user\'s requests are the user\'s', () => {
  test('no harness text, interruption marker or acknowledgement is listed as a request', () => {
    for (const s of all) {
      for (const l of section(folded.get(s.name).summary, REQUESTS)) {
        assert.doesNotMatch(l, /<\/?[a-z_-]+>|\[Request interrupted|AGENTS\.md|Caveat: The messages below/, `${s.name}: ${l}`);
        assert.doesNotMatch(l, /^- (continue|ok|yes|继续|好的|辛苦了)[.。!！]?$/i, `${s.name}: ${l}`);
      }
    }
  });

  test('a Codex session\'s `continue` turns and <turn_aborted> are left out, its requests kept', () => {
    const requests = section(folded.get('csv-bom.codex').summary, REQUESTS);
    assert.ok(requests.some((l) => l.includes('UTF-8 BOM')) && requests.some((l) => l.includes("don't run the release tests")), requests.join('\n'));
    assert.equal(requests.length, 4, requests.join('\n'));
  });

  test('a turn wrapped in a tag of the harness\'s shape is left out even when the tag is new to midfold', () => {
    const text = digest([
      { role: 'user', content: '<ide_selection>\nThe user selected lines 4-9 of src/a.ts\n</ide_selection>' },
      { role: 'user', content: 'Rename `parseDate` to `parseIsoDate` everywhere.' },
      { role: 'assistant', content: 'Done.' },
    ]);
    assert.deepEqual(section(text, REQUESTS), ['- Rename `parseDate` to `parseIsoDate` everywhere.']);
  });

  test('the language comes from the user\'s own words: a Chinese Codex session gets Chinese headings and a Chinese summary request', () => {
    const s = all.find((x) => x.name === 'orders-etl-zh.codex');
    assert.match(folded.get(s.name).summary, /^## 用户的请求$/m);
    assert.equal(planCompaction(s.messages, { keepTailTokens: 2000 }).language, 'zh');
  });
});

describe('what the tools did', () => {
  test('files come from apply_patch headers and shell commands, with what happened to each', () => {
    const files = section(folded.get('offline-notes.codex').summary, /^## Files/);
    assert.ok(files.includes('- src/utils/retry.ts: moved to src/net/retry.ts'), files.join('\n'));
    assert.ok(files.includes('- src/legacy/sw-cache.js: deleted'), files.join('\n'));
    assert.ok(files.some((l) => l.startsWith('- src/offline/queue.ts: created')), files.join('\n'));
    const zh = section(folded.get('orders-zh.claude').summary, /^## 涉及的文件/);
    assert.ok(zh.includes('- src/mock/orders.json：删除'), zh.join('\n')); // `rm src/mock/orders.json && git status --short`
  });

  test('one command\'s two different errors are both kept; eight identical retries are one line', () => {
    const state = section(folded.get('csv-bom.codex').summary, /^## Tests and errors/);
    const build = state.filter((l) => l.includes('`cargo build`'));
    assert.ok(build.some((l) => l.includes('E0308')) && build.some((l) => l.includes('E0599')), state.join('\n'));
    const migrate = section(folded.get('ratelimit.claude').summary, /^## Tests and errors/).filter((l) => l.includes('db:migrate'));
    assert.deepEqual(migrate, ['- Bash `npm run db:migrate`: Error: connect ECONNREFUSED 127.0.0.1:5432 (exit code 1, 8 times); it passed later']);
  });

  test('the retries of a resolved failure do not push out an open one', () => {
    const state = section(folded.get('ratelimit.claude').summary, /^## Tests and errors/);
    const open = state.findIndex((l) => l.includes('make build')), resolved = state.findIndex((l) => l.includes('db:migrate'));
    assert.ok(open >= 0 && resolved > open, state.join('\n'));
    assert.doesNotMatch(state[open], /passed later/);
  });

  test('each test suite keeps its own latest counts', () => {
    const state = section(folded.get('orders-etl-zh.codex').summary, /^## 测试与错误/);
    assert.ok(state.some((l) => l.startsWith('- pytest `pytest tests/unit -q`：57 passed')), state.join('\n'));
    assert.ok(state.some((l) => l.startsWith('- pytest `pytest tests/integration -q`：12 passed')), state.join('\n'));
    const go = section(folded.get('checkout-latency.claude').summary, /^## Tests and errors/);
    assert.ok(go.some((l) => l.startsWith('- go test: 4 packages ok')) && go.some((l) => l.includes('88 passed')), go.join('\n'));
  });

  test('source printed by sed or Get-Content, and a search with no match, are no errors', () => {
    for (const name of ['csv-bom.codex', 'offline-notes.codex', 'orders-etl-zh.codex']) {
      const state = section(folded.get(name).summary, /^## (Tests and errors|测试与错误)/).join('\n');
      assert.doesNotMatch(state, /`(sed -n|nl -ba|Get-Content|rg -n|Select-String)/, `${name}\n${state}`);
    }
  });

  test('a sub-agent\'s report that talks about errors is no failed call', () => {
    for (const name of ['ratelimit.claude', 'checkout-latency.claude']) {
      const text = folded.get(name).summary;
      assert.doesNotMatch(section(text, /^## Tests and errors/).join('\n'), /^- Task/m, name);
      assert.ok(section(text, /^## Tool activity/).some((l) => /^- Task ×\d+: /.test(l)), name);
    }
  });
});

describe('decisions and conclusions', () => {
  test('decisions are the assistant\'s choices with their reasons, never "Let me …" narration', () => {
    for (const s of all) {
      const decisions = section(folded.get(s.name).summary, /^## (Decisions|决定)/);
      for (const l of decisions) assert.doesNotMatch(l, /^- (Let me|Now let me|Checking|先看|再看|确认一下)/, `${s.name}: ${l}`);
    }
    const zh = section(folded.get('orders-etl-zh.codex').summary, /^## 决定及理由/);
    assert.ok(zh.some((l) => l.includes('polars') && l.includes('因为')), zh.join('\n'));
  });

  test('a long report is condensed by sentence: each root cause keeps its own line, no word is cut', () => {
    const lines = section(folded.get('checkout-latency.claude').summary, /^## Latest assistant conclusions/);
    for (const cause of ['The FX rate cache is disabled', 'The database pool has 5 connections', 'cart_items has no index',
      'The web client retries', 'Debug logging serializes']) assert.ok(lines.some((l) => l.includes(cause)), cause);
    for (const l of lines) assert.match(l, /([.。)）`:：]|…)$/, l);
  });

  test('a conclusion that gives a value the user changed afterwards is left out', () => {
    const text = folded.get('csv-bom.codex').summary;
    assert.ok(!text.includes('under the 5 MB limit'), text);
  });
});

describe('the budget', () => {
  test('a larger budget keeps more, a smaller one fewer, and the digest says how many lines it left out', async () => {
    const s = all.find((x) => x.name === 'checkout-latency.claude');
    const { removed } = folded.get(s.name);
    const small = digest(removed, { maxTokens: 600 }), large = digest(removed, { maxTokens: 200000 });
    assert.ok(estimateTokens(small) <= 600 && estimateTokens(small) > 500, `${estimateTokens(small)}`);
    const left = small.match(/^\((\d+) lower-priority lines left out to fit the budget\.\)$/m);
    assert.ok(left && Number(left[1]) > 10, small);
    assert.doesNotMatch(large, /left out to fit the budget/);
    assert.ok(large.split('\n').length > small.split('\n').length * 2);
    for (const l of small.split('\n').filter((x) => x.startsWith('- '))) assert.ok(large.includes(l), l); // the same lines, fewer of them
  });

  test('at a tenth of the budget the task, the open failure and the changed constraint stay', () => {
    const { removed } = folded.get('ratelimit.claude');
    const text = digest(removed, { maxTokens: 200 });
    assert.ok(estimateTokens(text) <= 200);
    assert.ok(text.includes('Add per-tenant rate limiting'), text);
    assert.ok(text.includes('make build'), text);
  });
});

describe('the evaluation itself', () => {
  const spec = { probes: [], false: [{ claim: 'old limit as current', all: ['limit', '100'], unless: ['was 100'] }] };
  test('a probe is kept when one line holds every term; a stale value before it on that line does not count', () => {
    assert.equal(kept('- free plan: 60 requests', { all: ['free', '60'], stale: ['100'] }), true);
    assert.equal(kept('- free plan: 60 requests (was 100)', { all: ['free', '60'], stale: ['100'] }), true);
    assert.equal(kept('- free plan: 100 → 60', { all: ['free', '60'], stale: ['100'] }), false);
    assert.equal(kept('- free plan\n- 60 requests', { all: ['free', '60'] }), false);
    assert.equal(kept('- Cargo.toml: Patched', { all: ['cargo.toml', ['edit', 'patch']] }), true);
  });
  test('a false claim is one line holding its terms and none of its excuses; harness text anywhere is one', () => {
    assert.deepEqual(falseClaims('- limit: 60 (was 100)', spec), []);
    assert.equal(falseClaims('- limit: 100', spec).length, 1);
    assert.equal(falseClaims('The user said <environment_context> …', spec)[0].claim, "harness text presented as the user's: <environment_context>");
  });
  test('any summary can be scored: an empty one keeps nothing and claims nothing', () => {
    const s = all[0];
    const r = score('', s.spec);
    assert.equal(r.kept, 0);
    assert.deepEqual(r.falseClaims, []);
  });
});
