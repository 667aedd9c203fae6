import { init } from '../js/hosts/node.js';
import { compactionMiddleware } from '../js/integrations/langchain.js';
import { startStrictProvider } from './helpers/strict-provider.mjs';
import { scriptLoop, mockModel, logAgent } from './helpers/langchain-agent.mjs';
import { HumanMessage } from '@langchain/core/messages';
await init();
const p = await startStrictProvider();
scriptLoop(p, { steps: 12, thinking: true });
const reports = [];
const agent = logAgent(mockModel('anthropic', p.url, { thinking: true }), [compactionMiddleware({ threshold: 12000, onReport: (r) => reports.push(r.reason + ':' + r.tokensBefore + '>' + r.tokensAfter + (r.deferred||'')) })], 4000);
try { const out = await agent.invoke({ messages: [new HumanMessage('检查所有模块的日志')] }, { recursionLimit: 100 }); console.log(out.messages.length); } catch (e) { console.log('ERR', e.message.slice(0, 400)); }
console.log(p.requests.map((r) => r.status + (r.error ? ' ' + r.error.message.slice(0, 200) : '')).join(' | '));
console.log(reports.join('\n'), p.tally);
await p.close();
