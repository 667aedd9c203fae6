/**
 * prune.js — micro-compaction's pruneMessages-style rules (the AI SDK's pruneMessages, made
 * safe for every format midfold reads):
 * - `dropToolCalls: {tools, beforeLast}` removes the calls of the named tools before the last
 *   `beforeLast` messages, each with its results (and, in the AI SDK, its approval request and
 *   response): a pair goes whole or stays whole, and a call whose result lies in the kept
 *   messages stays;
 * - `reasoning: 'before-last-message'` removes the thinking and reasoning parts of the
 *   assistant messages before the pending turn.
 * Neither touches the pending turn (the last message, or the assistant message of a tool loop
 * in flight and what follows it). A message left with nothing but thinking is removed with it
 * (the providers merge the turns around it). What the providers need kept stays: a Responses
 * reasoning item, and a call right after one (OpenAI refuses a reasoning item without the item
 * it preceded), OpenAI's encrypted reasoning, and Chat Completions' reasoning_content (DeepSeek
 * checks it on tool-calling messages). The rules write a new list; the caller decides whether
 * it lands (a signed tool loop in flight makes it wait, js/core/thinking.js).
 */

const isObject = (v) => v !== null && typeof v === 'object';
/** A Responses item that is no message (a call, an output, a reasoning item). */
const isItem = (m) => isObject(m) && !m.role && typeof m.type === 'string' && m.type !== 'message';
const CALL_ITEMS = ['function_call', 'custom_tool_call'];
const OUTPUT_ITEMS = ['function_call_output', 'custom_tool_call_output'];
const THINKING_TYPES = ['thinking', 'redacted_thinking', 'reasoning', 'redacted-reasoning'];

/** The list of parts a message holds and its key ('content' or 'parts'), or null. */
function listOf(m) {
  if (!isObject(m)) return null;
  if (Array.isArray(m.content)) return 'content';
  if (Array.isArray(m.parts)) return 'parts';
  return null;
}

const isResultCarrier = (m) => isObject(m) && (m.role === 'tool' || OUTPUT_ITEMS.includes(m.type) ||
  (m.role === 'user' && Array.isArray(m.content) && m.content.length > 0 && m.content.every((p) => isObject(p) && p.type === 'tool_result')));

/**
 * Where the pending turn starts: the assistant message (or run of Responses items) of a tool loop
 * in flight, or the last message. Nothing from there on is pruned.
 */
export function pendingStart(list) {
  let i = list.length - 1;
  if (i < 0) return 0;
  if (isItem(list[i])) {
    while (i > 0 && isItem(list[i - 1])) i--;
    return i;
  }
  while (i >= 0 && isResultCarrier(list[i])) i--;
  if (i >= 0 && isObject(list[i]) && list[i].role === 'assistant') return i;
  return list.length - 1;
}

/** A UIMessage tool part: call and result in one part. */
const isUiTool = (p) => isObject(p) && typeof p.type === 'string' &&
  ((p.type.startsWith('tool-') && !['tool-call', 'tool-result', 'tool-approval-request', 'tool-approval-response'].includes(p.type)) || p.type === 'dynamic-tool');

/** The call a part names ({id, name} for a call, {id} for a result or approval), or null. */
function partCall(p) {
  if (!isObject(p)) return null;
  switch (p.type) {
    case 'tool_use': case 'tool_call': return { id: p.id, name: p.name, call: true };
    case 'tool_result': return { id: p.tool_use_id };
    case 'tool-call': return { id: p.toolCallId, name: p.toolName, call: true };
    case 'tool-result': return { id: p.toolCallId };
    case 'tool-approval-request': return { id: p.toolCallId, approval: p.approvalId };
    case 'tool-approval-response': return { approval: p.approvalId };
    default:
      return isUiTool(p) ? { id: p.toolCallId, name: p.type === 'dynamic-tool' ? p.toolName : p.type.slice(5), call: true } : null;
  }
}

/** A tool_calls entry's {id, name} (Chat: function.name; LangChain: name). */
const listedCall = (c) => (isObject(c) ? { id: c.id, name: isObject(c.function) ? c.function.name : c.name, call: true } : null);

/** Every call, result and approval message `m` holds. */
function callsOf(m) {
  if (!isObject(m)) return [];
  if (CALL_ITEMS.includes(m.type)) return [{ id: m.call_id, name: m.name, call: true }];
  if (OUTPUT_ITEMS.includes(m.type)) return [{ id: m.call_id }];
  if (m.role === 'tool' && typeof m.tool_call_id === 'string') return [{ id: m.tool_call_id }];
  const out = [];
  const key = listOf(m);
  if (key) for (const p of m[key]) { const c = partCall(p); if (c) out.push(c); }
  if (Array.isArray(m.tool_calls)) for (const c of m.tool_calls) { const l = listedCall(c); if (l) out.push(l); }
  return out;
}

const isThinkingPart = (p) => isObject(p) && THINKING_TYPES.includes(p.type);
/** OpenAI's encrypted reasoning in an AI SDK part: never removed (thinking.js). */
const isEncrypted = (p) => {
  const meta = isObject(p) && (p.providerOptions || p.providerMetadata);
  return isObject(meta) && [meta.openai, meta.azure].some((o) => isObject(o) && typeof o.reasoningEncryptedContent === 'string');
};
/** Whether a message with this list (and these tool_calls) holds nothing but thinking. */
const onlyThinking = (list, m) => list.every(isThinkingPart) && !(Array.isArray(m.tool_calls) && m.tool_calls.length);

/**
 * The rules applied to `list` (read, never written). Returns null when they change nothing, else
 * {list: the new list (changed messages are copies), first: the first index of the new list
 * whose conversation before it changed, callsDropped, messagesRemoved, reasoningRemoved}.
 * @param {unknown[]} list
 * @param {{dropToolCalls: {tools: string[], beforeLast: number} | null, reasoning?: string}} rules
 */
export function pruneRules(list, rules) {
  const pending = pendingStart(list);
  const drop = new Set(), approvals = new Set();
  if (rules.dropToolCalls) {
    const tools = new Set(rules.dropToolCalls.tools);
    const protectFrom = Math.max(0, Math.min(pending, list.length - rules.dropToolCalls.beforeLast));
    const kept = new Set();
    for (let i = protectFrom; i < list.length; i++) for (const c of callsOf(list[i])) if (c.id !== undefined) kept.add(c.id);
    for (let i = 0; i < protectFrom; i++) {
      const m = list[i];
      // (a Responses call right after a reasoning item is the item that reasoning needs)
      if (CALL_ITEMS.includes(m && m.type) && isObject(list[i - 1]) && list[i - 1].type === 'reasoning') continue;
      for (const c of callsOf(m)) if (c.call && typeof c.id === 'string' && tools.has(c.name) && !kept.has(c.id)) drop.add(c.id);
    }
    for (let i = 0; i < protectFrom; i++)
      for (const c of callsOf(list[i])) if (c.approval !== undefined && drop.has(c.id)) approvals.add(c.approval);
  }
  const reasoningBefore = rules.reasoning === 'before-last-message' ? pending : 0;
  if (!drop.size && !reasoningBefore) return null;
  const out = [];
  let first = Infinity, callsDropped = 0, messagesRemoved = 0, reasoningRemoved = 0;
  const goes = (c) => c && ((c.id !== undefined && drop.has(c.id)) || (c.approval !== undefined && approvals.has(c.approval)));
  for (let i = 0; i < list.length; i++) {
    const m = list[i];
    const before = i < Math.max(reasoningBefore, drop.size ? pending : 0);
    if (!before || !isObject(m)) { out.push(m); continue; }
    // whole-message results and call items
    const whole = callsOf(m);
    if ((CALL_ITEMS.includes(m.type) || OUTPUT_ITEMS.includes(m.type) || m.role === 'tool') && whole.length === 1 && goes(whole[0])) {
      if (whole[0].call) callsDropped++;
      messagesRemoved++;
      first = Math.min(first, out.length);
      continue;
    }
    const key = listOf(m);
    let copy = null;
    if (key) {
      const parts = m[key].filter((p) => {
        const c = partCall(p);
        if (goes(c)) { if (c.call) callsDropped++; return false; }
        if (i < reasoningBefore && m.role === 'assistant' && isThinkingPart(p) && !isEncrypted(p)) { reasoningRemoved++; return false; }
        return true;
      });
      if (parts.length !== m[key].length) copy = { ...m, [key]: parts };
    }
    if (Array.isArray(m.tool_calls)) {
      const calls = m.tool_calls.filter((c) => { const l = listedCall(c); if (goes(l)) { callsDropped++; return false; } return true; });
      if (calls.length !== m.tool_calls.length) {
        copy = copy || { ...m };
        if (calls.length) copy.tool_calls = calls;
        else delete copy.tool_calls;
      }
    }
    if (!copy) { out.push(m); continue; }
    const left = key ? copy[key] : [];
    const emptyText = !key && (copy.content === null || copy.content === undefined || copy.content === '');
    if ((key && (left.length === 0 || onlyThinking(left, copy))) || (emptyText && !copy.tool_calls)) {
      messagesRemoved++;
      first = Math.min(first, out.length);
      continue;
    }
    first = Math.min(first, out.length + 1);
    out.push(copy);
  }
  if (!callsDropped && !messagesRemoved && !reasoningRemoved) return null;
  return { list: out, first, callsDropped, messagesRemoved, reasoningRemoved };
}
