// What DeepSeek's Chat Completions API rejects with a 400 when a client edits history
// (docs/provider-rules.md, "DeepSeek: Chat Completions"), for mock servers on 127.0.0.1:
// a tool message that answers no call of the assistant message before it, a call left
// unanswered, and, in thinking mode (the default of the V4 models), an assistant message
// with tool calls but no reasoning_content.

/** What DeepSeek rejects in a Chat Completions body (docs/provider-rules.md), as its 400 message; or null. */
export function deepseekRejection(body) {
  const messages = body.messages;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === 'tool') {
      let a = i - 1;
      while (a >= 0 && messages[a].role === 'tool') a--;
      const calls = a >= 0 && messages[a].role === 'assistant' ? (messages[a].tool_calls || []).map((c) => c.id) : [];
      if (!calls.includes(m.tool_call_id)) return `messages[${i}]: Messages with role 'tool' must be a response to a preceding message with 'tool_calls'`;
    }
    if (m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length) {
      const answered = [];
      for (let j = i + 1; j < messages.length && messages[j].role === 'tool'; j++) answered.push(messages[j].tool_call_id);
      const missing = m.tool_calls.filter((c) => !answered.includes(c.id));
      if (missing.length) return `messages[${i}]: An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id' (${missing[0].id})`;
      if (body.model.startsWith('deepseek') && typeof m.reasoning_content !== 'string')
        return 'The reasoning_content in the thinking mode must be passed back to the API.';
    }
  }
  return null;
}
