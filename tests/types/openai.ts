// OpenAI's own arrays: Chat Completions messages and Responses API input items, for
// openai 6 and openai 7, plus the OpenAI Agents SDK's items. No casts, same type back.
import type OpenAI from 'openai';
import type OpenAI6 from 'openai-v6';
import type { AgentInputItem } from '@openai/agents';
import { MemorySession, run, Agent, type Session } from '@openai/agents';
import { midfoldSession } from 'midfold/openai-agents';
import { Compactor, detectFormat, estimateTokens, microCompact, serialize, validate, type CompactorRequest } from 'midfold';

const chat: OpenAI.ChatCompletionMessageParam[] = [
  { role: 'system', content: 'You are a coding agent working in /repo.' },
  { role: 'user', content: 'Which provider does config.toml select?' },
  {
    role: 'assistant', content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"config.toml"}' } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: '[provider]\nname = "anthropic"\n' },
  { role: 'assistant', content: 'It selects the Anthropic provider.' },
];
microCompact(chat, { keepRecent: 1 });
serialize(chat, { format: 'openai' });
const chatCompactor = new Compactor({
  summarize: async (request: CompactorRequest<OpenAI.ChatCompletionMessageParam>) => `${request.messages.length} folded`,
  onArchive: (removed) => {
    // removed is ChatCompletionMessageParam[]: the discriminated union still narrows.
    for (const m of removed) if (m.role === 'tool') void m.tool_call_id;
  },
});
chatCompactor.compact(chat);
export function nextChat(messages: OpenAI.ChatCompletionMessageParam[]): OpenAI.ChatCompletionCreateParamsNonStreaming {
  return { model: 'gpt-4.1', messages };
}

const input: OpenAI.Responses.ResponseInput = [
  { role: 'user', content: 'Find the flaky test and tell me why it fails.' },
  {
    type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Search the test logs first.' }],
    encrypted_content: 'gAAAAABo-opaque',
  },
  { type: 'configuration_update', reasoning: { effort: 'high' } }, // openai 7: the effort for what follows
  // openai 7: an MCP call's error is an McpToolCallError object, no longer a string.
  { type: 'mcp_call', id: 'mcp_1', server_label: 'linear', name: 'create_issue', arguments: '{}', error: { type: 'http_error', code: 502, message: 'Bad Gateway' } },
  { type: 'function_call', call_id: 'call_7', name: 'grep', arguments: '{"pattern":"FAIL"}' },
  { type: 'function_call_output', call_id: 'call_7', output: 'tests/net.test.ts: FAIL timeout after 5000 ms' },
  { type: 'message', role: 'assistant', id: 'msg_1', status: 'completed', content: [{ type: 'output_text', text: 'The network test times out.', annotations: [] }] },
];
const items: OpenAI.Responses.ResponseInputItem[] = input;
estimateTokens(items, { format: 'openai-responses' });
validate(items, { format: 'openai-responses' });
detectFormat(items);
microCompact(items);
new Compactor<OpenAI.Responses.ResponseInputItem>({ summarize: async ({ prompt }) => prompt.slice(0, 100) }).compact(items);

const input6: OpenAI6.Responses.ResponseInputItem[] = [
  { role: 'user', content: [{ type: 'input_text', text: 'List the open pull requests.' }] },
  { type: 'function_call', call_id: 'call_9', name: 'list_prs', arguments: '{}' },
  { type: 'function_call_output', call_id: 'call_9', output: '#41 bump deps\n#42 fix flaky test' },
];
serialize(input6);
microCompact(input6, { keepRecent: 0 });

const chat6: OpenAI6.ChatCompletionMessageParam[] = [{ role: 'developer', content: 'Answer in one line.' }, { role: 'user', content: 'Hi' }];
validate(chat6);

// The Agents SDK's history (what a session or callModelInputFilter holds).
const agentHistory: AgentInputItem[] = [
  { role: 'user', content: 'Book a table for two at 7pm.' },
  { type: 'function_call', callId: 'call_3', name: 'book_table', arguments: '{"people":2,"time":"19:00"}', status: 'completed' },
  { type: 'function_call_result', callId: 'call_3', name: 'book_table', status: 'completed', output: { type: 'text', text: 'Booked: table 12' } },
];
serialize(agentHistory);
let kept: AgentInputItem[] = [];
new Compactor({ summarize: async () => 'summary', onArchive: (removed: AgentInputItem[]) => { kept = removed; } }).compact(agentHistory);
void kept;

// midfoldSession over the SDK's MemorySession is a Session that run() takes; the item type follows the store's.
const agentSession = midfoldSession({
  underlyingSession: new MemorySession(), summarize: async () => 'summary', threshold: 20000,
  // removed is AgentInputItem[]: the SDK's union still narrows.
  onArchive: (removed) => { for (const item of removed) if (item.type === 'function_call_result') void item.callId; },
});
const asSession: Session = agentSession;
export async function sessionRun(): Promise<AgentInputItem[]> {
  await run(new Agent({ name: 'a' }), 'hello', { session: agentSession });
  const report = await agentSession.compact({ force: true });
  if (report.written) void report.stored.after;
  void asSession;
  return agentSession.getItems();
}

// The micro-compaction knobs pass through the Agents session's options.
void midfoldSession({ underlyingSession: new MemorySession(), summarize: async () => 'summary', clearToolInputs: true,
  dropToolCalls: { tools: ['web_search'], beforeLast: 6 }, thinking: { keep: 0 } });
