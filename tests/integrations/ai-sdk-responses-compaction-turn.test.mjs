// The turn after the Responses server compacted a signed loop (ai 7 over @ai-sdk/openai 4, encrypted reasoning):
// the AI SDK's history still holds every item before the compaction part, but the request is sent from that part
// on and the server reads nothing before it. midfold must count and fold what the server reads, not the whole
// history: folding the dropped items wrote a summary that was cut away with them (and a wasted summarizer call),
// and clearing their tool results changed nothing that is sent. The strict provider (responsesBinding) checks
// every reasoning item against what the model read and compacts once that crosses the threshold.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { init } from '../../js/hosts/node.js';
import { midfoldMiddleware, compactStep } from '../../js/integrations/ai-sdk.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { ANTHROPIC_VERSIONS } from '../helpers/ai-sdk-flows.mjs';
import { CORE_NAMES, coreFileSize, readWorkloadFile } from '../helpers/corpus.mjs';

const AI7 = ANTHROPIC_VERSIONS.find((v) => v.label === 'ai 7');
// C files of 3–13 KB, read in turn: the loop grows far past the threshold unless the server compacts it.
const FILES = CORE_NAMES.filter((f) => f.endsWith('.c') && coreFileSize(f) > 3000 && coreFileSize(f) < 13000).sort().map((f) => `src/${f}`);
const READS = 24;
const THRESHOLD = 20_000;

let provider;
before(async () => { await init(); provider = await startStrictProvider({ responsesBinding: true }); });
after(() => provider.close());

for (const hook of ['midfoldMiddleware', 'compactStep']) {
  test(`${hook}: the turn after a server compaction is counted from the compaction part on, and nothing before it is folded`, { skip: AI7.skip }, async () => {
    const ai = await import(AI7.ai);
    const { createOpenAI } = await import('@ai-sdk/openai-v4');
    const base = createOpenAI({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test' }).responses('gpt-5.5');
    const reports = [];
    let summaries = 0;
    const options = { threshold: THRESHOLD, keepRecent: 2, onReport: (r) => reports.push(r),
      summarize: async () => { summaries++; return '用户在逐个阅读 C 核心文件，查找工具结果与调用配对的位置。'; } };
    const call = hook === 'midfoldMiddleware'
      ? { model: ai.wrapLanguageModel({ model: base, middleware: midfoldMiddleware({ ...options, specificationVersion: AI7.spec }) }) }
      : { model: base, prepareStep: compactStep(options) };
    const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => readWorkloadFile(path) }) };
    const providerOptions = { openai: { store: false, include: ['reasoning.encrypted_content'], reasoningEffort: 'medium' } };
    const system = 'You are a coding agent. Read before you answer.';
    let step = 0;
    provider.reply = () => {
      const i = step++;
      const reasoning = { type: 'reasoning', id: `rs_${hook}_${i}`, summary: [{ type: 'summary_text', text: `Step ${i}: ${FILES[i % FILES.length]} is next.` }] };
      return i < READS
        ? [reasoning, { type: 'function_call', id: `fc_${hook}_${i}`, call_id: `call_${hook}_${i}`, name: 'read_file', arguments: JSON.stringify({ path: FILES[i % FILES.length] }), status: 'completed' }]
        : [reasoning, { type: 'message', id: `msg_${hook}_${i}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `I read ${READS} files.`, annotations: [] }] }];
    };
    const history = [{ role: 'user', content: 'Read the C core, file by file, and tell me where tool results meet their calls.' }];
    const first = provider.requests.length;
    const one = await ai.generateText({ ...call, tools, system, providerOptions, stopWhen: ai.stepCountIs(READS + 2), messages: history });
    assert.equal(one.text, `I read ${READS} files.`);
    const loop = provider.requests.slice(first);
    assert.deepStrictEqual(loop.map((q) => q.error?.message ?? q.status), loop.map(() => 200), 'every request of the loop accepted');
    assert.ok(loop.some((q) => q.compacted), 'the server compacted inside the loop');
    history.push(...(one.responseMessages ?? one.response.messages));
    assert.ok(Math.ceil(JSON.stringify(history).length / 4) > 2 * THRESHOLD, `the history the SDK keeps (${Math.ceil(JSON.stringify(history).length / 4)}) is far past the threshold`);

    // The next turn: a question in Chinese, answered without tools.
    history.push({ role: 'user', content: '那么工具结果和调用是在哪个文件里配对的？' });
    provider.reply = () => [{ type: 'message', id: `msg_${hook}_next`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '在 src/view.c 里。', annotations: [] }] }];
    const seen = reports.length;
    const sent = provider.requests.length;
    const two = await ai.generateText({ ...call, tools, system, providerOptions, stopWhen: ai.stepCountIs(1), messages: history });
    assert.equal(two.text, '在 src/view.c 里。');
    const q = provider.requests[sent];
    assert.equal(q.status, 200, q.error && q.error.message);
    assert.equal(q.body.input.find((x) => x.role !== 'system' && x.role !== 'developer').type, 'compaction', 'sent from the compaction item on');
    const [report] = reports.slice(seen);
    assert.ok(report.tokensBefore <= 1.25 * THRESHOLD, `midfold counts ${report.tokensBefore} tokens; the server reads from the compaction part on`);
    assert.equal(report.compacted, false, 'midfold folded what the server no longer reads');
    assert.equal(summaries, 0, 'a summary was written of what the request does not send');
    assert.ok(!(report.micro && report.micro.cleared), 'tool results the request does not send were cleared');
  });
}
