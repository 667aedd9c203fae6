// AI SDK arrays: ModelMessage (ai 6 and ai 7), UIMessage (what useChat holds), and the
// provider-level prompts a transformParams middleware gets (LanguageModelV3 and V4).
import type { ModelMessage, UIMessage } from 'ai';
import type { ModelMessage as ModelMessage7, UIMessage as UIMessage7 } from 'ai-v7';
import type { LanguageModelV3CallOptions, LanguageModelV3Message, LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { LanguageModelV4Prompt } from '@ai-sdk/provider-v4';
import { Compactor, estimateTokens, microCompact, planCompaction, serialize, validate, type CompactReport } from 'midfold';

const model: ModelMessage[] = [
  { role: 'system', content: 'You are a support agent for Acme Cloud.' },
  { role: 'user', content: [{ type: 'text', text: 'Why is my deploy stuck?' }] },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'getDeploy', input: { id: 'dep_42' } }],
  },
  {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'getDeploy', output: { type: 'json', value: { state: 'queued', position: 3 } } }],
  },
];
microCompact(model, { keepRecent: 1, format: 'ai-sdk' });
let archived6: ModelMessage[] = [];
const compactor = new Compactor({ summarize: async () => 'summary', onArchive: (removed: ModelMessage[]) => { archived6 = removed; } });
const report: Promise<CompactReport> = compactor.compact(model);

const model7: ModelMessage7[] = [
  { role: 'user', content: 'Resize the screenshot and describe it.' },
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c2', toolName: 'screenshot', input: {} }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c2', toolName: 'screenshot', output: { type: 'text', value: 'saved /tmp/shot.png' } }] },
];
serialize(model7);
new Compactor<ModelMessage7>({ summarize: async ({ messages }) => `${messages.length} messages` }).compact(model7);

// A chat UI's state (useChat's messages), ai 6 and ai 7, including a tool part.
const ui: UIMessage[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'What is the weather in Lisbon?' }] },
  {
    id: 'a1', role: 'assistant',
    parts: [
      { type: 'step-start' },
      { type: 'tool-weather', toolCallId: 't1', state: 'output-available', input: { city: 'Lisbon' }, output: { tempC: 21 } },
      { type: 'text', text: 'It is 21 °C in Lisbon.' },
    ],
  },
];
validate(ui, { format: 'ai-sdk-ui' });
microCompact(ui);
let shown: UIMessage[] = [];
new Compactor({ summarize: async () => 'summary', onArchive: (removed: UIMessage[]) => { shown = removed; } }).compact(ui);
const ui7: UIMessage7[] = [{ id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Translate the release notes.' }] }];
estimateTokens(ui7);
serialize(ui7);

// The provider-level prompt, as a middleware's transformParams receives it.
export async function transformParams({ params }: { params: LanguageModelV3CallOptions }): Promise<LanguageModelV3CallOptions> {
  const prompt: LanguageModelV3Prompt = [...params.prompt];
  await new Compactor<LanguageModelV3Message>({ summarize: async () => 'summary' }).compact(prompt);
  return { ...params, prompt };
}
const v3: LanguageModelV3Prompt = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: [{ type: 'text', text: 'Run the tests.' }] },
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c3', toolName: 'bash', input: { cmd: 'npm test' } }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c3', toolName: 'bash', output: { type: 'text', value: '42 passing' } }] },
];
microCompact(v3);
planCompaction(v3);
const v4: LanguageModelV4Prompt = [
  { role: 'user', content: [{ type: 'text', text: 'Run the linter.' }], providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c4', toolName: 'bash', input: { cmd: 'npm run lint' } }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c4', toolName: 'bash', output: { type: 'text', value: '0 problems' } }] },
];
microCompact(v4, { keepRecent: 0 });
let v4Archive: LanguageModelV4Prompt = [];
new Compactor({ summarize: async () => 'summary', onArchive: (removed: LanguageModelV4Prompt) => { v4Archive = removed; } }).compact(v4);

void [archived6, report, shown, v4Archive];
