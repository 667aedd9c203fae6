import { init } from '../js/hosts/node.js';
import { compactionMiddleware } from '../js/integrations/langchain.js';
import { startStrictProvider } from './helpers/strict-provider.mjs';
import { scriptLoop, mockModel, logAgent } from './helpers/langchain-agent.mjs';
import { HumanMessage } from '@langchain/core/messages';
await init();
for (const kind of ['anthropic']) {
  const p = await startStrictProvider();
  scriptLoop(p, { steps: 8 });
  const reports = [];
  const agent = logAgent(mockModel(kind, p.url), [compactionMiddleware({ threshold: 8000, onReport: (r) => reports.push(r.reason + ':' + r.tokensBefore + '>' + r.tokensAfter + JSON.stringify(r.session)) })]);
  const out = await agent.invoke({ messages: [new HumanMessage('检查所有模块的日志')] }, { recursionLimit: 100 });
  console.log(reports.join('\n'));
  await p.close();
}
