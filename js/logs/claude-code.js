/**
 * claude-code.js — a Claude Code session log (~/.claude/projects/PROJECT/SESSION.jsonl) as the
 * Anthropic Messages conversation it records. The rules, and where each comes from, are in
 * docs/agent-logs.md.
 */

/** Line types Claude Code writes (a line of a log is recognized by these and its own fields). */
const LINE_TYPES = new Set(['user', 'assistant', 'system', 'summary', 'file-history-snapshot', 'queue-operation', 'attachment',
  'progress', 'custom-title', 'tag']);

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether a parsed line is one Claude Code writes. */
export function isClaudeCodeLine(v) {
  if (!isObject(v) || typeof v.type !== 'string' || !LINE_TYPES.has(v.type)) return false;
  if (v.type === 'user' || v.type === 'assistant') return isObject(v.message) && ('uuid' in v || 'sessionId' in v || 'parentUuid' in v);
  return 'uuid' in v || 'sessionId' in v || 'leafUuid' in v || 'messageId' in v || 'operation' in v;
}

/** A content list of its own (a string content becomes one text block). */
const blocksOf = (content) => (typeof content === 'string' ? [{ type: 'text', text: content }]
  : Array.isArray(content) ? content.slice() : []);

/**
 * Adds `blocks` to `message`, skipping what it already holds: a row that repeats a block
 * (a tool_use of the same id, or the same block again) adds nothing.
 */
function addBlocks(message, blocks) {
  const held = new Set(message.content.map((b) => JSON.stringify(b)));
  const ids = new Set(message.content.filter((b) => b && b.type === 'tool_use').map((b) => b.id));
  for (const b of blocks) {
    if (b && b.type === 'tool_use' && ids.has(b.id)) continue;
    const key = JSON.stringify(b);
    if (held.has(key)) continue;
    held.add(key);
    message.content.push(b);
  }
}

/** A user message's tool results first (the API takes them nowhere else), the rest in order after them. */
function resultsFirst(message) {
  if (!Array.isArray(message.content)) return;
  const results = message.content.filter((b) => b && b.type === 'tool_result');
  if (results.length === 0 || results.length === message.content.length) return;
  message.content = results.concat(message.content.filter((b) => !b || b.type !== 'tool_result'));
}

/**
 * @param {{value: unknown, line: number}[]} lines the log's parsed lines, in order
 * @returns {{messages: object[], times: (string | undefined)[], skipped: Record<string, number>,
 *   compactions: {index: number, line: number}[]}}
 */
export function readClaudeCode(lines) {
  const messages = [];
  const times = [];
  const skipped = {};
  const compactions = [];
  const skip = (why) => { skipped[why] = (skipped[why] || 0) + 1; };
  // The assistant message each API message id became: its rows may come apart, tool results between them.
  const byId = new Map();
  let boundary = false; // a compaction boundary was passed: the next user line is its summary
  for (const { value: v, line } of lines) {
    if (!isObject(v) || (v.type !== 'user' && v.type !== 'assistant')) {
      const type = isObject(v) && typeof v.type === 'string' ? v.type : 'not-a-line';
      if (type === 'system' && v.subtype === 'compact_boundary') boundary = true;
      skip(type);
      continue;
    }
    // A subagent's conversation (Task) is its own; its lines are not this conversation's.
    if (v.isSidechain === true) { skip('sidechain'); continue; }
    const m = v.message;
    if (!isObject(m) || m.role !== v.type) { skip('no-message'); continue; }
    if (v.type === 'assistant') {
      // Claude Code writes API errors and "No response requested." as assistant lines of its own.
      if (v.isApiErrorMessage === true || m.model === '<synthetic>') { skip('synthetic'); continue; }
      const id = typeof m.id === 'string' ? m.id : undefined;
      const earlier = id === undefined ? undefined : byId.get(id);
      if (earlier) { addBlocks(earlier, blocksOf(m.content)); continue; }
      const message = { role: 'assistant', content: [] };
      addBlocks(message, blocksOf(m.content));
      if (id !== undefined) byId.set(id, message);
      messages.push(message);
      times.push(v.timestamp);
      continue;
    }
    const summary = v.isCompactSummary === true || boundary;
    boundary = false;
    const last = messages[messages.length - 1];
    if (!summary && last && last.role === 'user') {
      if (typeof last.content === 'string') last.content = blocksOf(last.content);
      last.content.push(...blocksOf(m.content));
      continue;
    }
    // The compaction summary starts a message of its own: what the model read from then on.
    if (summary) compactions.push({ index: messages.length, line });
    messages.push({ role: 'user', content: typeof m.content === 'string' ? m.content : blocksOf(m.content) });
    times.push(v.timestamp);
  }
  for (const m of messages) if (m.role === 'user') resultsFirst(m);
  return { messages, times, skipped, compactions };
}
