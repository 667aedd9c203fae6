/**
 * codex.js — a Codex CLI rollout (~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl) as the OpenAI
 * Responses items it sent the model. The rules, and where each comes from, are in
 * docs/agent-logs.md.
 */

/** What a rollout line is: `{timestamp, type, payload}`, the type one of RolloutItem's. */
const LINE_TYPES = new Set(['session_meta', 'response_item', 'compacted', 'turn_context', 'event_msg']);

/** Responses items Codex writes (an earlier rollout wrote them one a line, unwrapped). */
const ITEM_TYPES = new Set(['message', 'reasoning', 'function_call', 'function_call_output', 'custom_tool_call',
  'custom_tool_call_output', 'local_shell_call', 'web_search_call', 'image_generation_call', 'tool_search_call',
  'tool_search_output', 'compaction', 'compaction_summary', 'context_compaction', 'ghost_snapshot']);

/** Items Codex keeps in a rollout but never sends (it drops them before each request). */
const NOT_SENT = new Set(['ghost_snapshot', 'compaction_trigger']);

/** A call and the type of the output that answers it. */
const OUTPUT_OF = { function_call: 'function_call_output', custom_tool_call: 'custom_tool_call_output', local_shell_call: 'function_call_output' };
const OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output']);

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether a parsed line is one a Codex rollout holds (the wrapped lines, or an earlier rollout's bare items). */
export function isCodexLine(v) {
  if (!isObject(v) || typeof v.type !== 'string') return false;
  if (LINE_TYPES.has(v.type)) return 'payload' in v;
  return ITEM_TYPES.has(v.type) && ('role' in v || 'call_id' in v || 'summary' in v || 'encrypted_content' in v);
}

/**
 * @param {{value: unknown, line: number}[]} lines the log's parsed lines, in order
 * @returns {{messages: object[], times: (string | undefined)[], skipped: Record<string, number>,
 *   compactions: {index: number, line: number}[], repaired: {kind: 'missing-output' | 'orphan-output', callId: string, name?: string}[]}}
 */
export function readCodex(lines) {
  const items = [];
  const times = [];
  const skipped = {};
  const compactions = [];
  const skip = (why) => { skipped[why] = (skipped[why] || 0) + 1; };
  for (const { value: v, line } of lines) {
    if (!isObject(v)) { skip('not-a-line'); continue; }
    const wrapped = LINE_TYPES.has(v.type) && 'payload' in v;
    // An earlier rollout opened with the session's {id, timestamp} and wrote bare items after it.
    const type = wrapped ? v.type : ITEM_TYPES.has(v.type) ? 'response_item' : v.record_type === 'state' ? 'state' : 'session_meta';
    const payload = wrapped ? v.payload : v;
    if (type === 'response_item') {
      if (!isObject(payload) || typeof payload.type !== 'string') { skip('not-an-item'); continue; }
      if (NOT_SENT.has(payload.type)) { skip(payload.type); continue; }
      items.push(payload);
      times.push(v.timestamp);
      continue;
    }
    if (type === 'compacted' && isObject(payload)) {
      // Codex's own reading of a compaction (CompactedItem into ResponseItem): its summary, as
      // an assistant message. A remote compaction has no summary text: its replacement history
      // carries the provider's encrypted compaction item, which the model reads from.
      const summary = typeof payload.message === 'string' ? payload.message : '';
      const replacement = Array.isArray(payload.replacement_history) ? payload.replacement_history : [];
      const carried = summary ? [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: summary }] }]
        : replacement.filter((i) => isObject(i) && (i.type === 'compaction' || i.type === 'compaction_summary' || i.type === 'context_compaction'));
      if (carried.length === 0) { skip('empty-compaction'); continue; }
      compactions.push({ item: carried[0], line });
      for (const item of carried) { items.push(item); times.push(v.timestamp); }
      continue;
    }
    skip(type);
  }
  const repaired = pairCalls(items, times);
  // (where each summary stands once the repairs moved what follows them)
  const at = new Map(items.map((item, i) => [item, i]));
  return { messages: items, times, skipped, compactions: compactions.map(({ item, line }) => ({ index: at.get(item), line })), repaired };
}

/**
 * What Codex does to its history before every request (ContextManager's normalize_history):
 * a call without output (a turn interrupted while the tool ran) gets an "aborted" output right
 * after it ('missing-output'), and an output without a call is dropped ('orphan-output').
 * Changes `items` and `times` in place; returns what it changed, in the order of the items.
 */
function pairCalls(items, times) {
  const repaired = [];
  const calls = new Set(), answered = new Set();
  for (const item of items) {
    if (OUTPUT_OF[item.type] && typeof item.call_id === 'string') calls.add(item.call_id);
    if (OUTPUTS.has(item.type) && typeof item.call_id === 'string') answered.add(item.call_id);
  }
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (OUTPUTS.has(item.type) && !calls.has(item.call_id)) {
      items.splice(i, 1);
      times.splice(i, 1);
      repaired.unshift({ kind: 'orphan-output', callId: String(item.call_id) });
    }
  }
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    const output = OUTPUT_OF[item.type];
    if (!output || typeof item.call_id !== 'string' || answered.has(item.call_id)) continue;
    items.splice(i + 1, 0, { type: output, call_id: item.call_id, output: 'aborted' });
    times.splice(i + 1, 0, times[i]);
    repaired.unshift({ kind: 'missing-output', callId: item.call_id, ...(typeof item.name === 'string' ? { name: item.name } : {}) });
  }
  return repaired;
}
