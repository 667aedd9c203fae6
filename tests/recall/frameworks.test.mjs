// The recall tool registered by the LangChain middleware and made for the OpenAI Agents SDK: a createAgent
// loop (langchain 1.x, ChatAnthropic) against the strict mock provider in which the model recalls what the
// clearing took, and the Agents tool() answering an id and an unknown one.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { init, digestSummarizer } from '../../js/hosts/node.js';
import { compactionMiddleware } from '../../js/integrations/langchain.js';
import { compactionFilter, recallTool as agentsRecallTool } from '../../js/integrations/openai-agents.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { logAgent, logOutput, mockModel } from '../helpers/langchain-agent.mjs';

let provider;
before(async () => { await init(); provider = await startStrictProvider(); });
after(() => provider.close());

test('LangChain: compactionMiddleware({recall: true}) registers recall; the agent recalls a cleared log', async () => {
  const middleware = compactionMiddleware({ summarize: digestSummarizer(), threshold: 200_000, microTrigger: 2000, clearAtLeast: 1, keepRecent: 1, recall: true });
  let step = 0;
  let answered = null;
  provider.reply = ({ body }) => {
    const i = step++;
    if (i < 4) return [{ type: 'tool_use', id: `toolu_l${i}`, name: 'read_log', input: { module: `m${i}` } }];
    const id = JSON.stringify(body.messages).match(/· recall (r[0-9a-z]{8})\]/)[1];
    if (i === 4) return [{ type: 'tool_use', id: 'toolu_back', name: 'recall', input: { id } }];
    answered = body.messages.at(-1).content;
    return [{ type: 'text', text: 'm0 的日志又拿到了。' }];
  };
  const agent = logAgent(mockModel('anthropic', provider.url), [middleware], 3000);
  const first = provider.requests.length;
  const result = await agent.invoke({ messages: [{ role: 'user', content: '依次读取 m0 到 m3 的日志，然后再看 m0。' }] });
  const sent = provider.requests.slice(first);
  assert.ok(sent.every((q) => q.status === 200), JSON.stringify(sent.map((q) => q.error)));
  assert.ok(sent.every((q) => q.body.tools.some((t) => t.name === 'recall')));
  assert.equal(result.messages.at(-1).content, 'm0 的日志又拿到了。');
  const back = answered.find((b) => b.tool_use_id === 'toolu_back');
  const text = typeof back.content === 'string' ? back.content : back.content.map((b) => b.text).join('');
  assert.match(text, /^recall r[0-9a-z]{8} · read_log result, \d+ chars · page 1 of \d+/);
  assert.ok(text.includes(logOutput(0, 3000).slice(0, 200)));
});

test('OpenAI Agents: recallTool over a compactionFilter made with recall', async () => {
  const filter = compactionFilter({ summarize: digestSummarizer(), threshold: 200_000, microTrigger: 500, clearAtLeast: 1, keepRecent: 0, recall: true });
  const log = logOutput(1, 4000);
  const input = [
    { type: 'message', role: 'user', content: '读取 m1 的日志' },
    { type: 'function_call', callId: 'call_1', name: 'read_log', arguments: '{"module":"m1"}', status: 'completed' },
    { type: 'function_call_result', callId: 'call_1', name: 'read_log', status: 'completed', output: { type: 'text', text: log } },
    { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'm1 正常。' }] },
    { type: 'message', role: 'user', content: '好' },
  ];
  const out = await filter({ modelData: { input, instructions: 'SRE' }, agent: {} });
  const id = JSON.stringify(out.input).match(/· recall (r[0-9a-z]{8})\]/)[1];
  const recall = await agentsRecallTool(filter);
  assert.equal(recall.name, 'recall');
  assert.equal(recall.strict, false);
  const text = await recall.invoke(undefined, JSON.stringify({ id }));
  assert.ok(String(text).includes(log.slice(0, 200)));
  assert.match(String(await recall.invoke(undefined, JSON.stringify({ id: 'r00000000' }))), /^recall error: nothing is archived/);
  await assert.rejects(agentsRecallTool(compactionFilter({ summarize: digestSummarizer() })), /recall: true/);
});

test('LangChain messages (immutable instances): recallMicroCompact replaces them with cleared copies naming ids', async () => {
  const { HumanMessage, AIMessage, ToolMessage } = await import('@langchain/core/messages');
  const { recallArchive, recallMicroCompact, memoryStateStore } = await import('../../js/hosts/node.js');
  const big = '日志行 status=200 latency=12ms\n'.repeat(200);
  const messages = [new HumanMessage('读 m0 和 m1 的日志'),
    new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'read_log', args: { module: 'm0' } }, { id: 'c2', name: 'read_log', args: { module: 'm1' } }] }),
    new ToolMessage({ tool_call_id: 'c1', content: big }), new ToolMessage({ tool_call_id: 'c2', content: [{ type: 'text', text: big }] }),
    new AIMessage('都正常。'), new HumanMessage('好')];
  const archive = recallArchive({ store: memoryStateStore(), conversation: 'lc' });
  const report = await recallMicroCompact(messages, { archive, keepRecent: 0 });
  assert.equal(report.cleared, 2);
  assert.ok(messages[2] instanceof ToolMessage && messages[3] instanceof ToolMessage);
  assert.match(String(messages[2].content), /^\[truncated: read_log result, \d+ chars · recall r[0-9a-z]{8}\]$/);
  assert.equal((await archive.get(report.edits[0].recall)).value, big);
});
