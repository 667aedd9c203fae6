/**
 * mastra.js — midfold inside a Mastra agent (the `midfold/mastra` entry): an input processor
 * whose `processLLMRequest` compacts the prompt of each model call.
 *
 * Mastra (@mastra/core 1.x) builds every step's prompt from the agent's message list (memory's
 * recalled history, the new input, the loop's tool calls) and hands it to each processor's
 * `processLLMRequest` as an AI SDK provider-level prompt (LanguageModelV2Prompt: system content a
 * string, user, assistant and tool content arrays of parts) just before the model call; what the
 * hook returns is sent, and "is *not* persisted back to the message list" (the Processor
 * interface's own words). So memory keeps the whole history and only what is sent is folded: the
 * hook is the AI SDK middleware's prompt transform (midfoldMiddleware, format 'ai-sdk') at that
 * stage, with its SessionState per conversation, its pricing by model and its usage anchoring
 * (the `finish` chunk's input count, read in `processLLMResponse`).
 *
 * `@mastra/core` is a peer: nothing here imports it (a processor is a plain object).
 */
import { MidfoldError } from '../core/errors.js';
import { midfoldMiddleware } from './ai-sdk.js';

const FN = 'compactionProcessor';
const isObject = (v) => v !== null && typeof v === 'object';
const isSignal = (v) => isObject(v) && typeof v.aborted === 'boolean' && typeof v.addEventListener === 'function';

/**
 * `{inputTokens}` of the last `finish` chunk a step produced (Mastra's stripped chunks:
 * `{type: 'finish', payload: {output: {usage: {inputTokens}}}}`), or undefined.
 */
function finishUsage(chunks) {
  if (!Array.isArray(chunks)) return undefined;
  for (let i = chunks.length - 1; i >= 0; i--) {
    const c = chunks[i];
    if (!isObject(c) || c.type !== 'finish' || !isObject(c.payload)) continue;
    const usage = isObject(c.payload.output) ? c.payload.output.usage : c.payload.usage;
    const n = isObject(usage) ? usage.inputTokens : undefined;
    return Number.isInteger(n) && n >= 0 ? { inputTokens: n } : undefined;
  }
  return undefined;
}

/** Runs `build`, naming this function in the option errors the middleware would name itself in. */
function named(build) {
  try {
    return build();
  } catch (e) {
    const own = 'midfoldMiddleware:';
    if (e instanceof MidfoldError && e.message.startsWith(own)) throw new MidfoldError(e.code, `${FN}:${e.message.slice(own.length)}`);
    throw e;
  }
}

/**
 * A Mastra input processor (`inputProcessors: [compactionProcessor({…})]` on an `Agent`, or per
 * call) that compacts the prompt of every model call of the agent's loop: old tool results are
 * cleared to one-line markers, and past the threshold the resolved middle is folded into a
 * summary (a user message of text parts), the system prompt and the live tail kept verbatim,
 * every tool call with its result. Memory's stored messages, the message list and the UI history
 * are never changed. A failed summary (error, timeout, abort, empty text) sends the prompt as it
 * was.
 *
 * Options are the Compactor's (the format is set for you) plus `state` (a SessionState; default:
 * one in memory per conversation, found by its content, the `maxConversations` (256) most
 * recently used), `onReport(report)` and `signal` (beside the run's own `abortSignal`, which
 * already aborts a summary being written). Place it before Mastra's `TokenLimiter` when you keep
 * one as a hard cap: processors run in order, each on the prompt the one before returned.
 *
 * Ownership: the processor keeps the Compactor and the state; it never changes the prompt it is
 * given (what changed comes back as a new array).
 * @param {object} options
 */
export function compactionProcessor(options) {
  if (!isObject(options)) throw new MidfoldError('invalid-option', `${FN}: options with a summarize function are required`);
  const { onReport, signal, specificationVersion } = options;
  if (specificationVersion !== undefined) throw new MidfoldError('invalid-option', `${FN}: specificationVersion is not an option here (Mastra hands every model's prompt over in one form)`);
  if (onReport !== undefined && typeof onReport !== 'function') throw new MidfoldError('invalid-option', `${FN}: onReport must be a function`);
  if (signal !== undefined && !isSignal(signal)) throw new MidfoldError('invalid-option', `${FN}: signal must be an AbortSignal`);
  const middleware = named(() => midfoldMiddleware(options));
  // What each request sent (its params, as the middleware returned them), for the count its answer brings.
  /** @type {WeakMap<object, object>} */
  const sent = new WeakMap();
  return {
    id: 'midfold',
    name: 'midfold compaction',
    description: 'Compacts what the agent sends: clears old tool results and folds the resolved middle into a summary; memory keeps everything.',
    async processLLMRequest({ prompt, model, state, abortSignal }) {
      if (!Array.isArray(prompt)) return undefined;
      const params = { prompt, ...(isSignal(abortSignal) ? { abortSignal } : {}) };
      const out = await middleware.transformParams({ type: 'stream', params, model });
      if (isObject(state)) sent.set(state, out);
      return out.prompt === prompt ? undefined : { prompt: out.prompt };
    },
    async processLLMResponse({ chunks, model, state, fromCache }) {
      const params = isObject(state) ? sent.get(state) : undefined;
      if (!params) return;
      sent.delete(state);
      const usage = fromCache ? undefined : finishUsage(chunks);
      // The middleware keeps the provider's count for the prompt it answered (wrapGenerate's own
      // bookkeeping): the answer is in, so its doGenerate only hands that count over.
      if (usage) await middleware.wrapGenerate({ doGenerate: async () => ({ usage }), params, model });
    },
  };
}

export { languageModelSummarizer } from './ai-sdk.js';
export { SessionState } from '../state/index.js';
export { conversationStates } from '../state/conversation-states.js';
