/**
 * peers.mjs — the conversation in the shapes the peer libraries take, converted once
 * outside any timing: LangChain BaseMessages (HumanMessage, AIMessage with tool_calls,
 * ToolMessage) and AI SDK ModelMessages (user / assistant with reasoning, text and
 * tool-call parts / tool with tool-result parts). Both converters take the Anthropic
 * format that lib.mjs generates.
 */

/** Tool names by tool_use id, over the whole conversation. */
function toolNames(msgs) {
  const names = new Map();
  for (const m of msgs) {
    if (m.role !== 'assistant' || !Array.isArray(m.content)) continue;
    for (const b of m.content) if (b.type === 'tool_use') names.set(b.id, b.name);
  }
  return names;
}

/** The text of a tool_result's content (a string, or text blocks). */
function resultText(c) {
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  let s = '';
  for (const b of c) if (b && b.type === 'text') s += b.text;
  return s;
}

/**
 * Anthropic messages → LangChain messages. `lc` is the module exporting HumanMessage,
 * AIMessage and ToolMessage. An assistant turn keeps its thinking and text as content
 * blocks (as LangChain's Anthropic integration returns them) and its tool_use blocks as
 * tool_calls; each tool_result becomes its own ToolMessage (with the tool's name).
 */
export function toLangChain(msgs, lc) {
  const names = toolNames(msgs);
  const out = [];
  for (const m of msgs) {
    if (m.role === 'assistant') {
      const content = [];
      const calls = [];
      for (const b of typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content) {
        if (b.type === 'tool_use') calls.push({ type: 'tool_call', id: b.id, name: b.name, args: b.input });
        else content.push(b);
      }
      out.push(new lc.AIMessage({ content, tool_calls: calls }));
      continue;
    }
    if (typeof m.content === 'string') { out.push(new lc.HumanMessage({ content: m.content })); continue; }
    const text = [];
    for (const b of m.content) {
      if (b.type === 'tool_result') {
        out.push(new lc.ToolMessage({
          tool_call_id: b.tool_use_id, name: names.get(b.tool_use_id), content: resultText(b.content),
          status: b.is_error ? 'error' : 'success',
        }));
      } else text.push(b);
    }
    if (text.length) out.push(new lc.HumanMessage({ content: text }));
  }
  return out;
}

/**
 * Anthropic messages → AI SDK (v5+) ModelMessages: thinking becomes a reasoning part
 * (signature in providerOptions.anthropic), tool_use a tool-call part, and a user turn of
 * tool_results a `tool` message of tool-result parts with {type: 'text' | 'error-text', value}.
 */
export function toAiSdk(msgs) {
  const names = toolNames(msgs);
  const out = [];
  for (const m of msgs) {
    if (m.role === 'assistant') {
      const content = [];
      for (const b of typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content) {
        if (b.type === 'text') content.push({ type: 'text', text: b.text });
        else if (b.type === 'thinking') content.push({ type: 'reasoning', text: b.thinking, providerOptions: { anthropic: { signature: b.signature } } });
        else if (b.type === 'tool_use') content.push({ type: 'tool-call', toolCallId: b.id, toolName: b.name, input: b.input });
      }
      out.push({ role: 'assistant', content });
      continue;
    }
    if (typeof m.content === 'string') { out.push({ role: 'user', content: m.content }); continue; }
    const results = [];
    const text = [];
    for (const b of m.content) {
      if (b.type === 'tool_result') {
        results.push({
          type: 'tool-result', toolCallId: b.tool_use_id, toolName: names.get(b.tool_use_id),
          output: { type: b.is_error ? 'error-text' : 'text', value: resultText(b.content) },
        });
      } else if (b.type === 'text') text.push({ type: 'text', text: b.text });
    }
    if (results.length) out.push({ role: 'tool', content: results });
    if (text.length) out.push({ role: 'user', content: text });
  }
  return out;
}

// ---------------------------------------------------------------- work models (for a stopped call)

/**
 * A LangChain token counter around `count` that tallies how many messages it has been
 * asked to count (the work of the quadratic loops below) and throws Stopped once
 * performance.now() passes state.deadline: a call too long for the run stops at a known
 * fraction of its work.
 */
export function countingCounter(count, Stopped) {
  const state = { deadline: Infinity, counted: 0 };
  const fn = (msgs) => {
    if (performance.now() > state.deadline) throw new Stopped();
    state.counted += msgs.length;
    return count(msgs);
  };
  return { state, fn };
}

/**
 * Messages trimMessages(strategy 'last', no partial messages) hands its counter: it
 * reverses the list and counts the prefixes of length N, N−1, … down to the first one
 * within maxTokens (@langchain/core messages/transformers.js, _firstMaxTokens), so
 * N + (N−1) + … + kept. `kept` is found here by bisection with the same counter
 * (monotone in the prefix length).
 */
export function trimWork(msgs, maxTokens, count) {
  const n = msgs.length;
  const rev = [...msgs].reverse();
  let lo = 0, hi = n;
  if (count(rev) <= maxTokens) lo = n;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (count(rev.slice(0, mid)) <= maxTokens) lo = mid; else hi = mid;
  }
  return ((n + lo) * (n - lo + 1)) / 2;
}

/**
 * Messages ClearToolUsesEdit.apply (keep by message count, clearAtLeast 0, no orphans,
 * no excluded tools) hands its counter: the whole list once, then again after each
 * tool result it clears (langchain agents/middleware/contextEditing.js).
 */
export function clearWork(msgs, keep, isTool) {
  let tools = 0;
  for (const m of msgs) if (isTool(m)) tools++;
  return msgs.length * (1 + Math.max(0, tools - keep));
}
