/**
 * openai-agents.js — midfold inside the OpenAI Agents SDK (the `midfold/openai-agents`
 * entry): a `callModelInputFilter` that compacts the items a run sends to the model, with
 * compaction state carried across the run's calls, and `midfoldSession`, a Session that
 * compacts what it stores (agents-session.js).
 *
 * The filter reads each item in its Responses form (agents-items.js), compacts those with the
 * `openai-responses` format through compactHistory, and gives back the SDK's own items:
 * untouched items are the caller's objects, a cleared result keeps everything but its output,
 * and the summary is a user message the SDK accepts. `@openai/agents` is a peer: nothing here
 * imports it.
 */
import { MidfoldError } from '../core/errors.js';
import { Compactor } from '../compaction/compactor.js';
import { fractionWindows } from './model-window.js';
import { compactHistory } from '../state/index.js';
import { integrationStates } from '../state/conversation-states.js';
import { checkDepth } from '../core/depth.js';
import { checkMessageCount } from '../core/options.js';
import { toResponses, fromResponses } from './agents-items.js';
import { recallSetup } from '../recall/options.js';
import { RECALL_DESCRIPTION, RECALL_TOOL_NAME, recallInputSchema } from '../recall/definitions.js';
import { withRecall } from './ai-sdk-recall.js';
import { fromLastCompactionItem } from '../compaction/server-context.js';


/**
 * A `callModelInputFilter` for `run(agent, input, { callModelInputFilter })` or a Runner:
 * compacts `modelData.input` before each model call, with the carried state (a SessionState;
 * default: one in memory per conversation, found by its content, the `maxConversations`
 * (256) most recently used). Options are the Compactor's (its format is set for you) plus
 * `state`, `maxConversations` and `onReport(report)`. The instructions pass through unchanged.
 * `threshold: {fraction}` without `contextWindow` is a fraction of the window of the agent's
 * model, found from its id (`agent.model`; an agent on the Runner's default model names none:
 * the default threshold applies, with a warning through `onWarn`).
 *
 * With the server's compaction on (the agent's `modelSettings.contextManagement:
 * responsesContextManagement(threshold)`), a loop with encrypted reasoning that midfold must leave
 * alone is compacted by the server, and the output carries a `compaction` item: each model call is
 * then sent from the last one on (the items before it are dropped, as OpenAI's compaction guide
 * allows), and midfold compacts what follows it.
 *
 * Ownership: keeps the Compactor and the state; never changes the SDK's items (untouched
 * items are returned as they came, edited ones as copies).
 * @param {object} options
 * @returns {(args: {modelData: {input: unknown[], instructions?: string}}) => Promise<{input: unknown[], instructions?: string}>}
 */
export function compactionFilter(options) {
  if (!options || typeof options !== 'object') throw new MidfoldError('invalid-option', 'compactionFilter: options with a summarize function are required');
  const { state: given, onReport, maxConversations, recall: recallOption, ...rest } = options;
  // With recall, one archive for every Compactor the filter builds (`true`: one in memory for the process).
  const recall = recallSetup(recallOption, 'compactionFilter', { shared: true });
  const compactorOptions = recall ? { ...rest, recall: { archive: recall.archive } } : rest;
  // Without a state from the host, each conversation gets one of its own (found by content), in the
  // module's map: a filter built inside each run() continues as one built once.
  const states = integrationStates(given, maxConversations, 'compactionFilter', options);
  // threshold {fraction} without contextWindow: a fraction of the window of the agent's model (its
  // id: `agent.model` as a string, or the model object's); one Compactor per window.
  const windows = fractionWindows(compactorOptions);
  const compactor = new Compactor({ ...(windows ? windows.check : compactorOptions), format: 'openai-responses' });
  const byWindow = new Map();
  const compactorFor = (agent) => {
    if (!windows) return compactor;
    const model = agent && typeof agent === 'object' ? agent.model : undefined;
    const key = windows.variant(model);
    if (!byWindow.has(key)) byWindow.set(key, new Compactor({ ...windows.optionsFor(model), format: 'openai-responses' }));
    return byWindow.get(key);
  };
  return withRecall(async function callModelInputFilter({ modelData, agent }) {
    if (!modelData || !Array.isArray(modelData.input)) return modelData;
    // (the count first: a sparse list of a billion holes must be refused before anything walks it)
    checkMessageCount(modelData.input, 'compactionFilter');
    // The server reads from its last compaction item on: the call is sent from there.
    const originals = fromLastCompactionItem(modelData.input);
    originals.forEach((item, i) => checkDepth(item, [i], 1)); // before JSON.stringify could overflow the stack
    const read = originals.map(toResponses);
    const state = given || await states.of(read);
    const { messages, report } = await compactHistory(compactorFor(agent), read, { state });
    if (onReport) { try { onReport(report); } catch { /* a failing hook must not fail the run */ } }
    if (!report.session || !report.session.changed) return originals === modelData.input ? modelData : { ...modelData, input: originals };
    return { ...modelData, input: fromResponses(messages, read, originals) };
  }, recall);
}

/**
 * The recall tool as an OpenAI Agents `tool()` (imported from the application's
 * `@openai/agents`), over the archive of `source`: a compactionFilter or a Compactor made with
 * `recall`. Add it to the agent's `tools`. Not strict (the input is an id, with an optional
 * page, or a query); an error answer is returned as the tool's output, which starts with
 * "recall error:" (a thrown error would reach the model as the SDK's generic message).
 * @param {{recall: {executor: (input: unknown) => Promise<{isError: boolean, text: string}>} | null}} source
 */
export async function recallTool(source) {
  const recall = source && source.recall;
  if (!recall || typeof recall.executor !== 'function')
    throw new MidfoldError('invalid-option', 'recallTool: make compactionFilter or the Compactor with recall (recall: true)');
  const { tool } = await import('@openai/agents');
  return tool({
    name: RECALL_TOOL_NAME, description: RECALL_DESCRIPTION, strict: false,
    parameters: { ...recallInputSchema(), required: [], additionalProperties: true },
    execute: async (input) => (await recall.executor(input)).text,
  });
}

export { midfoldSession } from './agents-session.js';
export { SessionState } from '../state/index.js';
export { conversationStates } from '../state/conversation-states.js';
