// Anthropic Messages API arrays, typed by @anthropic-ai/sdk itself, go in without a cast
// and come back (onArchive, the summarizer's request) as the same type.
import Anthropic from '@anthropic-ai/sdk';
import {
  Compactor, anthropicCompaction, detectFormat, digest, digestSummarizer, estimateTokens, microCompact, planCompaction,
  planMicroCompact, serialize, validate, type CompactReport, type Format, type MicroReport,
} from 'midfold';

const messages: Anthropic.MessageParam[] = [
  { role: 'user', content: 'The build fails on CI: read src/config.ts and fix the import.' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading the file.' },
      { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: 'src/config.ts' } },
    ],
  },
  {
    role: 'user',
    content: [{
      type: 'tool_result', tool_use_id: 'toolu_01',
      content: [{ type: 'text', text: "import { load } from './loader';\nexport const config = load();\n" }],
    }],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'The loader lives in src/lib/loader.ts; the import path is wrong.' }] },
];

const tokens: number = estimateTokens(messages, { profile: 'claude', format: 'anthropic' });
const transcript: string = serialize(messages);
const format: Format | 'unknown' = detectFormat(messages);
const problems = validate(messages).problems.map((p) => `${p.code} at ${p.index}`);
const report: MicroReport = microCompact(messages, { keepRecent: 1, excludeTools: ['memory'] });
const planned = planMicroCompact(messages).edits.map((e) => e.replacement);
const cut: number = planCompaction(messages, { keepTailTokens: 2_000 }).tailStart;
const short: string = digest(messages, { maxTokens: 500 });

// A frozen history is read as it is (everything but the two in-place editors takes readonly arrays).
const history: readonly Anthropic.MessageParam[] = Object.freeze(messages.slice());
estimateTokens(history);
serialize(history);
validate(history);

let archived: Anthropic.MessageParam[] = [];
const compactor = new Compactor({
  summarize: async ({ messages: folded, prompt }) => `${folded.length} messages: ${prompt.length} chars`,
  onArchive: (removed: Anthropic.MessageParam[], summary: string) => { archived = removed; void summary; },
});
const done: Promise<CompactReport> = compactor.compact(messages, { force: true });

// Anthropic writes the summary with the conversation's own system prompt and tools: the kept turns keep their thinking.
const tools: Anthropic.Tool[] = [{ name: 'read_file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }];
const preserving = anthropicCompaction({ apiKey: 'sk-ant-test', model: 'claude-opus-4-7', system: 'You fix builds.', tools, preservedThinking: true });
const preserves: boolean = preserving.preservesThinking;
new Compactor({ summarize: preserving }).compact(messages);
compactor.observeUsage({ inputTokens: 1234, messages });

// What comes back is the SDK's type: it goes straight into the next request.
export function nextRequest(): Anthropic.MessageCreateParamsNonStreaming {
  return { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: archived };
}

// The beta API's own params.
const beta: Anthropic.Beta.BetaMessageParam[] = [
  { role: 'user', content: [{ type: 'text', text: 'Summarize the open issues in the tracker.' }] },
  {
    role: 'assistant',
    content: [{ type: 'tool_use', id: 'toolu_02', name: 'list_issues', input: { state: 'open' } }],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_02', content: '#12 flaky test\n#14 slow build' }] },
];
const betaCompactor = new Compactor<Anthropic.Beta.BetaMessageParam>({ summarize: digestSummarizer() });
betaCompactor.compact(beta);
microCompact(beta, { keepRecent: 0 });
serialize(beta);

void [tokens, transcript, format, problems, report, planned, cut, short, done, preserves];
