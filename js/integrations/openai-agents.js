/**
 * openai-agents.js — midfold inside the OpenAI Agents SDK (the `midfold/openai-agents`
 * entry): a `callModelInputFilter` that compacts the items a run sends to the model, with
 * compaction state carried across the run's calls.
 *
 * The Agents SDK's items (`AgentInputItem`) are the Responses API's input items in the SDK's
 * own spelling (`callId`, `function_call_result`, `providerData`). The filter reads each item
 * in its Responses form (one to one, in order), compacts those with the `openai-responses`
 * format through compactHistory, and gives back the SDK's own items: untouched items are the
 * caller's objects, a cleared result keeps everything but its output, and the summary is a
 * user message the SDK accepts. `@openai/agents` is a peer: nothing here imports it.
 */
import { MidfoldError } from '../core/errors.js';
import { Compactor } from '../compaction/compactor.js';
import { fractionWindows } from './model-window.js';
import { compactHistory } from '../state/index.js';
import { integrationStates } from '../state/conversation-states.js';
import { checkDepth } from '../core/depth.js';
import { checkMessageCount } from '../core/options.js';

const isObject = (v) => v !== null && typeof v === 'object';

// SDK item type -> Responses item type, for items that pair by call id.
const CALLS = { function_call: 'function_call', computer_call: 'computer_call', shell_call: 'shell_call', apply_patch_call: 'apply_patch_call' };
const RESULTS = { function_call_result: 'function_call_output', computer_call_result: 'computer_call_output',
  shell_call_output: 'shell_call_output', apply_patch_call_output: 'apply_patch_call_output' };

/** A tool output in the SDK's spelling as the Responses API reads it. */
function responsesOutput(output) {
  if (typeof output === 'string') return output;
  const one = (o) => (!isObject(o) ? { type: 'input_text', text: String(o) }
    : o.type === 'text' ? { type: 'input_text', text: String(o.text ?? '') }
    : o.type === 'image' ? { type: 'input_image', image_url: typeof o.image === 'string' ? o.image : '' }
    : o.type === 'file' ? { type: 'input_file', filename: o.filename || 'file' }
    : { type: 'input_text', text: JSON.stringify(o) });
  if (Array.isArray(output)) return output.map(one);
  if (isObject(output) && output.type === 'text') return String(output.text ?? '');
  return [one(output)];
}

/** The Responses form of one SDK item (a new object; the SDK's item is not changed). */
function toResponses(item) {
  if (!isObject(item)) return item;
  const t = item.type;
  if (CALLS[t]) {
    const { callId, providerData, ...rest } = item;
    return { ...rest, type: CALLS[t], call_id: callId };
  }
  if (RESULTS[t]) {
    const { callId, output } = item;
    return t === 'computer_call_result'
      ? { type: 'computer_call_output', call_id: callId, output: { type: 'computer_screenshot', image_url: isObject(output) ? output.data || output.image || '' : '' } }
      : { type: RESULTS[t], call_id: callId, output: responsesOutput(output) };
  }
  if (t === 'reasoning') {
    const text = Array.isArray(item.content) ? item.content.map((c) => (isObject(c) ? c.text || '' : '')).join('\n') : '';
    const out = { type: 'reasoning', id: item.id || '', summary: text ? [{ type: 'summary_text', text }] : [] };
    // @openai/agents 0.20 keeps the API's own spelling here (providerData.encrypted_content) and reads either.
    const encrypted = isObject(item.providerData) ? item.providerData.encrypted_content ?? item.providerData.encryptedContent : undefined;
    if (typeof encrypted === 'string') out.encrypted_content = encrypted;
    return out;
  }
  if (t === 'hosted_tool_call') {
    const kind = isObject(item.providerData) && typeof item.providerData.type === 'string' ? item.providerData.type : 'web_search_call';
    return { type: kind, id: item.id || '', status: item.status || 'completed' };
  }
  if (typeof item.role === 'string') {
    const { providerData, ...rest } = item;
    return { ...rest, type: 'message' };
  }
  return item;
}

/** What ties an output item to the SDK item it came from, whatever midfold edited in it. */
function keyOf(item) {
  if (!isObject(item)) return JSON.stringify(item);
  if (typeof item.call_id === 'string') return `${item.type}:${item.call_id}`;
  if (typeof item.id === 'string' && item.id) return `${item.type}#${item.id}`;
  return JSON.stringify(item);
}

/** An inserted message (the summary, its acknowledgement) in the SDK's spelling. */
function toAgentMessage(item) {
  const text = typeof item.content === 'string' ? item.content
    : Array.isArray(item.content) ? item.content.map((p) => (isObject(p) ? p.text || '' : '')).join('') : '';
  return item.role === 'assistant'
    ? { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] }
    : { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
}

/**
 * Maps compacted Responses items back to SDK items: each output item is matched, in order,
 * to the SDK item it was read from; a matched item whose output was cleared gets the marker
 * as its output; an unmatched message is one midfold wrote.
 */
function fromResponses(outputItems, read, originals) {
  const out = [];
  let j = 0;
  for (const o of outputItems) {
    const key = keyOf(o);
    let k = j;
    while (k < read.length && keyOf(read[k]) !== key) k++;
    if (k === read.length) { out.push(toAgentMessage(o)); continue; }
    j = k + 1;
    const original = originals[k];
    const cleared = isObject(o) && typeof o.output === 'string' && isObject(read[k]) && o.output !== read[k].output;
    out.push(cleared ? { ...original, output: { type: 'text', text: o.output } } : original);
  }
  return out;
}

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
 * Ownership: keeps the Compactor and the state; never changes the SDK's items (untouched
 * items are returned as they came, edited ones as copies).
 * @param {object} options
 * @returns {(args: {modelData: {input: unknown[], instructions?: string}}) => Promise<{input: unknown[], instructions?: string}>}
 */
export function compactionFilter(options) {
  if (!options || typeof options !== 'object') throw new MidfoldError('invalid-option', 'compactionFilter: options with a summarize function are required');
  const { state: given, onReport, maxConversations, ...compactorOptions } = options;
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
  return async function callModelInputFilter({ modelData, agent }) {
    if (!modelData || !Array.isArray(modelData.input)) return modelData;
    const originals = modelData.input;
    checkMessageCount(originals, 'compactionFilter');
    originals.forEach((item, i) => checkDepth(item, [i], 1)); // before JSON.stringify could overflow the stack
    const read = originals.map(toResponses);
    const state = given || await states.of(read);
    const { messages, report } = await compactHistory(compactorFor(agent), read, { state });
    if (onReport) { try { onReport(report); } catch { /* a failing hook must not fail the run */ } }
    if (!report.session || !report.session.changed) return modelData;
    return { ...modelData, input: fromResponses(messages, read, originals) };
  };
}

export { SessionState } from '../state/index.js';
export { conversationStates } from '../state/conversation-states.js';
