/**
 * langchain.js — midfold inside LangChain JS v1 agents (the `midfold/langchain` entry): an agent
 * middleware for `createAgent` whose `wrapModelCall` compacts the messages each model call sends.
 *
 * The agent's own state keeps the whole history (as `contextEditingMiddleware` leaves it): what
 * changes is the request. Each call hands the whole history over, so the call compacts through
 * compactHistory with a SessionState: a history that starts with an already-folded prefix gets
 * the same compacted prefix back (the summary is written once, and the prompt cache keeps its
 * prefix), and only new messages are read (docs/state.md). Messages midfold wrote or edited come
 * back from the state as JSON (the constructor form); they are revived as @langchain/core
 * messages of their class here, ids kept. `@langchain/core` and `langchain` are optional peers,
 * imported by this entry only.
 */
import { createMiddleware, tool } from 'langchain';
import { AIMessage, AIMessageChunk, ChatMessage, HumanMessage, SystemMessage, ToolMessage, coerceMessageLikeToMessage } from '@langchain/core/messages';
import { MidfoldError } from '../core/errors.js';
import { checkMessageCount } from '../core/options.js';
import { fractionWindows } from './model-window.js';
import { Compactor } from '../compaction/compactor.js';
import { compactHistory } from '../state/index.js';
import { canonicalJSON, hex, sha256 } from '../state/hash.js';
import { integrationStates } from '../state/conversation-states.js';
import { isMessageInstance } from '../core/langchain.js';
import { recallSetup } from '../recall/options.js';
import { RECALL_DESCRIPTION, RECALL_TOOL_NAME, recallInputSchema } from '../recall/definitions.js';

/** How many recent answers' counts one middleware keeps for the calls that follow them. */
const RECENT_ANSWERS = 16;

const CLASSES = { HumanMessage, AIMessage, AIMessageChunk, SystemMessage, ToolMessage, ChatMessage };

/** A message from the state's JSON (the constructor form) as a @langchain/core instance; instances stay. */
function revive(m) {
  if (isMessageInstance(m)) return m;
  if (m && typeof m === 'object' && m.lc === 1 && m.type === 'constructor' && Array.isArray(m.id)) {
    const Ctor = CLASSES[m.id[m.id.length - 1]];
    if (Ctor) return new Ctor(m.kwargs);
  }
  return coerceMessageLikeToMessage(/** @type {any} */ (m)); // the dict form {type, content}
}

/** The text of a chat model's answer: string content, or its text blocks. */
function answerText(message) {
  const content = message && message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.filter((b) => b && b.type === 'text' && typeof b.text === 'string').map((b) => b.text).join('');
}

/**
 * A Compactor `summarize` that writes the summary with a LangChain chat model (any
 * BaseChatModel: ChatAnthropic, ChatOpenAI, ...): one `invoke` with the summarizer's system
 * prompt and transcript, the Compactor's signal passed on. An empty answer rejects with
 * 'empty-summary' (the conversation then stays as it was).
 * Ownership: keeps a reference to `model`.
 * @param {{invoke: Function}} model
 */
export function langchainSummarizer(model) {
  if (!model || typeof model.invoke !== 'function')
    throw new MidfoldError('invalid-option', 'langchainSummarizer: expected a LangChain chat model (an object with invoke())');
  return async function summarize(request) {
    const answer = await model.invoke([new SystemMessage(request.system), new HumanMessage(request.prompt)], { signal: request.signal });
    const text = answerText(answer).trim();
    if (!text) throw new MidfoldError('empty-summary', 'langchainSummarizer: the model returned no text');
    return text;
  };
}

/** The provider's input count on an AI message (`usage_metadata.input_tokens`, cached tokens included), or undefined. */
function inputCount(message) {
  const n = message && message.usage_metadata && message.usage_metadata.input_tokens;
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** What a count depends on besides the messages: the system message and the tools, as a SHA-256 (hex); undefined if unreadable. */
async function requestContext(request) {
  try {
    const system = request.systemMessage ? request.systemMessage.content : request.systemPrompt ?? null;
    const tools = (request.tools || []).map((t) => (t && typeof t === 'object' ? { name: t.name, description: t.description } : t));
    return hex(await sha256(canonicalJSON({ system, tools })));
  } catch {
    return undefined;
  }
}

/**
 * LangChain's agent middleware for `createAgent({ middleware: [compactionMiddleware({...})] })`.
 * Before each model call it compacts the messages the call sends (micro-compaction of old tool
 * results, and past the threshold a summary of the resolved middle), keeping the tail verbatim
 * and every tool call with its result; the agent's state keeps the whole history.
 *
 * Options are the Compactor's (its format is set for you), and `summarize` is optional: by
 * default the summary is written by the agent's own model (the request's `model`). Plus
 * `state` (a SessionState, to keep the carried state in a store; default: one in memory per
 * conversation, found by these options and the conversation's content), `maxConversations`
 * (256) and `onReport(report)`. With `threshold: {fraction}` and no `contextWindow`, the window of
 * the request's model (from its id, `contextWindowOf`) sets the threshold. The provider's input count on each answer
 * (`usage_metadata.input_tokens`) anchors the estimate of the next call that continues that
 * prompt, under the same system message and tools. Signed thinking: with a tool loop in flight
 * whose AI message carries signed thinking, nothing before it is edited (the default thinking
 * policy, 'prefix-bound'); a summary waits for the turn boundary.
 *
 * Ownership: keeps its Compactors and the state; never changes the request's messages (the
 * request it hands on has a new list; untouched messages are the agent's own).
 * @param {object} [options]
 */
export function compactionMiddleware(options = {}) {
  if (!options || typeof options !== 'object') throw new MidfoldError('invalid-option', 'compactionMiddleware: options must be an object');
  const { state: given, onReport, maxConversations, summarize, recall: recallOption, ...rest } = options;
  // With recall, one archive for every Compactor (`true`: one in memory for the process), and the tool registered.
  const recall = recallSetup(recallOption, 'compactionMiddleware', { shared: true });
  const compactorOptions = recall ? { ...rest, recall: { archive: recall.archive } } : rest;
  if (onReport !== undefined && typeof onReport !== 'function') throw new MidfoldError('invalid-option', 'compactionMiddleware: onReport must be a function');
  if (summarize !== undefined && typeof summarize !== 'function') throw new MidfoldError('invalid-option', 'compactionMiddleware: summarize must be a function');
  const states = integrationStates(given, maxConversations, 'compactionMiddleware', options);
  // Built now, so a bad option fails here and not on the first call; without `summarize`, one per
  // agent model (the model writes its own summaries).
  // threshold {fraction} without contextWindow: a fraction of the window of the request's model (its id, as
  // ChatAnthropic and ChatOpenAI keep it in `model`), so a Compactor per model.
  const windows = fractionWindows(compactorOptions);
  const fixed = new Compactor({ ...(windows ? windows.check : compactorOptions), summarize: summarize || (() => { throw new Error('no model'); }), format: 'langchain' });
  const byModel = new WeakMap();
  const compactorFor = (model) => {
    if (summarize && !windows) return fixed;
    if (!model || typeof model !== 'object') {
      if (summarize) return fixed; // (no model to read a window from: the default threshold, as for an unknown id)
      throw new MidfoldError('invalid-option', 'compactionMiddleware: the request has no model to write summaries with; pass summarize');
    }
    if (!byModel.has(model)) {
      byModel.set(model, new Compactor({ ...(windows ? windows.optionsFor(model) : compactorOptions),
        summarize: summarize || langchainSummarizer(model), format: 'langchain' }));
    }
    return byModel.get(model);
  };
  /** @type {{inputTokens: number, count: number, last: string, context: string}[]} */
  const answers = [];
  const remember = (sent, answer, context) => {
    const inputTokens = inputCount(answer);
    if (inputTokens === undefined || context === undefined || !sent.length) return;
    let last;
    try { last = canonicalJSON(sent[sent.length - 1]); } catch { return; }
    answers.unshift({ inputTokens, count: sent.length, last, context });
    if (answers.length > RECENT_ANSWERS) answers.length = RECENT_ANSWERS;
  };
  return createMiddleware({
    name: 'MidfoldCompactionMiddleware',
    ...(recall ? { tools: [recallTool(recall)] } : {}),
    async wrapModelCall(request, handler) {
      const history = request.messages;
      if (!Array.isArray(history) || history.length === 0) return handler(request);
      checkMessageCount(history, 'compactionMiddleware');
      const context = await requestContext(request);
      const state = given || await states.of(history);
      const usage = answers.filter((a) => a.context === context).map(({ inputTokens, count, last }) => ({ inputTokens, count, last }));
      const signal = request.runtime && request.runtime.signal;
      const { messages, report } = await compactHistory(compactorFor(request.model), history,
        { state, usage: usage.length ? usage : undefined, context, ...(signal ? { signal } : {}) });
      if (onReport) { try { onReport(report); } catch { /* a failing hook must not fail the call */ } }
      const sent = report.session && report.session.changed ? messages.map(revive) : history;
      const answer = await handler(sent === history ? request : { ...request, messages: sent });
      remember(sent, answer, context);
      return answer;
    },
  });
}

/**
 * The recall tool as a LangChain tool over `recall` (recallSetup's): what compactionMiddleware
 * registers with `recall`. An error answer is the tool's output, starting "recall error:".
 */
function recallTool(recall) {
  return tool(async (input) => (await recall.executor(input)).text, {
    name: RECALL_TOOL_NAME, description: RECALL_DESCRIPTION, schema: recallInputSchema(),
  });
}

export { SessionState } from '../state/index.js';
export { conversationStates } from '../state/conversation-states.js';
