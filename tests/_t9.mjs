import { init, estimateTokens } from '../js/hosts/node.js';
import { compactionMiddleware } from '../js/integrations/langchain.js';
import { startStrictProvider } from './helpers/strict-provider.mjs';
import { scriptLoop, mockModel, logAgent } from './helpers/langchain-agent.mjs';
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
await init();
{
const p = await startStrictProvider();
scriptLoop(p, { steps: 10, thinking: true });
const reports = [];
const agent = logAgent(mockModel('anthropic', p.url, { thinking: true }), [compactionMiddleware({ threshold: 12000, onReport: (r) => reports.push(r) })], 4000);
const first = await agent.invoke({ messages: [new HumanMessage('检查 m0 到 m12 的日志。')] }, { recursionLimit: 200 });
console.log(reports.map(r => r.reason + r.tokensBefore).join(' '));
scriptLoop(p, { steps: p.requests.length + 3, thinking: true });
reports.length = 0;
await agent.invoke({ messages: [...first.messages, new HumanMessage('再检查一遍 m0。')] }, { recursionLimit: 200 });
console.log(reports.map(r => r.reason + r.tokensBefore + JSON.stringify(r.session)).join(' '), p.requests.map(r=>r.status).join(','), p.tally);
await p.close();
}
{
const p = await startStrictProvider();
scriptLoop(p, { steps: 12 });
const reports = [];
const agent = logAgent(mockModel('anthropic', p.url), [compactionMiddleware({ threshold: 6000, onReport: (r) => reports.push(r), onWarn: () => {}, summarize: async () => { throw new Error('x'); } })], 4000);
const out = await agent.invoke({ messages: [new HumanMessage('检查日志。')] });
console.log(reports.map(r => r.reason + r.tokensBefore + '/' + r.micro?.cleared).join(' '), out.messages.filter(m => m instanceof ToolMessage).length, p.requests.map(r=>r.status).join(','));
await p.close();
}
