// Anthropic's server-side context management as the strict provider (tests/helpers/strict-provider.mjs) applies
// it: `context_management.edits` on a Messages request, checked, then applied to what the model reads, after
// every signature was checked against what was sent. The rules and their sources are in docs/provider-rules.md
// ("Anthropic: server-side context management"); in short:
// - the beta header context-management-2025-06-27 goes with any edit, compact-2026-01-12 with compact_20260112;
//   a request may not carry both `compaction` (on demand) and `context_management` (the SDK's
//   MessageCreateParams doc);
// - clear_tool_uses_20250919: past `trigger` (100,000 input tokens unless given; or a count of tool uses) the
//   oldest tool results are replaced by a placeholder, all but the last `keep` tool uses (3), never those of
//   `exclude_tools`, the calls' inputs too with `clear_tool_inputs`; "context will only be modified if at least
//   `clear_at_least` tokens can be removed";
// - compact_20260112: past `trigger` (150,000 unless given, at least 50,000; input tokens only) the conversation
//   is summarized (`instructions` replace the default prompt) into a `compaction` block that leads the answer,
//   and the answer continues from it; on later requests the API reads from the last compaction block on;
// - clear_thinking_20251015 (first in the list, thinking on): the thinking blocks of all but the last `keep`
//   assistant turns that hold some ({type: 'thinking_turns', value}, 1 unless given; 'all' keeps every one)
//   are removed from what the model reads.
// The client keeps and resends its whole history: nothing here changes what was sent.

export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';
export const COMPACT_THRESHOLD_BETA = 'compact-2026-01-12';
export const COMPACT_MIN_TRIGGER = 50000;
/** What this mock writes in place of a cleared result (the API's own wording is not documented). */
export const CLEARED = '[tool result cleared by context management]';

/** The mock's token count of a message list: a quarter of its JSON's length, as the provider's counts here. */
export const tokensOf = (messages) => Math.ceil(JSON.stringify(messages).length / 4);

const blocksOf = (m) => (!m ? [] : typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : []);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The request's edits, checked and with their defaults, or null when it has no `context_management`.
 * Throws `invalid(message)` where the API answers 400.
 */
export function checkContextManagement(body, headers, invalid) {
  const cm = body.context_management;
  if (cm == null) return null;
  const betas = String(headers['anthropic-beta'] || '').split(',').map((s) => s.trim());
  if (!betas.includes(CONTEXT_MANAGEMENT_BETA))
    throw invalid(`context_management requires the anthropic-beta header ${CONTEXT_MANAGEMENT_BETA}`);
  if (body.compaction != null) throw invalid('compaction: cannot be combined with context_management');
  if (!isObject(cm) || !Array.isArray(cm.edits)) throw invalid('context_management.edits: Input should be a valid list');
  const tokens = (v, at, types) => {
    if (!isObject(v) || !types.includes(v.type) || !Number.isInteger(v.value) || v.value < 0)
      throw invalid(`${at}: expected {type: ${types.map((t) => `'${t}'`).join(' | ')}, value: a whole number}`);
    return v;
  };
  return cm.edits.map((e, i) => {
    const at = `context_management.edits.${i}`;
    if (!isObject(e)) throw invalid(`${at}: Input should be an object`);
    if (e.type === 'clear_tool_uses_20250919') {
      const edit = {
        type: e.type,
        trigger: e.trigger == null ? { type: 'input_tokens', value: 100000 } : tokens(e.trigger, `${at}.trigger`, ['input_tokens', 'tool_uses']),
        keep: e.keep == null ? { type: 'tool_uses', value: 3 } : tokens(e.keep, `${at}.keep`, ['tool_uses']),
        clearAtLeast: e.clear_at_least == null ? 0 : tokens(e.clear_at_least, `${at}.clear_at_least`, ['input_tokens']).value,
        excludeTools: e.exclude_tools ?? [],
        clearInputs: e.clear_tool_inputs ?? false,
      };
      if (!Array.isArray(edit.excludeTools) || edit.excludeTools.some((t) => typeof t !== 'string')) throw invalid(`${at}.exclude_tools: a list of tool names`);
      if (typeof edit.clearInputs !== 'boolean' && !(Array.isArray(edit.clearInputs) && edit.clearInputs.every((t) => typeof t === 'string')))
        throw invalid(`${at}.clear_tool_inputs: a boolean or a list of tool names`);
      return edit;
    }
    if (e.type === 'compact_20260112') {
      if (!betas.includes(COMPACT_THRESHOLD_BETA)) throw invalid(`${at}: compact_20260112 requires the anthropic-beta header ${COMPACT_THRESHOLD_BETA}`);
      const trigger = e.trigger == null ? { type: 'input_tokens', value: 150000 } : tokens(e.trigger, `${at}.trigger`, ['input_tokens']);
      if (trigger.value < COMPACT_MIN_TRIGGER) throw invalid(`${at}.trigger.value: must be at least ${COMPACT_MIN_TRIGGER}`);
      if (e.instructions != null && typeof e.instructions !== 'string') throw invalid(`${at}.instructions: Input should be a valid string`);
      return { type: e.type, trigger, instructions: e.instructions ?? null, pause: e.pause_after_compaction === true };
    }
    if (e.type === 'clear_thinking_20251015') {
      // keep: 'all' or {type: 'thinking_turns', value: N} (1 when absent); listed before the other strategies
      if (i !== 0) throw invalid(`${at}: clear_thinking_20251015 must be the first strategy in context_management.edits`);
      if (!body.thinking || (body.thinking.type !== 'enabled' && body.thinking.type !== 'adaptive'))
        throw invalid(`${at}: clear_thinking_20251015 requires thinking to be enabled`);
      const keep = e.keep == null ? { type: 'thinking_turns', value: 1 } : e.keep === 'all' ? 'all' : tokens(e.keep, `${at}.keep`, ['thinking_turns']);
      return { type: e.type, keep };
    }
    throw invalid(`${at}.type: ${JSON.stringify(e.type)} is not a strategy this server applies`);
  });
}

/** `messages` (combined turns) from the last compaction block on, as the API reads them when compaction is on. */
export function dropBeforeLastCompaction(messages) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const blocks = blocksOf(messages[i]);
    const j = blocks.map((b) => b && b.type).lastIndexOf('compaction');
    if (j === -1) continue;
    if (i === 0 && j === 0) return messages;
    return [{ role: messages[i].role, content: blocks.slice(j) }, ...messages.slice(i + 1)];
  }
  return messages;
}

/** The tool results that clearing may replace: every client call with its result, oldest first. */
function toolUses(messages) {
  const uses = [];
  messages.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    blocksOf(m).forEach((b, j) => {
      if (!b || b.type !== 'tool_use') return;
      const next = messages[i + 1];
      const k = next ? blocksOf(next).findIndex((r) => r && r.type === 'tool_result' && r.tool_use_id === b.id) : -1;
      uses.push({ name: b.name, call: [i, j], result: k === -1 ? null : [i + 1, k] });
    });
  });
  return uses;
}

/**
 * clear_thinking_20251015: the thinking blocks of the assistant turns before the last `keep` turns that hold
 * some are removed from what the model reads (a turn runs from a user message that is not only tool results to
 * the next one).
 */
function clearThinking(messages, edit) {
  if (edit.keep === 'all') return null;
  const isThinking = (b) => b && (b.type === 'thinking' || b.type === 'redacted_thinking');
  const starts = (m) => m.role === 'user' && !(blocksOf(m).length && blocksOf(m).every((b) => b && b.type === 'tool_result'));
  const turns = [];
  messages.forEach((m, i) => { if (i === 0 || starts(m)) turns.push([]); turns[turns.length - 1].push(i); });
  const thinking = turns.filter((t) => t.some((i) => messages[i].role === 'assistant' && blocksOf(messages[i]).some(isThinking)));
  const cleared = thinking.slice(0, Math.max(0, thinking.length - edit.keep.value));
  if (!cleared.length) return null;
  const out = messages.slice();
  for (const t of cleared) for (const i of t) if (out[i].role === 'assistant') out[i] = { ...out[i], content: blocksOf(out[i]).filter((b) => !isThinking(b)) };
  const freed = tokensOf(messages) - tokensOf(out);
  return { messages: out, applied: { type: edit.type, cleared_thinking_turns: cleared.length, cleared_input_tokens: freed } };
}

function clearToolUses(messages, edit) {
  const uses = toolUses(messages);
  const reached = edit.trigger.type === 'tool_uses' ? uses.length >= edit.trigger.value : tokensOf(messages) >= edit.trigger.value;
  if (!reached) return null;
  const candidates = uses.filter((u) => !edit.excludeTools.includes(u.name));
  const cleared = candidates.slice(0, Math.max(0, candidates.length - edit.keep.value)).filter((u) => u.result);
  if (!cleared.length) return null;
  const out = messages.map((m) => ({ ...m, content: blocksOf(m).slice() }));
  const inputs = (name) => edit.clearInputs === true || (Array.isArray(edit.clearInputs) && edit.clearInputs.includes(name));
  for (const u of cleared) {
    const [ri, rk] = u.result;
    out[ri].content[rk] = { ...out[ri].content[rk], content: CLEARED };
    if (inputs(u.name)) { const [ci, cj] = u.call; out[ci].content[cj] = { ...out[ci].content[cj], input: {} }; }
  }
  const freed = tokensOf(messages) - tokensOf(out);
  if (freed < edit.clearAtLeast) return null;
  return { messages: out, applied: { type: edit.type, cleared_tool_uses: cleared.length, cleared_input_tokens: freed } };
}

/**
 * Applies `edits` (checkContextManagement's) in their order to `messages` (what the model would read without
 * them). `summarize(messages, instructions)` writes a compaction's summary. Returns what the model reads
 * (`messages`), the most any sampling step read (`read`, tokens: a compaction reads the whole conversation
 * first), the edits applied (the response's `applied_edits`), the compaction block written (or null) and the
 * usage iterations.
 */
export function applyContextManagement(messages, edits, summarize) {
  let view = messages;
  let read = tokensOf(messages);
  const appliedEdits = [];
  const iterations = [];
  let compaction = null;
  let pause = false;
  for (const edit of edits) {
    if (edit.type === 'clear_thinking_20251015') {
      const done = clearThinking(view, edit);
      if (done) { view = done.messages; appliedEdits.push(done.applied); }
    } else if (edit.type === 'clear_tool_uses_20250919') {
      const done = clearToolUses(view, edit);
      if (done) { view = done.messages; appliedEdits.push(done.applied); }
    } else if (edit.type === 'compact_20260112' && tokensOf(view) >= edit.trigger.value) {
      const before = tokensOf(view);
      read = Math.max(read, before);
      compaction = { type: 'compaction', content: summarize(view, edit.instructions) };
      iterations.push({ type: 'compaction', input_tokens: before, output_tokens: 200 });
      view = [{ role: 'assistant', content: [compaction] }];
      appliedEdits.push({ type: edit.type });
      pause = edit.pause;
    }
  }
  const inputTokens = tokensOf(view);
  if (iterations.length) iterations.push({ type: 'message', input_tokens: inputTokens, output_tokens: 20 });
  // (without a compaction, what the model read is what the clearing left)
  if (!compaction) read = inputTokens;
  return { messages: view, read, inputTokens, appliedEdits, compaction, pause, iterations };
}
