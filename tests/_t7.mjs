import { init, estimateTokens } from '../js/hosts/node.js';
import { compactionMiddleware } from '../js/integrations/langchain.js';
import { startStrictProvider } from './helpers/strict-provider.mjs';
import { scriptLoop, mockModel, logAgent } from './helpers/langchain-agent.mjs';
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
await init();
{
const p = await startStrictProvider();
scriptLoop(p, { steps: 3 });
const reports = [];
const agent = logAgent(mockModel('anthropic', p.url), [compactionMiddleware({ threshold: 100000, onReport: (r) => reports.push(r) })], 4000);
const out = await agent.invoke({ messages: [new HumanMessage('检查日志。')] });
console.log(out.messages.map(m => m.type + ':' + JSON.stringify(m.usage_metadata||'')));
console.log(reports.map(r => r.tokensBefore), estimateTokens(out.messages.slice(0,1)), estimateTokens(out.messages.slice(1,3)), p.requests.map(r => JSON.stringify(r.body.messages).length/4));
await p.close();
}
{
const p = await startStrictProvider();
scriptLoop(p, { steps: 12 });
const reports = [];
const agent = logAgent(mockModel('anthropic', p.url), [compactionMiddleware({ threshold: 12000, onReport: (r) => reports.push(r), summarize: async () => { throw new Error('x'); } })], 4000);
const out = await agent.invoke({ messages: [new HumanMessage('检查日志。')] });
console.log(reports.map(r => r.reason + r.tokensBefore + '/' + r.micro?.cleared).join(' '), out.messages.filter(m => m instanceof ToolMessage).length);
await p.close();
}
