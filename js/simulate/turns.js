/**
 * turns.js — a session as the model calls it was made of: which messages the model wrote,
 * where each call's request ends, and when it was made.
 */

const ASSISTANT_ITEMS = new Set(['function_call', 'custom_tool_call', 'reasoning', 'web_search_call', 'file_search_call',
  'computer_call', 'code_interpreter_call', 'image_generation_call', 'local_shell_call', 'mcp_call']);

/** True for a message (or Responses item) the model wrote. */
export function fromAssistant(m) {
  if (!m || typeof m !== 'object') return false;
  if (m.role !== undefined) return m.role === 'assistant';
  return ASSISTANT_ITEMS.has(m.type);
}

/** A system (or developer) message: the fixed start of a request. */
export function isSystem(m) { return Boolean(m) && (m.role === 'system' || m.role === 'developer'); }

/** When the message was written, in seconds, if it says so. */
function timeOf(m) {
  const t = m && (m.timestamp ?? m.created_at ?? m.createdAt);
  if (typeof t === 'number' && Number.isFinite(t)) return t > 1e11 ? t / 1000 : t;
  if (typeof t === 'string') { const ms = Date.parse(t); if (Number.isFinite(ms)) return ms / 1000; }
  return undefined;
}

/**
 * The turns of a session: for each run of assistant-side messages, the index where it
 * starts (the request was everything before it) and where it ends.
 * @param {unknown[]} messages
 * @returns {{start: number, end: number, time: number | undefined}[]}
 */
export function sessionTurns(messages) {
  const turns = [];
  for (let i = 1; i < messages.length; i++) {
    if (!fromAssistant(messages[i]) || fromAssistant(messages[i - 1])) continue;
    let end = i;
    while (end < messages.length && fromAssistant(messages[end])) end++;
    turns.push({ start: i, end, time: timeOf(messages[i]) });
  }
  return turns;
}
