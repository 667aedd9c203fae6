// midfold/mastra's processor where Mastra takes it: an Agent's inputProcessors (@mastra/core's own types).
import { Agent } from '@mastra/core/agent';
import type { InputProcessor, ProcessLLMRequestArgs } from '@mastra/core/processors';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { compactionProcessor, languageModelSummarizer } from 'midfold/mastra';

declare const model: LanguageModelV3;
const processor = compactionProcessor({ summarize: languageModelSummarizer(model), threshold: 40_000 });
const asInput: InputProcessor = processor;
export const agent = new Agent({ id: 'reviewer', name: 'reviewer', instructions: 'Review the code.', model, inputProcessors: [asInput] });

// What the processor returns is what Mastra forwards: the provider-level prompt it was given, in its own type.
export async function forward(args: ProcessLLMRequestArgs) {
  const out = await processor.processLLMRequest(args);
  return out ? out.prompt : args.prompt;
}

// The micro-compaction knobs pass through the processor's options.
void compactionProcessor({ summarize: languageModelSummarizer(model), clearToolInputs: true, reasoning: 'before-last-message',
  thinking: { keep: 1 }, dropToolCalls: { tools: ['search'], beforeLast: 4 } });
