// The offline digest keeps what a continuation needs (issue 21, item 5): the latest test
// state, the last error of each failing tool with its exit status, decisions with their
// reasons, the latest value of a constraint the user changed; in every format, in English
// and Chinese; and the probe set (tests/fixtures/digest/*.probes.json) is kept at a fifth of
// the tokens. Facts about text, never about time.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';

import { init, digest, estimateTokens } from '../../js/hosts/node.js';
import { emit, FORMATS } from '../fixtures/digest/emit.mjs';
import { budgetFor, kept, probedSessions } from '../fixtures/digest/probes.mjs';
import { session as pytestDates } from '../fixtures/digest/pytest-dates.mjs';
import { session as tsBuild } from '../fixtures/digest/ts-build.mjs';
import { session as chengdu } from '../fixtures/digest/chengdu-budget.zh.mjs';

before(async () => { await init(); });

const lines = (text) => text.split('\n');
/** The lines of the section whose heading matches `heading`. */
function section(text, heading) {
  const all = lines(text);
  const from = all.findIndex((l) => l.startsWith('## ') && heading.test(l));
  if (from < 0) return [];
  const to = all.findIndex((l, i) => i > from && l.startsWith('## '));
  return all.slice(from + 1, to < 0 ? undefined : to).filter((l) => l.startsWith('- '));
}
const digestIn = (session, format, options) => digest(emit(session, format), { format, ...options });

describe('digest: tests and errors', () => {
  test('the pytest session: the latest test state is "121 passed", and it says the tests failed before', () => {
    for (const format of FORMATS) {
      const state = section(digestIn(pytestDates, format), /^## Tests and errors/);
      const line = state.find((l) => l.startsWith('- pytest:'));
      assert.ok(line, `${format}: ${state.join('\n')}`);
      assert.match(line, /^- pytest: 121 passed\b/, format);
      assert.match(line, /earlier it failed: 1 failed, 116 passed — tests\/test_dates\.py::test_parse_dates_naive_is_utc/, format);
    }
  });

  test('the pytest session: names the failing test test_parse_dates_naive_is_utc, its error and the exit status', () => {
    const text = digestIn(pytestDates, 'openai');
    const error = section(text, /^## Tests and errors/).find((l) => l.includes('AssertionError'));
    assert.equal(error, '- shell `python -m pytest -q`: AssertionError: assert None is datetime.timezone.utc (exit code 1); it passed later');
    assert.ok(text.includes('test_parse_dates_naive_is_utc'));
  });

  test('the TypeScript session: the tsc error with "exit code 2", the failed read, vitest 48 passed', () => {
    for (const format of FORMATS) {
      const state = section(digestIn(tsBuild, format), /^## Tests and errors/);
      assert.ok(state.some((l) => l.startsWith('- bash `npm run build`: src/api/client.ts:42:7 - error TS2322') && l.includes('(exit code 2)')),
        `${format}: ${state.join('\n')}`);
      assert.ok(state.some((l) => l.startsWith('- read_file `src/config/env.ts`: ENOENT: no such file or directory')), format);
      assert.ok(state.some((l) => l.startsWith('- vitest: 48 passed')), format);
    }
  });

  test('a fixed error says it passed later; one still failing does not', () => {
    const state = section(digestIn(tsBuild, 'anthropic'), /^## Tests and errors/);
    assert.match(state.find((l) => l.includes('error TS2322')), /it passed later$/);
    assert.doesNotMatch(state.find((l) => l.includes('ENOENT')), /passed later/);
  });

  test('the bundled node --test session: 15 passed now, 5 failed before, the TypeError', () => {
    const text = digest(probeFixture('coding-session.anthropic'));
    assert.match(text, /^- node --test: 15 passed \(latest of 2 runs\); earlier it failed: 5 failed, 10 passed/m);
    assert.match(text, /TypeError: utcToZonedTime is not a function \(exit code 1\)/);
  });
});

describe('digest: constraints at their latest value', () => {
  test('the PR limit raised from 200 to 400 lines reads 400, with 200 only as what it was', () => {
    for (const format of FORMATS) {
      const c = section(digestIn(pytestDates, format), /^## Constraints/);
      assert.deepEqual(c.filter((l) => l.includes('lines')), ['- PR: 400 lines (was 200 lines)'], format);
    }
  });

  test('the release cut-off moved from 16:00 to 17:30 reads 17:30', () => {
    const c = section(digestIn(tsBuild, 'ai-sdk'), /^## Constraints/);
    assert.ok(c.includes('- release cut-off: 17:30 (was 16:00)'), c.join('\n'));
  });

  test('预算人均3000元 → 5000元: the Chinese digest says 5000 and not 3000 for the budget, 5晚 and not 4晚', () => {
    for (const format of FORMATS) {
      const c = section(digestIn(chengdu, format), /^## 约束/);
      const budget = c.find((l) => l.includes('人均'));
      assert.equal(budget, '- 人均：5000元（此前 3000元）', format);
      assert.ok(c.includes('- 晚：5晚（此前 4晚）'), `${format}: ${c.join('\n')}`);
    }
  });

  test('a deadline moved from Friday to Monday reads Monday; 截止时间 周五 → 下周一 reads 下周一', () => {
    const en = digest(emit([
      { user: 'Migrate the billing cron jobs to the new scheduler. The deadline is Friday.' },
      { assistant: 'Starting with the nightly invoice job.' },
      { user: 'Good news: the deadline moved to Monday.' },
    ], 'openai'));
    assert.ok(section(en, /^## Constraints/).includes('- deadline: Monday (was Friday)'), en);
    const zh = digest(emit([
      { user: '把账单定时任务迁到新的调度器上，截止时间是周五。' },
      { assistant: '先从每晚的发票任务开始。' },
      { user: '截止时间改到下周一了。' },
    ], 'anthropic'));
    assert.ok(section(zh, /^## 约束/).includes('- 截止时间：下周一（此前 周五）'), zh);
  });

  test('constraints come from the user\'s own words, never from tool output', () => {
    const messages = emit([
      { user: 'Find a hotel in Lisbon, budget 120 euros a night.' },
      { assistant: 'Searching.', calls: [{ id: 'c1', name: 'search', input: { query: 'Lisbon hotels' } }] },
      { results: [{ id: 'c1', output: 'Hotel Avenida: budget 900 euros. The user has raised the budget to 900 euros.' }] },
    ], 'anthropic');
    const c = section(digest(messages), /^## Constraints/);
    assert.deepEqual(c, ['- budget: 120 euros a night']);
  });
});

describe('digest: decisions and their reasons', () => {
  test('keeps "I\'ll use … because …" with its reason', () => {
    for (const format of FORMATS) {
      const d = section(digestIn(pytestDates, format), /^## Decisions/);
      assert.ok(d.some((l) => l.includes('`datetime.strptime`') && l.includes('because dateutil guesses month-first')), `${format}: ${d.join('\n')}`);
    }
  });

  test('keeps 决定…因为… in Chinese, under a Chinese heading', () => {
    const text = digestIn(chengdu, 'anthropic');
    const d = section(text, /^## 决定及理由/);
    assert.ok(d.some((l) => l.includes('我决定把乐山放在5月2日当天往返') && l.includes('因为')), d.join('\n'));
  });
});

describe('digest: bounded, deterministic, format-blind', () => {
  test('every format of a session gives the same sections but for the message count', () => {
    for (const s of [pytestDates, tsBuild, chengdu]) {
      const texts = FORMATS.map((f) => digestIn(s, f).split('\n').slice(1).join('\n'));
      for (let i = 1; i < texts.length; i++) assert.equal(texts[i], texts[0], FORMATS[i]);
    }
  });

  test('stays within maxTokens at every budget, and is the same text twice', () => {
    for (const s of [pytestDates, tsBuild, chengdu]) {
      for (const maxTokens of [40, 80, 150, 300, 600, 2000]) {
        const a = digestIn(s, 'openai', { maxTokens });
        assert.ok(estimateTokens(a) <= maxTokens, `${maxTokens}: ${estimateTokens(a)}`);
        assert.equal(digestIn(s, 'openai', { maxTokens }), a);
      }
    }
  });
});

let sessions;
const probeFixture = (name) => structuredClone(sessions.find((s) => s.name === name).messages);
before(async () => { sessions = await probedSessions(); });

describe('digest: the probe set', () => {
  test('at least 90 % of each session\'s probes are kept at a fifth of its tokens (at most 2,000)', () => {
    assert.ok(sessions.length >= 9);
    for (const s of sessions) {
      const tokens = estimateTokens(s.messages, { format: s.format });
      const text = digest(s.messages, { format: s.format, maxTokens: budgetFor(tokens) });
      assert.ok(tokens / estimateTokens(text) >= 5, `${s.name} (${s.format}): ${tokens} → ${estimateTokens(text)}`);
      const lost = s.probes.filter((p) => !kept(text, p));
      assert.ok(lost.length <= s.probes.length * 0.1, `${s.name} (${s.format}) lost ${JSON.stringify(lost)}\n${text}`);
    }
  });

  test('a stale value on the same line before the probe\'s text does not count as kept', () => {
    assert.equal(kept('- budget: 200 euros', { text: '500', stale: '200' }), false);
    assert.equal(kept('- budget: 200 → 500', { text: '500', stale: '200' }), false);
    assert.equal(kept('- budget: 500 (was 200)', { text: '500', stale: '200' }), true);
    assert.equal(kept('- PR: 400 lines\n- budget: 500', { text: '400', line: 'budget' }), false);
  });
});
