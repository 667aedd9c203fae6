// A Chat Completions answer as server-sent chunks, split the way the providers stream one: the role, the
// reasoning (DeepSeek's reasoning_content in two pieces; OpenRouter's reasoning with its reasoning_details in
// one chunk, as OpenRouter sends a signed entry whole), the text in two pieces, then each tool call's name
// and id with half its arguments, and the other half; then the finish reason and [DONE].

/** `message` (a Chat Completions assistant message) as the body of a streamed answer. */
export function chatCompletionSSE(id, model, message, finish) {
  const chunk = (delta, finishReason = null) => `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1764547200, model,
    choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
  const out = [chunk({ role: 'assistant', content: '' })];
  if (message.reasoning_content) for (const piece of halves(message.reasoning_content)) out.push(chunk({ reasoning_content: piece }));
  if (message.reasoning) out.push(chunk({ reasoning: message.reasoning, reasoning_details: message.reasoning_details }));
  if (message.content) for (const piece of halves(message.content)) out.push(chunk({ content: piece }));
  (message.tool_calls || []).forEach((call, index) => {
    const [a, b] = halves(call.function.arguments);
    out.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: a } }] }));
    out.push(chunk({ tool_calls: [{ index, function: { arguments: b } }] }));
  });
  out.push(chunk({}, finish), 'data: [DONE]\n\n');
  return out.join('');
}

/** A string in two pieces, cut between code points. */
function halves(s) {
  const points = [...s];
  const cut = Math.ceil(points.length / 2);
  return [points.slice(0, cut).join(''), points.slice(cut).join('')];
}
