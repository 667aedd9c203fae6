// LangChain JS v1: @langchain/core message arrays go through the core API without casts, and the middleware is what
// createAgent takes.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { createAgent, fakeModel } from 'langchain';
import { Compactor, detectFormat, estimateTokens, microCompact, validate, type Format } from 'midfold';
import { compactionMiddleware, langchainSummarizer, SessionState } from 'midfold/langchain';

const history: BaseMessage[] = [
  new SystemMessage('You are a coding agent.'),
  new HumanMessage('列出 src 目录'),
  new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'bash', args: { command: 'ls src' }, type: 'tool_call' }] }),
  new ToolMessage({ content: 'index.ts\nledger.ts', tool_call_id: 'c1', name: 'bash' }),
];
const format: Format | 'unknown' = detectFormat(history);
const tokens: number = estimateTokens(history);
microCompact(history, { keepRecent: 1, format: 'langchain' });
const ok: boolean = validate(history).ok;
const compactor = new Compactor({ summarize: async () => 'summary', format: 'langchain' });
void compactor.compact(history);

const model = fakeModel();
const agent = createAgent({ model, tools: [], middleware: [compactionMiddleware({ threshold: 40000, state: new SessionState() })] });
const summarize = langchainSummarizer(model);
void [format, tokens, ok, agent, summarize];

// The micro-compaction knobs pass through the LangChain middleware's options.
compactionMiddleware({ threshold: 40000, clearToolInputs: true, thinking: { keep: 2, binding: 'unbound' },
  dropToolCalls: { tools: ['search'], beforeLast: 6 }, reasoning: 'before-last-message' });
