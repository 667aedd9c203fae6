// DeepSeek's Anthropic-compatible API (api.deepseek.com/anthropic) through @ai-sdk/anthropic, with thinking on:
// midfold has no source that it takes Anthropic's context management, so a long tool loop whose signed thinking
// keeps midfold from editing gets none — and `onWarn` says so once, with the first step past the threshold, long
// before the window. The provider believes it talks to DeepSeek; its fetch takes each request to the strict
// provider (tests/helpers/strict-provider.mjs), which binds the thinking to its prefix.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { init, digestSummarizer } from 'midfold';
import { midfoldMiddleware } from 'midfold/ai-sdk';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { tokensOf } from '../helpers/context-management.mjs';
import { ANTHROPIC_VERSIONS } from '../helpers/ai-sdk-flows.mjs';
import { CORE_NAMES, coreFileSize, readWorkloadFile } from '../helpers/corpus.mjs';

const FILES = CORE_NAMES.filter((f) => f.endsWith('.c') && coreFileSize(f) > 3000 && coreFileSize(f) < 13000)
  .sort().map((f) => `src/${f}`);
const read = readWorkloadFile;
const READS = 37;
const BASE = 'https://api.deepseek.com/anthropic';

let provider;
before(async () => { await init(); provider = await startStrictProvider(); });
after(() => provider.close());

for (const v of ANTHROPIC_VERSIONS) {
  test(`${v.label}: a 38-step signed loop at DeepSeek's Anthropic API is warned of, not silently overshot`, { skip: v.skip }, async () => {
    const ai = await import(v.ai);
    const { createAnthropic } = await import(v.anthropic);
    const base = createAnthropic({ baseURL: `${BASE}/v1`, apiKey: 'sk-test', fetch: (url, init) => fetch(String(url).replace(BASE, provider.url), init) })('deepseek-v4-pro');
    let step = 0;
    provider.reply = () => {
      const i = step++;
      return i < READS
        ? [{ type: 'thinking', thinking: `第 ${i} 步：接下来读 ${FILES[i % FILES.length]}。` }, { type: 'tool_use', id: `toolu_ds_${v.spec}_${i}`, name: 'read_file', input: { path: FILES[i % FILES.length] } }]
        : [{ type: 'thinking', thinking: '够了。' }, { type: 'text', text: `读了 ${READS} 个文件。` }];
    };
    const reports = [];
    const warnings = [];
    const model = ai.wrapLanguageModel({ model: base, middleware: midfoldMiddleware({ summarize: digestSummarizer(), threshold: 20_000, specificationVersion: v.spec,
      onReport: (r) => reports.push(r), onWarn: (m) => warnings.push(m) }) });
    const tools = { read_file: ai.tool({ description: '读取仓库中的文件', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
    const first = provider.requests.length;
    const result = await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(READS + 2), maxOutputTokens: 4096,
      providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } },
      messages: [{ role: 'user', content: '逐个读 C 核心的文件，告诉我工具结果在哪里和调用配对。' }] });
    assert.equal(result.text, `读了 ${READS} 个文件。`);
    const sent = provider.requests.slice(first);
    assert.deepStrictEqual(sent.map((q) => q.error?.message ?? q.status), sent.map(() => 200), 'every request accepted');
    assert.ok(sent.every((q) => q.body.context_management === undefined), 'nothing asked of DeepSeek');
    const waited = reports.filter((r) => r.reason === 'deferred-thinking');
    assert.ok(waited.length > 0 && waited.every((r) => r.serverContext === 'unsupported'));
    assert.equal(warnings.length, 1, 'warned once');
    assert.match(warnings[0], /in flight at \d+ tokens, over the threshold of 20000; .*anthropic\.messages has no server-side context management/);
    const at = Number(/in flight at (\d+) tokens/.exec(warnings[0])[1]);
    assert.equal(at, waited.find((r) => r.tokensBefore > 20_000).tokensBefore, 'with the first step past the threshold');
    assert.ok(at <= 1.25 * 20_000, `warned at ${at}`);
    assert.ok(tokensOf(sent.at(-1).body.messages) > 3 * 20_000, 'then the loop grew, as the warning said');
  });
}
