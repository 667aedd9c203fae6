/**
 * agents-items.js — the Agents SDK's items (`AgentInputItem`) read in their Responses form and
 * written back: what midfold/openai-agents' filter and session compact. The SDK's items are
 * the Responses API's input items in the SDK's own spelling (`callId`, `function_call_result`,
 * `providerData`); each is read one to one, in order, into a new object, and compacted items
 * are matched back to the SDK items they were read from, so untouched items stay the SDK's own.
 */
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
export function toResponses(item) {
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
export function fromResponses(outputItems, read, originals) {
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
