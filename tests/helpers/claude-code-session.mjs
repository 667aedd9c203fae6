// Claude Code sessions as the Anthropic Messages API sees them: the shapes a Claude Code .jsonl log turns
// into, deterministic (seeded). What real sessions have and hand-written fixtures forget:
// - a compaction summary as the first user message ("This session is being continued from a previous
//   conversation..."), when asked for;
// - signed thinking on most assistant turns, also mid tool loop, before text and tool calls;
// - parallel tool calls (Read + Grep, two Bash runs), and some responses split across lines the way the log
//   writes one content block per entry: [thinking], [tool_use], [tool_use] as consecutive assistant messages,
//   answered by consecutive user messages with one tool_result each (the API merges consecutive turns), when
//   asked for (`splitLines`);
// - long tool output: `cat -n` style file reads, test runs, greps, git diffs, an error result, TodoWrite;
// - Chinese requests and output every few turns.
//
//   const messages = claudeCodeSession({ seed: 7, turns: 24 });

import { prng } from './prng.mjs';

const FILES = ['src/ledger/round.ts', 'src/ledger/totals.ts', 'src/report/render.tsx', 'src/i18n/zh-CN.json',
  'test/ledger.test.ts', 'src/api/client.ts'];
const REQUESTS = [
  'The monthly totals are off by a cent for some regions. Find out why and fix it.',
  'Run the ledger tests and fix whatever fails.',
  '报表里东北区的金额少了一分钱，帮我查一下 {file} 的舍入逻辑。',
  'Add a regression test for the rounding bug in {file}.',
  '把 {file} 里的时区处理统一改成 UTC，然后跑一遍测试。',
  'Search for other callers of roundHalfEven and update them.',
];
const THOUGHTS = [
  'The user wants the rounding fixed. I should read {file} first and look at how halves are rounded, then run the tests to see which cases fail before I change anything.',
  'Both results are in. The totals are summed after rounding each row, which is where the cent goes missing; summing in integer cents and rounding once would fix it. Let me check the callers before editing.',
  '测试输出显示东北区的合计少了 0.01，应该是逐行四舍五入之后再求和造成的。先看一下 {file} 里 roundHalfEven 的实现。',
  'The edit applied cleanly. Now I need to run the whole suite again, since totals.ts is imported by the report renderer as well.',
];

/** A signature as the API returns one: base64 of about 200-400 bytes, never read as text. */
function signature(rand) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let s = 'Eq';
  const n = 280 + Math.floor(rand() * 240);
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(rand() * 64)];
  return s;
}

const pick = (rand, list) => list[Math.floor(rand() * list.length)];
const fill = (s, file) => s.replaceAll('{file}', file);

function fileRead(rand, file, lines) {
  const out = [];
  for (let i = 1; i <= lines; i++) {
    const n = Math.floor(rand() * 900);
    const line = i % 11 === 0 ? `  // amounts stay in integer cents until the last step (${n})`
      : i % 7 === 0 ? `  // 金额一律用整数分保存，最后一步才换算成元（${n}）`
        : `  export function round${i}(value: number, mode: RoundingMode = 'half-even'): number { return applyMode(value * ${n}, mode); }`;
    out.push(`${String(i).padStart(6)}\t${line}`);
  }
  return out.join('\n');
}

function testRun(rand, zh) {
  const out = ['> ledger@2.4.1 test', '> vitest run --reporter=verbose', ''];
  const count = 12 + Math.floor(rand() * 20);
  let failed = 0;
  for (let i = 0; i < count; i++) {
    const ok = rand() > 0.2;
    if (!ok) failed++;
    out.push(` ${ok ? '✓' : '×'} test/ledger.test.ts > totals > region ${i} sums rows in cents ${Math.floor(rand() * 30)}ms`);
    if (!ok) {
      out.push(zh ? `   → 期望 1287.50，实际得到 1287.49（第 ${i} 行）` : `   → expected 1287.50 to be 1287.49 // Object.is equality`);
      out.push(`     at test/ledger.test.ts:${40 + i}:23`);
    }
  }
  out.push('', ` Test Files  ${failed ? 1 : 0} failed | 3 passed (4)`, `      Tests  ${failed} failed | ${count - failed} passed (${count})`,
    `   Duration  ${(1 + rand() * 3).toFixed(2)}s (transform 212ms, setup 0ms, collect 481ms, tests 96ms)`);
  return out.join('\n');
}

function grep(rand) {
  const out = [];
  const n = 6 + Math.floor(rand() * 14);
  for (let i = 0; i < n; i++) out.push(`${pick(rand, FILES)}:${1 + Math.floor(rand() * 300)}:  const total = roundHalfEven(sumCents(rows[${i}]), { currency: 'CNY' });`);
  return out.join('\n');
}

function gitDiff(rand, file) {
  const out = [`diff --git a/${file} b/${file}`, 'index 3f2a9c1..8be4d07 100644', `--- a/${file}`, `+++ b/${file}`];
  const hunks = 2 + Math.floor(rand() * 4);
  for (let h = 0; h < hunks; h++) {
    const at = 10 + Math.floor(rand() * 200);
    out.push(`@@ -${at},7 +${at},8 @@ export function totals(rows: Row[]) {`);
    out.push('-  return rows.reduce((sum, row) => sum + round(row.amount, 2), 0);');
    out.push('+  const cents = rows.reduce((sum, row) => sum + toCents(row.amount), 0);');
    out.push('+  return fromCents(cents);');
  }
  return out.join('\n');
}

/** One tool call and the output it gets. */
function toolCall(rand, id, zh) {
  const file = pick(rand, FILES);
  const kind = Math.floor(rand() * 6);
  if (kind === 0) return { use: { name: 'Read', input: { file_path: `/home/dev/ledger/${file}` } }, output: fileRead(rand, file, 40 + Math.floor(rand() * 160)), blocks: rand() < 0.5 };
  if (kind === 1) return { use: { name: 'Bash', input: { command: 'npm test 2>&1 | tail -80', description: 'Run the test suite' } }, output: testRun(rand, zh) };
  if (kind === 2) return { use: { name: 'Grep', input: { pattern: 'roundHalfEven\\(', path: 'src', output_mode: 'content', '-n': true } }, output: grep(rand) };
  if (kind === 3) return { use: { name: 'Bash', input: { command: `git diff ${file}`, description: 'Show the change' } }, output: gitDiff(rand, file) };
  if (kind === 4) {
    return { use: { name: 'Edit', input: { file_path: `/home/dev/ledger/${file}`, old_string: 'return round(row.amount, 2)', new_string: 'return toCents(row.amount)' } },
      output: `The file /home/dev/ledger/${file} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${fileRead(rand, file, 12)}` };
  }
  return { use: { name: 'Bash', input: { command: 'npx tsc --noEmit', description: 'Type-check' } },
    output: `src/report/render.tsx(${Math.floor(rand() * 200)},14): error TS2345: Argument of type 'number | undefined' is not assignable to parameter of type 'number'.`, error: true };
}

/**
 * A Claude Code session of `turns` user requests, each followed by a tool loop of one to four steps.
 * @param {{seed?: number, turns?: number, summary?: boolean, pending?: boolean, splitLines?: boolean}} [options]
 *   `summary`: start with a compaction summary; `pending`: end with the last loop's tool results (a loop in
 *   flight) instead of the answer; `splitLines`: log one response in four with parallel calls a block per message
 * @returns {object[]} Anthropic messages
 */
export function claudeCodeSession({ seed = 1, turns = 12, summary = false, pending = false, splitLines = false } = {}) {
  const rand = prng(seed);
  const messages = [];
  let ids = 0;
  const id = () => `toolu_01${(seed * 7919 + ids++).toString(36).padStart(6, '0')}Kq`;
  if (summary) {
    messages.push({ role: 'user', content: 'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis:\nThe user asked to fix cent-level drift in the monthly ledger totals.\n\nSummary:\n1. Primary Request and Intent: fix rounding in src/ledger/totals.ts.\n2. Key Technical Concepts: integer cents, half-even rounding.\n3. Files and Code Sections: src/ledger/round.ts, src/ledger/totals.ts.\nPlease continue the conversation from where we left it off without asking the user any further questions.' });
    messages.push({ role: 'assistant', content: [{ type: 'text', text: 'Continuing with the totals fix.' }] });
  }
  for (let t = 0; t < turns; t++) {
    const file = pick(rand, FILES);
    const zh = t % 3 === 2;
    messages.push({ role: 'user', content: fill(zh ? REQUESTS[2 + 2 * Math.floor(rand() * 2)] : pick(rand, REQUESTS), file) });
    const steps = 1 + Math.floor(rand() * 4);
    for (let s = 0; s < steps; s++) {
      const blocks = [];
      if (rand() < 0.85) blocks.push({ type: 'thinking', thinking: fill(pick(rand, THOUGHTS), file), signature: signature(rand) });
      if (rand() < 0.4) blocks.push({ type: 'text', text: zh ? '我先看一下相关文件。' : "I'll look at the relevant files first." });
      const calls = [];
      const parallel = rand() < 0.45 ? 2 + Math.floor(rand() * 2) : 1;
      for (let c = 0; c < parallel; c++) calls.push({ ...toolCall(rand, c, zh), id: id() });
      for (const c of calls) blocks.push({ type: 'tool_use', id: c.id, name: c.use.name, input: c.use.input });
      const results = calls.map((c) => ({
        type: 'tool_result', tool_use_id: c.id,
        content: c.blocks ? [{ type: 'text', text: c.output }] : c.output, ...(c.error ? { is_error: true } : {}),
      }));
      // One response in four is logged a block per line: consecutive assistant messages, consecutive results.
      if (parallel > 1 && rand() < 0.25 && splitLines) {
        for (const b of blocks) messages.push({ role: 'assistant', content: [b] });
        for (const r of results) messages.push({ role: 'user', content: [r] });
      } else {
        messages.push({ role: 'assistant', content: blocks });
        messages.push({ role: 'user', content: results });
      }
    }
    if (pending && t === turns - 1) break;
    const answer = [];
    if (rand() < 0.7) answer.push({ type: 'thinking', thinking: fill(pick(rand, THOUGHTS), file), signature: signature(rand) });
    answer.push({ type: 'text', text: zh ? `已修复：${file} 现在用整数分求和，测试全部通过。` : `Fixed: ${file} now sums in integer cents and rounds once; the suite passes.` });
    messages.push({ role: 'assistant', content: answer });
  }
  return messages;
}
