/**
 * summary-messages.js — the messages a compaction inserts between the kept head and the
 * kept tail: the user message carrying the summary and, unless the tail already starts
 * with an assistant message, an assistant acknowledgement. They are written in the style
 * of the conversation they go into (its format, and string or array content), because a
 * provider or framework that reads the rest of the array reads these too.
 */

export const SUMMARY_MARK = '[Context Compressed]';

/**
 * The messages to insert for `summary`. `format` is the conversation's format name (as
 * detectFormat gives it); `tail` the kept tail (read, never changed). Returns new objects
 * that the caller owns.
 * @param {{format: string, summary: string, acknowledgement: string, tail: unknown[]}} request
 * @returns {object[]}
 */
export function summaryMessages({ format, summary, acknowledgement, tail }) {
  if (format === 'openai-responses') return responsesMessages(`${SUMMARY_MARK}\n${summary}`, acknowledgement, tail);
  const out = [{ role: 'user', content: `${SUMMARY_MARK}\n${summary}` }];
  const first = tail.length ? tail[0] : null;
  if (!(first && first.role === 'assistant')) out.push({ role: 'assistant', content: acknowledgement });
  return out;
}

/**
 * OpenAI Responses input items. The summary is a user message item: string content if
 * the tail's own message items use strings (easy input messages), else input_text parts;
 * `type: 'message'` if they carry it (with no message item in the tail: parts and the
 * tag). The acknowledgement is always an assistant message item with output_text parts and
 * status "completed", and no id (an id would name an item the API never stored): the OpenAI
 * Agents SDK requires parts and a status on its assistant items, and sends exactly this
 * shape to the API itself (@openai/agents-openai, openaiResponsesConverter). It is left
 * out when the tail starts with an item of the assistant's (a message, a call, reasoning).
 */
function responsesMessages(text, acknowledgement, tail) {
  const messages = tail.filter((m) => m && typeof m === 'object' && typeof m.role === 'string');
  const strings = messages.length > 0 && messages.every((m) => typeof m.content === 'string');
  const tag = messages.length === 0 || messages.some((m) => m.type === 'message') ? { type: 'message' } : {};
  const out = [{ ...tag, role: 'user', content: strings ? text : [{ type: 'input_text', text }] }];
  const first = tail.length ? tail[0] : null;
  if (!(first && assistantSide(first)))
    out.push({ ...tag, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: acknowledgement, annotations: [] }] });
  return out;
}

// The items the model produced (what midfold's view reads as the assistant's).
const ASSISTANT_ITEMS = new Set(['function_call', 'custom_tool_call', 'computer_call', 'local_shell_call', 'shell_call',
  'apply_patch_call', 'tool_search_call', 'program', 'mcp_approval_request', 'reasoning', 'compaction', 'web_search_call',
  'file_search_call', 'code_interpreter_call', 'image_generation_call', 'mcp_call', 'mcp_list_tools', 'item_reference',
  'hosted_tool_call']);

function assistantSide(item) {
  if (typeof item.role === 'string') return item.role === 'assistant';
  return ASSISTANT_ITEMS.has(item.type);
}
