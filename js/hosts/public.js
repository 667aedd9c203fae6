/**
 * public.js — what every host entry (node.js, browser.js, workerd.js) exports alike: each
 * entry re-exports this list and adds its own init functions and its memory tool (which
 * finds its own module the host's way). tests/package/types.test.mjs checks that the entries' names
 * are exactly the values index.d.ts declares.
 */

// The public part of core/api.js, by name: its other exports (initTier, microReport, …) are
// for midfold's own modules.
export {
  MidfoldError, isReady, memoryUsage, estimateTokens, serialize, microCompact, planMicroCompact, planCompaction, digest, validate,
  detectFormat,
} from '../core/api.js';
export { Compactor, digestSummarizer } from '../compaction/compactor.js';
export { EstimateCache } from '../core/estimate-cache.js';
export { openAISummarizer, anthropicSummarizer, anthropicCompaction, openAIResponsesCompaction, SummarizerError } from '../compaction/summarizers.js';
export { anthropicServerContext, responsesServerContext, responsesContextManagement } from '../compaction/server-context.js';
export { SessionState, compactHistory, memoryStateStore, conversationKey, canonicalJSON } from '../state/index.js';
export { simulate } from '../simulate/simulate.js';
export { pricingOfURL } from '../pricing/hosts.js';
export { contextWindowOf } from '../pricing/windows.js';
export { simulationChart } from '../simulate/chart.js';
export { readAgentLog, agentLogFormat } from '../logs/index.js';
export { recallArchive } from '../recall/archive.js';
export { recallMicroCompact } from '../recall/micro.js';
export { createRecallTool } from '../recall/recall-tool.js';
export { anthropicRecallTool, openAIChatRecallTool, responsesRecallTool, recallInputSchema } from '../recall/definitions.js';
