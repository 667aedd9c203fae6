// Long loops with prefix-bound reasoning on the stacks where the provider compacts or clears on its side besides
// Anthropic's own (tests/bench/server-context.mjs): Bedrock InvokeModel through the AI SDK (ai 7), the OpenAI
// Responses API through the openai client, an Agents SDK run, and @ai-sdk/openai 4 (ai 7). For each loop length:
// what the provider read at most (its effective input, after its edits) against the threshold, requests accepted,
// compactions or clearings. Prints one line per run; the figures are in docs/cost.md ("Inside a signed loop").
//   node tests/bench/server-compaction.mjs
import OpenAI from 'openai';
import { z } from 'zod';
import { init, Compactor, digestSummarizer, responsesServerContext, responsesContextManagement } from 'midfold';
import { midfoldMiddleware } from 'midfold/ai-sdk';
import { compactionFilter } from 'midfold/openai-agents';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { tokensOf } from '../helpers/context-management.mjs';
import { CORE_NAMES, coreFileSize, readWorkloadFile } from '../helpers/corpus.mjs';

const FILES = CORE_NAMES.filter((f) => f.endsWith('.c') && coreFileSize(f) > 3000 && coreFileSize(f) < 13000).sort().map((f) => `src/${f}`);
const read = readWorkloadFile;
await init();
const provider = await startStrictProvider({ responsesBinding: true });
const readOf = (q) => q.read ?? (q.body.messages ? tokensOf(q.body.messages) : Math.ceil(JSON.stringify(q.body.input).length / 4));
let loops = 0;

function scriptAnthropic(reads) {
  const loop = ++loops; let step = 0;
  provider.reply = () => { const i = step++; return i < reads
    ? [{ type: 'thinking', thinking: `Step ${i}: ${FILES[i % FILES.length]} next.` }, { type: 'tool_use', id: `t${loop}_${i}`, name: 'read_file', input: { path: FILES[i % FILES.length] } }]
    : [{ type: 'thinking', thinking: 'Enough.' }, { type: 'text', text: 'done' }]; };
}
function scriptResponses(reads) {
  const loop = ++loops; let step = 0;
  provider.reply = () => { const i = step++; const r = { type: 'reasoning', id: `rs_${loop}_${i}`, summary: [{ type: 'summary_text', text: `Step ${i}: ${FILES[i % FILES.length]} next.` }] };
    return i < reads ? [r, { type: 'function_call', id: `fc_${loop}_${i}`, call_id: `call_${loop}_${i}`, name: 'read_file', arguments: JSON.stringify({ path: FILES[i % FILES.length] }), status: 'completed' }]
      : [r, { type: 'message', id: `msg_${loop}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done', annotations: [] }] }]; };
  return loops;
}

async function bedrock(threshold, reads, modelId) {
  const ai = await import('ai-v7');
  const { createBedrockAnthropic } = await import('@ai-sdk/amazon-bedrock-v5/anthropic');
  const base = createBedrockAnthropic({ region: 'us-east-1', accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'k', baseURL: provider.url })(modelId);
  scriptAnthropic(reads);
  const model = ai.wrapLanguageModel({ model: base, middleware: midfoldMiddleware({ summarize: digestSummarizer(), threshold, specificationVersion: 'v4' }) });
  const tools = { read_file: ai.tool({ description: 'Read', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
  await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(reads + 2), providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } },
    messages: [{ role: 'user', content: `Read ${loops}` }] });
}

async function openaiClient(threshold, reads) {
  scriptResponses(reads);
  const client = new OpenAI({ baseURL: `${provider.url}/v1`, apiKey: 'k', maxRetries: 0 });
  const compactor = new Compactor({ summarize: digestSummarizer(), threshold, format: 'openai-responses' });
  const items = [{ role: 'user', content: `Read ${loops}` }];
  const tools = [{ type: 'function', name: 'read_file', strict: false, parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];
  for (;;) {
    const report = await compactor.compact(items);
    const s = responsesServerContext(compactor, items, report);
    const res = await client.responses.create({ model: 'gpt-5.5', tools, store: false, include: ['reasoning.encrypted_content'], input: s.input, ...(s.context_management ? { context_management: s.context_management } : {}) });
    if (s.input === items && !res.output.some((o) => o.type === 'compaction')) compactor.observeUsage({ inputTokens: res.usage.input_tokens, messages: items });
    items.push(...res.output);
    const calls = res.output.filter((o) => o.type === 'function_call');
    if (!calls.length) break;
    for (const c of calls) items.push({ type: 'function_call_output', call_id: c.call_id, output: read(JSON.parse(c.arguments).path) });
  }
}

async function agents(threshold, reads) {
  const { Agent, Runner, tool } = await import('@openai/agents');
  const { OpenAIProvider } = await import('@openai/agents-openai');
  scriptResponses(reads);
  const agent = new Agent({ name: 'reader', instructions: 'Read.', model: 'gpt-5.5',
    tools: [tool({ name: 'read_file', description: 'Read', parameters: z.object({ path: z.string() }), execute: async ({ path }) => read(path) })],
    modelSettings: { store: false, reasoning: { effort: 'medium' }, providerData: { include: ['reasoning.encrypted_content'] }, contextManagement: responsesContextManagement(threshold) } });
  const runner = new Runner({ modelProvider: new OpenAIProvider({ apiKey: 'k', baseURL: `${provider.url}/v1`, useResponses: true }), tracingDisabled: true });
  await runner.run(agent, `Read ${loops}`, { maxTurns: reads + 3, callModelInputFilter: compactionFilter({ summarize: digestSummarizer(), threshold }) });
}

async function aiSdkOpenAI(threshold, reads) {
  const ai = await import('ai-v7');
  const { createOpenAI } = await import('@ai-sdk/openai-v4');
  scriptResponses(reads);
  const model = ai.wrapLanguageModel({ model: createOpenAI({ baseURL: `${provider.url}/v1`, apiKey: 'k' }).responses('gpt-5.5'),
    middleware: midfoldMiddleware({ summarize: digestSummarizer(), threshold, specificationVersion: 'v4' }) });
  const tools = { read_file: ai.tool({ description: 'Read', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
  await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(reads + 2), providerOptions: { openai: { store: false, include: ['reasoning.encrypted_content'] } },
    messages: [{ role: 'user', content: `Read ${loops}` }] });
}

const RUNS = [
  ['Bedrock InvokeModel, clearing (Sonnet 4.5)', (n) => bedrock(20000, n, 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'), 20000],
  ['Bedrock InvokeModel, compaction (Opus 4.6)', (n) => bedrock(60000, n, 'us.anthropic.claude-opus-4-6-v1'), 60000],
  ['Responses, openai client', (n) => openaiClient(20000, n), 20000],
  ['Agents SDK run', (n) => agents(20000, n), 20000],
  ['@ai-sdk/openai 4, Responses', (n) => aiSdkOpenAI(20000, n), 20000],
];
for (const [label, run, threshold] of RUNS) {
  for (const reads of [37, 79, 149]) {
    const first = provider.requests.length;
    await run(reads);
    const sent = provider.requests.slice(first);
    const peak = Math.max(...sent.map(readOf));
    const acted = sent.filter((q) => q.compacted || (q.appliedEdits && q.appliedEdits.length)).length;
    console.log(`${label}: threshold ${threshold} steps ${reads + 1} requests ${sent.length} ok ${sent.every((q) => q.status === 200)} peak ${peak} (${(peak / threshold).toFixed(2)}x) last ${readOf(sent.at(-1))} server edits ${acted}`);
  }
}
await provider.close();
