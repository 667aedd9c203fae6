// What the types refuse. Each @ts-expect-error must meet an error, or tsc reports the
// directive itself as unused (TS2578): the refusals are checked, not assumed.
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import {
  Compactor, SessionState, anthropicCompaction, detectFormat, digestSummarizer, estimateTokens, microCompact, serialize, validate,
  type Format, type Message,
} from 'midfold';

// @ts-expect-error: a number array is not a conversation
serialize([1, 2, 3]);
// @ts-expect-error: nor is a list of strings
validate(['hello', 'world']);
// @ts-expect-error: an object without role or type is not a message
detectFormat([{ content: 'orphan text' }]);
// @ts-expect-error: a string is not a list of messages
microCompact('[{"role":"user"}]');

const frozen: readonly OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hi' }];
// @ts-expect-error: microCompact edits the messages in place, so it wants a mutable array
microCompact(frozen);

const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Read the changelog.' }];
// @ts-expect-error: a misspelt option
microCompact(messages, { keepRecnt: 2 });
// @ts-expect-error: an unknown profile
estimateTokens(messages, { profile: 'gpt-9' });
// @ts-expect-error: an unknown format
serialize(messages, { format: 'gemini' });
// @ts-expect-error: keepRecent is a number
microCompact(messages, { keepRecent: '3' });

// @ts-expect-error: summarize is required
new Compactor({ threshold: 10_000 });
// @ts-expect-error: policy is 'batched' or 'every-turn' (or the deprecated 'seed')
new Compactor({ summarize: digestSummarizer(), policy: 'every_turn' });
// @ts-expect-error: fallback is 'digest' or nothing
new Compactor({ summarize: digestSummarizer(), fallback: 'retry' });
// @ts-expect-error: a summarizer resolves to text, not a number
new Compactor({ summarize: async () => 42 });

// A Compactor bound to Anthropic messages refuses OpenAI ones, and its archive is Anthropic's.
const anthropic = new Compactor<Anthropic.MessageParam>({ summarize: digestSummarizer() });
const chat: OpenAI.ChatCompletionMessageParam[] = [{ role: 'tool', tool_call_id: 'call_1', content: 'ok' }];
// @ts-expect-error: an OpenAI tool message is not an Anthropic MessageParam
anthropic.compact(chat);
new Compactor<Anthropic.MessageParam>({
  summarize: digestSummarizer(),
  // @ts-expect-error: the archive holds Anthropic messages, not OpenAI ones
  onArchive: (removed: OpenAI.ChatCompletionMessageParam[]) => void removed,
});

// @ts-expect-error: estimateTokens returns a number
const text: string = estimateTokens('x');
// @ts-expect-error: detectFormat can say 'unknown', which is not a Format
const format: Format = detectFormat(messages);
// @ts-expect-error: a hand-written message needs a role (or a Responses item type)
const bare: Message = { content: 'no role' };

void [text, format, bare];

// @ts-expect-error: pricing names a provider whose cache prices midfold knows
new Compactor({ summarize: digestSummarizer(), pricing: 'deepseak' });
new Compactor({ summarize: digestSummarizer(), pricing: 'deepseek' });

// @ts-expect-error: preservedThinking is a boolean
anthropicCompaction({ model: 'claude-opus-4-7', preservedThinking: 'yes' });

// A state for conversations that open alike: branches are counted in whole numbers.
new SessionState({ maxSnapshots: 4, maxBranches: 8, maxBytes: 120 * 1024 });
// @ts-expect-error: maxBranches is a number
new SessionState({ maxBranches: '8' });

// keepTail knows tokens and messages; the threshold is tokens or a fraction of contextWindow.
new Compactor({ summarize: digestSummarizer(), keepTail: { tokens: 4000, messages: 20 }, threshold: { fraction: 0.8 }, contextWindow: 200_000 });
// @ts-expect-error: keepTail has no key 'token' (the Compactor refuses it at run time too)
new Compactor({ summarize: digestSummarizer(), keepTail: { token: 500 } });
// @ts-expect-error: a fraction is a number
new Compactor({ summarize: digestSummarizer(), threshold: { fraction: '0.8' }, contextWindow: 200_000 });

// The micro-compaction knobs: each takes only its own shape.
microCompact(messages, { clearToolInputs: true, thinking: { keep: 1 }, dropToolCalls: { tools: ['grep'], beforeLast: 4 }, reasoning: 'before-last-message' });
// @ts-expect-error: clearToolInputs is a boolean
microCompact(messages, { clearToolInputs: 'yes' });
// @ts-expect-error: thinking {keep} needs its count
microCompact(messages, { thinking: { binding: 'unbound' } });
// @ts-expect-error: dropToolCalls names its tools
microCompact(messages, { dropToolCalls: { beforeLast: 4 } });
// @ts-expect-error: reasoning knows one rule, before-last-message
microCompact(messages, { reasoning: 'all' });
// @ts-expect-error: the Compactor's knobs are checked the same way
new Compactor({ summarize: digestSummarizer(), dropToolCalls: { tools: 'grep', beforeLast: 4 } });
