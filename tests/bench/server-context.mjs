// Long signed-thinking tool loops through the Anthropic SDK against the strict provider: what the provider read at
// most, with midfold's server-side context management (anthropicServerContext) and without it. Prints one line per
// run; the figures are in docs/thinking.md ("While a loop is in flight").
//   node tests/bench/server-context.mjs
import Anthropic from '@anthropic-ai/sdk';
import { init, Compactor, digestSummarizer, anthropicServerContext } from 'midfold';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { tokensOf } from '../helpers/context-management.mjs';
import { CORE_NAMES, coreFileSize, readWorkloadFile } from '../helpers/corpus.mjs';
const FILES = CORE_NAMES.filter((f) => f.endsWith('.c') && coreFileSize(f) > 3000 && coreFileSize(f) < 13000).sort().map((f) => `src/${f}`);
const read = readWorkloadFile;
await init();
const provider = await startStrictProvider();
const client = new Anthropic({ baseURL: provider.url, apiKey: 'k', maxRetries: 0 });
const tools = [{ name: 'read_file', description: 'Read', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];
for (const [threshold, READS, server] of [[20000, 38, true], [20000, 80, true], [20000, 150, true], [60000, 38, true], [60000, 80, true], [60000, 150, true], [20000, 38, false], [60000, 80, false]]) {
  let step = 0;
  provider.reply = () => { const i = step++; return i < READS ? [{ type: 'thinking', thinking: `Step ${i}: ${FILES[i % FILES.length]} next.` }, { type: 'tool_use', id: `t${threshold}_${READS}_${i}`, name: 'read_file', input: { path: FILES[i % FILES.length] } }] : [{ type: 'thinking', thinking: 'Enough.' }, { type: 'text', text: 'done' }]; };
  const compactor = new Compactor({ summarize: digestSummarizer(), threshold });
  const messages = [{ role: 'user', content: `Read ${threshold} ${READS} ${server}` }];
  const first = provider.requests.length;
  for (;;) {
    const report = await compactor.compact(messages);
    const s = server ? anthropicServerContext(compactor, messages, report) : { messages, betas: [] };
    const reply = await client.beta.messages.create({ model: 'claude-opus-4-7', max_tokens: 8192, system: 'sys', tools, thinking: { type: 'enabled', budget_tokens: 4096 }, messages: s.messages, ...(s.context_management ? { context_management: s.context_management } : {}), betas: s.betas });
    if (!(reply.context_management && reply.context_management.applied_edits.length)) compactor.observeUsage({ inputTokens: reply.usage.input_tokens, messages });
    messages.push({ role: 'assistant', content: reply.content });
    if (reply.stop_reason !== 'tool_use') break;
    messages.push({ role: 'user', content: reply.content.filter((b) => b.type === 'tool_use').map((b) => ({ type: 'tool_result', tool_use_id: b.id, content: read(b.input.path) })) });
  }
  const sent = provider.requests.slice(first);
  const reads = sent.map((q) => q.read ?? tokensOf(q.body.messages));
  const peak = Math.max(...reads);
  console.log(`threshold ${threshold} steps ${READS + 1} server ${server}: requests ${sent.length} ok ${sent.every((q) => q.status === 200)} peak ${peak} (${(peak / threshold).toFixed(2)}x) last ${reads.at(-1)} compactions ${sent.filter((q) => q.appliedEdits?.some((e) => e.type === 'compact_20260112')).length} clears ${sent.filter((q) => q.appliedEdits?.some((e) => e.type === 'clear_tool_uses_20250919')).length}`);
}
await provider.close();
