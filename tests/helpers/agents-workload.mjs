// A long multi-turn Agents SDK workload against the strict provider (tests/helpers/strict-provider.mjs): user turns
// in Chinese and English; in each the model reasons (encrypted reasoning items, store: false) and calls tools,
// sometimes two in parallel — real files of this repository, and the weather and route tools of the Chinese
// travel fixture — before it answers. The scripted model decides from the request alone (the last user turn and
// the calls made since), so every session policy gets the same model behaviour whatever it sends.
//
//   const w = agentsWorkload(provider);          // sets provider.reply
//   for (const text of w.turns) await w.runner.run(w.agent, text, { session, maxTurns: 8 });
import { Agent, Runner, tool } from '@openai/agents';
import { OpenAIProvider } from '@openai/agents-openai';
import { z } from 'zod';
import { CORE_NAMES, readWorkloadFile } from './corpus.mjs';

const root = new URL('../../', import.meta.url);
const FILES = CORE_NAMES.filter((f) => f.endsWith('.c')).sort().map((f) => `src/${f}`);
const readRepo = readWorkloadFile;
const travel = JSON.parse(readRepo('tests/fixtures/chinese-travel.openai.json'));
const travelOutput = (id) => travel.find((m) => m.role === 'tool' && m.tool_call_id === id).content;
const WEATHER = { 杭州: travelOutput('call_wx_hz_01'), 苏州: travelOutput('call_wx_sz_02'), 乌镇: travelOutput('call_wx_wz_03') };
const ROUTE = travelOutput('call_route_04');

/** The user turns, each with the tool rounds the model makes before answering (a round may hold parallel calls). */
export const TURNS = [
  { text: 'Where are tool results paired with their calls?', rounds: [['src/view.c'], ['src/validate_responses.c', 'src/adapt_openai.c']], answer: 'Calls and results are paired in src/view.c; validate_responses.c checks the Responses form.' },
  { text: '我下周五到周日想去杭州和苏州玩三天，帮我看看天气？', rounds: [[{ city: '杭州' }, { city: '苏州' }]], answer: '杭州周五小雨转多云，周六多云；苏州天气相近，建议周五安排室内景点。' },
  { text: 'How is JSON read and written in the core?', rounds: [['src/json_read.c'], ['src/json_write.c', 'src/json_number.c']], answer: 'json_read.c parses, json_write.c prints, json_number.c handles numbers.' },
  { text: '第二天能不能换成去乌镇？从杭州过去方便吗？', rounds: [[{ city: '乌镇' }, { route: true }]], answer: '可以，从杭州东站坐大巴到乌镇西栅约一个半小时，周六乌镇多云，适合出行。' },
  { text: 'Which files build the digest?', rounds: [['src/digest.c', 'src/digest_read.c'], ['src/digest_text.c'], ['src/digest_budget.c']], answer: 'digest.c drives it; digest_read.c, digest_text.c and digest_budget.c read, write and budget it.' },
  { text: '把三天的行程按天列出来，注意天气。', rounds: [[{ city: '杭州' }, { city: '乌镇' }]], answer: '第一天杭州西湖（小雨带伞），第二天乌镇西栅，第三天苏州拙政园。' },
  { text: 'Where are formats detected?', rounds: [['src/format.c'], ['src/read.c', 'src/harness.c']], answer: 'src/format.c detects the format; read.c reads the input.' },
  { text: '苏州那天如果下雨，有什么室内的安排？', rounds: [[{ city: '苏州' }]], answer: '下雨可以去苏州博物馆和平江路的茶馆。' },
  { text: 'How does memory allocation work in the core?', rounds: [['src/alloc.c', 'src/arena.c'], ['src/buf.c']], answer: 'alloc.c wraps the allocator, arena.c gives arenas, buf.c grows buffers.' },
  { text: '从乌镇回杭州东站的路线再确认一下。', rounds: [[{ route: true }]], answer: '乌镇西栅到杭州东站有直达大巴，约九十分钟。' },
  { text: 'Where are media parts handled?', rounds: [['src/media.c'], ['src/prompt.c']], answer: 'src/media.c handles media; prompt.c writes the summarizer prompt.' },
  { text: '最后总结一下这次旅行要带什么。', rounds: [[{ city: '杭州' }, { city: '苏州' }]], answer: '带雨伞、薄外套和舒适的鞋。' },
  { text: 'Which file joins Responses items?', rounds: [['src/responses_join.c'], ['src/tree.c', 'src/tree_decode.c']], answer: 'src/responses_join.c joins them; tree.c and tree_decode.c hold the tree.' },
  { text: '谢谢，最后再看一眼杭州的天气。', rounds: [[{ city: '杭州' }]], answer: '杭州周日晴，最高二十三度。' },
];
export { FILES, readRepo };

const textOf = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => (p && p.text) || '').join('') : '');
const isUser = (item) => item && item.role === 'user' && (item.type === undefined || item.type === 'message');

/** The Responses output items the scripted model answers `input` with. */
export function scriptedReply(provider, input) {
  let last = -1;
  input.forEach((item, i) => { if (isUser(item)) last = i; });
  const text = last >= 0 ? textOf(input[last].content) : '';
  const t = TURNS.findIndex((turn) => turn.text === text);
  if (t < 0) return [{ type: 'message', id: 'msg_unknown', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok', annotations: [] }] }];
  const turn = TURNS[t];
  // The rounds already made in this turn: calls after the last user message, grouped by the model's reasoning.
  const made = input.slice(last + 1).filter((item) => item.type === 'reasoning').length;
  if (made < turn.rounds.length) {
    const round = turn.rounds[made];
    const calls = round.map((arg, k) => {
      const id = `t${t}r${made}c${k}`;
      const [name, args] = typeof arg === 'string' ? ['read_file', { path: arg }]
        : arg.route ? ['search_route', { from: '杭州东站', to: '乌镇西栅景区' }] : ['get_weather', { city: arg.city }];
      return { type: 'function_call', id: `fc_${id}`, call_id: `call_${id}`, name, arguments: JSON.stringify(args), status: 'completed' };
    });
    return [provider.signReasoning(`rs_t${t}r${made}`, `Turn ${t + 1}, round ${made + 1}: I need ${calls.map((c) => c.name).join(' and ')}.`), ...calls];
  }
  return [provider.signReasoning(`rs_t${t}a`, 'I have what I need to answer.'),
    { type: 'message', id: `msg_t${t}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.answer, annotations: [] }] }];
}

/** The agent (three tools, encrypted reasoning with store: false) and a Runner whose model calls go to `provider`. */
export function agentsWorkload(provider, runnerOptions = {}) {
  provider.reply = ({ api, body }) => (api === 'openai-responses' ? scriptedReply(provider, body.input) : [{ type: 'text', text: 'ok' }]);
  const tools = [
    tool({ name: 'read_file', description: 'Read a file of the repository', parameters: z.object({ path: z.string() }), execute: async ({ path }) => readRepo(path) }),
    tool({ name: 'get_weather', description: '查询城市天气', parameters: z.object({ city: z.string() }), execute: async ({ city }) => WEATHER[city] || '{"error":"unknown city"}' }),
    tool({ name: 'search_route', description: '查询两地之间的路线', parameters: z.object({ from: z.string(), to: z.string() }), execute: async () => ROUTE }),
  ];
  const agent = new Agent({
    name: 'assistant', instructions: 'Answer about the C core, or plan the trip (in Chinese when asked in Chinese).', tools, model: 'gpt-5.4',
    modelSettings: { store: false, reasoning: { effort: 'low' }, providerData: { include: ['reasoning.encrypted_content'] } },
  });
  const runner = new Runner({
    modelProvider: new OpenAIProvider({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, useResponses: true }),
    tracingDisabled: true, ...runnerOptions,
  });
  return { agent, runner, turns: TURNS.map((t) => t.text) };
}
