// One Mastra workload for tests/integrations/mastra.test.mjs and tests/bench/mastra.mjs: a real Mastra `Agent` (@mastra/core)
// whose model is @ai-sdk/anthropic pointed at the strict mock provider (tests/helpers/strict-provider.mjs), with
// Mastra's own in-memory memory (MockMemory over InMemoryStore: the MastraMemory that ships in @mastra/core) and
// a real tool that reads the repository's C sources. Each turn is a long tool loop of parallel calls (two reads a
// step) with Chinese text between them; a second turn on the same thread gets the first back from memory.
//
//   const run = await runTurns(provider, { inputProcessors: [...] });
//   run.requests   // the provider's records of the agent's requests (summary requests left out)
//   run.texts      // the agent's final answer of each turn (null where a turn failed; run.errors says why)
//   run.stored     // what memory holds of the thread afterwards (MastraDBMessage[])
// Mastra's feature telemetry (PostHog) stays off: nothing leaves 127.0.0.1.
process.env.MASTRA_TELEMETRY_DISABLED = '1';
import { SIZED_CORE_FILES } from './core-files.mjs';
import { z } from 'zod';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { MockMemory } from '@mastra/core/memory';
import { createAnthropic } from '@ai-sdk/anthropic';
import { readWorkloadFile } from './corpus.mjs';

// The core's files as this workload was sized on them (core-files.mjs).
export const FILES = SIZED_CORE_FILES;
export const read = readWorkloadFile;
/** Steps of each turn's tool loop (two parallel reads each), then the answer. */
export const STEPS = 8;
export const TURNS = [
  { ask: '请通读 C 核心的源文件，告诉我工具调用和结果是在哪里配对的。', answer: '配对发生在 src/view.c：每个 tool-call 都和它的结果放在一起。' },
  { ask: '再看看剩下的文件：估算器把中文字符算成多少个 token？', answer: '中文字符按 1.5 个 token 计（src/estimate.c 与 src/text_class.c）。' },
];

/** True when an Anthropic request is a summary midfold asked for: the agent always sends its tool, the summarizer none. */
export const isSummaryRequest = (body) => !body.tools;

/**
 * Scripts the provider for `turns`: the agent's i-th request of turn t calls read_file twice in parallel on the
 * next two files (a Chinese sentence before the calls), its request STEPS + 1 answers; a summary request gets a
 * Chinese summary. Requests are counted per turn (`turn(t)` starts one), not read from the messages, so a peer
 * that drops the question still gets the same script.
 */
export function script(provider, turns = TURNS, { thinking = false } = {}) {
  let t = 0;
  let step = 0;
  provider.reply = ({ body }) => {
    if (isSummaryRequest(body)) return [{ type: 'text', text: '摘要：用户要求通读 C 核心；助手并行读取了前面的源文件（read_file），内容已在工具结果里。' }];
    const i = step++;
    // With thinking on, every answer opens with a thinking block (the provider signs it over the prefix).
    const thought = thinking ? [{ type: 'thinking', thinking: `第 ${i + 1} 步之前：还没找到要找的地方，继续读。` }] : [];
    if (i >= STEPS) return [...thought, { type: 'text', text: turns[t].answer }];
    const k = (t * STEPS + i) * 2;
    const [a, b] = [FILES[k % FILES.length], FILES[(k + 1) % FILES.length]];
    return [...thought, { type: 'text', text: `第 ${i + 1} 步：同时读取 ${a} 和 ${b}。` },
      { type: 'tool_use', id: `toolu_${t}_${i}_a`, name: 'read_file', input: { path: a } },
      { type: 'tool_use', id: `toolu_${t}_${i}_b`, name: 'read_file', input: { path: b } }];
  };
  return { turn(n) { t = n; step = 0; } };
}

export const readFileTool = createTool({
  id: 'read_file',
  description: 'Read a file of the repository',
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => read(path),
});

/** The agent's model and a summary model on the same provider (the strict mock, through @ai-sdk/anthropic). */
export function models(provider) {
  const anthropic = createAnthropic({ baseURL: `${provider.url}/v1`, apiKey: 'sk-ant-test', fetch });
  return { model: anthropic('claude-sonnet-4-5'), summaryModel: anthropic('claude-haiku-4-5') };
}

/**
 * Runs every turn of `turns` through one Agent with `inputProcessors`, on one memory thread (with extended
 * thinking when `thinking` is set; through `agent.stream` when `stream` is; under the run's `abortSignal`). Resolves to the
 * agent's requests (summaries left out), each turn's answer, the errors of failed turns and what memory stored.
 */
export async function runTurns(provider, { inputProcessors = [], turns = TURNS, thread = 'thread-1', thinking = false, stream = false, abortSignal } = {}) {
  const scripted = script(provider, turns, { thinking });
  // Extended thinking through Mastra's call options, as @ai-sdk/anthropic reads them.
  const callOptions = thinking ? { providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } } } : {};
  const memory = new MockMemory({ options: { lastMessages: 200 } });
  const agent = new Agent({
    id: 'reviewer', name: 'reviewer', instructions: '你是一名代码审查助手。用中文简短回答。',
    model: models(provider).model, tools: { read_file: readFileTool }, memory, inputProcessors,
  });
  const from = provider.requests.length;
  const texts = [];
  const errors = [];
  for (const [n, turn] of turns.entries()) {
    scripted.turn(n);
    try {
      const options = { memory: { thread, resource: 'user-1' }, maxSteps: STEPS + 2, ...callOptions, ...(abortSignal ? { abortSignal } : {}) };
      texts.push(stream ? await (await agent.stream(turn.ask, options)).text : (await agent.generate(turn.ask, options)).text);
    } catch (e) {
      // (a request the provider refused ends the turn: a peer's result, recorded for the comparison)
      texts.push(null);
      errors.push(e instanceof Error ? e.message : String(e));
    }
  }
  const all = provider.requests.slice(from);
  const stored = (await memory.recall({ threadId: thread, resourceId: 'user-1', perPage: false })).messages;
  return { requests: all.filter((r) => !isSummaryRequest(r.body)), summaries: all.filter((r) => isSummaryRequest(r.body)), texts, errors, stored };
}

const blocksOf = (m) => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content);
export const textOf = (content) => (typeof content === 'string' ? content
  : content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? textOf(b.content ?? '') : '')).join(''));

/** Problems with the request's tool pairs: each tool_use answered first in the next message, each result's call before. */
export function pairProblems(messages) {
  const problems = [];
  messages.forEach((m, i) => {
    const uses = m.role === 'assistant' ? blocksOf(m).filter((b) => b.type === 'tool_use').map((b) => b.id) : [];
    const next = messages[i + 1];
    const answered = new Set(next && next.role === 'user' ? blocksOf(next).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : []);
    for (const id of uses) if (i + 1 < messages.length && !answered.has(id)) problems.push(`${id} unanswered at ${i}`);
    const prev = messages[i - 1];
    const called = new Set(prev && prev.role === 'assistant' ? blocksOf(prev).filter((b) => b.type === 'tool_use').map((b) => b.id) : []);
    if (m.role === 'user') for (const b of blocksOf(m)) if (b.type === 'tool_result' && !called.has(b.tool_use_id)) problems.push(`${b.tool_use_id} orphaned at ${i}`);
  });
  return problems;
}

/** The request's tool results: how many are sent whole, as a midfold marker, and which call ids are sent at all. */
export function toolResults(messages) {
  const out = { whole: 0, cleared: 0, ids: new Set() };
  for (const m of messages) for (const b of blocksOf(m)) {
    if (b.type !== 'tool_result') continue;
    out.ids.add(b.tool_use_id);
    if (textOf(b.content ?? '').startsWith('[truncated:')) out.cleared++; else out.whole++;
  }
  return out;
}

export const folded = (messages) => messages.some((m) => m.role === 'user' && textOf(m.content).startsWith('[Context Compressed]'));
