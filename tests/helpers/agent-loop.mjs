// What the seeded agent loops of the property tests share (tests/properties/agent-loop.test.mjs,
// tests/properties/ai-sdk-loop.test.mjs): requests in English and Chinese, tool outputs as real tools print
// them, the Compactor's settings drawn from a seed, and a model summary written by a callback.
import { digestSummarizer } from '../../js/hosts/node.js';

export const MODULES = ['dates', 'ledger', 'invoice', 'report', 'locale', 'cache'];
export const EN = ['The March report is short by one row in the north-east region; find out why.',
  'Make the rounding in {m} use integer cents and run the tests.', 'Which tests still fail? Fix the first one.',
  'Add a regression test for the time-zone bug in {m}.'];
export const ZH = ['帮我看一下 src/{m}.js，三月份的报表金额不对，东北区少了一笔。', '测试还是失败，先把 {m} 里的时区处理改成统一用 UTC。',
  '这个函数太长了，拆成两个小函数，顺便把注释写成中文。'];
// A 1×1 PNG: what a screenshot tool returns, priced as an image, never as its base64.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** What a tool printed: a source file, a test run (some failing), a grep, a Chinese log, a screenshot. */
export function toolOutput(r, name, module) {
  const n = 10 + Math.floor(r() * 60);
  if (name === 'read_file') {
    return Array.from({ length: n }, (_, i) => `${i + 1}\texport function ${module}${i}(rows, opts = {}) { return rows.reduce((s, x) => s + Math.round(x.cents * ${i % 7 + 1}), 0); }`).join('\n');
  }
  if (name === 'bash') {
    const failed = Math.floor(r() * 4), passed = 40 + Math.floor(r() * 80);
    const lines = Array.from({ length: n }, (_, i) => (i % 9 === 3 && failed ? `FAIL src/${module}.test.js > rounds row ${i}\n  AssertionError: expected 1204.37 to equal 1204.38`
      : `PASS src/${module}.test.js > case ${i} (${Math.floor(r() * 40)} ms)`));
    if (r() < 0.3) lines.push(...Array.from({ length: 6 }, (_, i) => `[2026-11-30 09:1${i}:04] 警告：第 ${i + 1} 行的时区为空，按 UTC 处理`));
    lines.push(`Tests: ${failed} failed, ${passed} passed, ${failed + passed} total`);
    return lines.join('\n');
  }
  if (name === 'screenshot') return [{ type: 'text', text: `Screenshot of /reports/${module}` }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }];
  return Array.from({ length: n }, (_, i) => `src/${MODULES[i % MODULES.length]}.js:${i * 7 + 3}:  const total = round${module}(rows[${i}], { cents: true });`).join('\n');
}

/** The Compactor's settings for one loop, drawn from its seed. */
export function settingsOf(r, { providers = true } = {}) {
  const threshold = 8000 + 1000 * Math.floor(r() * 10);
  const settings = {
    threshold,
    keepRecent: 1 + Math.floor(r() * 4),
    policy: r() < 0.3 ? 'every-turn' : 'batched',
    keepTail: { tokens: 1000 + 250 * Math.floor(r() * 8) },
    // 'provider+thinking': the provider's compaction told that system and tools are the conversation's own, so
    // the kept turns keep their thinking and a fold may land mid-loop (Anthropic; elsewhere the provider's own).
    summarizer: ['model', 'digest', 'provider', 'provider+thinking'][Math.floor(r() * 4)],
  };
  // (a loop with no provider compaction of its own takes the model's; drawn alike, so the seeds stay as they were)
  if (!providers && settings.summarizer.startsWith('provider')) settings.summarizer = 'model';
  return settings;
}

/**
 * The Compactor's options for `settings`: its summarizer (`provider(preservedThinking)` builds the
 * provider's own), threshold, results kept, clearing policy and tail, and `onReport` when given.
 */
export function compactorOptions(settings, onReport, provider) {
  const summarize = settings.summarizer === 'model' ? modelSummary : settings.summarizer === 'digest' ? digestSummarizer()
    : provider(settings.summarizer === 'provider+thinking');
  return { summarize, threshold: settings.threshold, keepRecent: settings.keepRecent, policy: settings.policy, keepTail: settings.keepTail,
    ...(onReport ? { onReport } : {}) };
}

/** A model summary, as a summarizer callback returns it: short, and naming what it read. */
export async function modelSummary({ prompt }) {
  const files = [...new Set(prompt.match(/src\/\w+\.js/g) || [])].slice(0, 6);
  return `The user is fixing rounding and time-zone bugs in the sales report. Files read: ${files.join(', ') || 'none'}. ` +
    'Tests were failing on rounded cents; the fix keeps integer cents.';
}

/** A user's request about `module`, English or (a third of the time) Chinese. */
export function userRequest(r, module) {
  const pool = r() < 0.35 ? ZH : EN;
  return pool[Math.floor(r() * pool.length)].replace('{m}', module);
}

/** The AI SDK tools of the loops (`ai` is the installed `ai`; `z` zod), each printing toolOutput() for module(). */
export function aiTools(ai, z, r, module) {
  const tool = (name) => ai.tool({ description: `The ${name} tool.`, inputSchema: z.object({ arg: z.string() }), execute: async () => toolOutput(r, name, module()) });
  return { read_file: tool('read_file'), bash: tool('bash'), grep: tool('grep') };
}
