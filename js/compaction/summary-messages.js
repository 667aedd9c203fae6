/**
 * summary-messages.js — the messages a compaction inserts between the kept head and the
 * kept tail: the user message carrying the summary and, unless the tail already starts
 * with an assistant message, an assistant acknowledgement. They are written in the style
 * of the conversation they go into (its format, and string or array content), because a
 * provider or framework that reads the rest of the array reads these too.
 *
 * - 'ai-sdk-ui': UIMessages ({id, role, metadata, parts: [{type: 'text', text}]}), with
 *   metadata {midfold: {summary: true}} (or {acknowledgement: true}) so a chat UI can
 *   show the summary as such and persist it like any other message.
 * - Array style: where every user and assistant message of the tail has array content
 *   (an AI SDK provider-level prompt, LanguageModelV3/V4, requires it; @ai-sdk/anthropic
 *   drops string content and @ai-sdk/openai throws on it), the content is one text part,
 *   [{type: 'text', text}] (AI SDK and OpenAI Chat; Anthropic's case is the Anthropic adapter's).
 * - 'langchain': {type: 'human' | 'ai', content} with string content, which the Compactor
 *   turns into messages of the conversation's own kind (HumanMessage / AIMessage instances).
 * - Otherwise string content, the shape every format accepts.
 *
 * Where the rest of the rebuilt list no longer shows its format (everything kept is plain
 * text: detectFormat would call it OpenAI Chat, and a later call that detects would read it so),
 * the pair carries it (`carry`), in a shape the format's provider accepts and no other format
 * has. The acknowledgement carries it when there is one (the summary keeps its usual shape,
 * the one hosts look for), else the summary: for Anthropic, content as a text block with
 * `citations: null` (no citations; a field of Anthropic's text blocks that no other format's
 * text part has, src/format.c); for the AI SDK, providerOptions {midfold: {acknowledgement:
 * true}} (or {summary: true}), which no provider reads, like a UIMessage's metadata; for
 * Responses, a message item with input_text parts (the acknowledgement always has output_text).
 */

export const SUMMARY_MARK = '[Context Compressed]';

let counter = 0;

/** A message id for a UIMessage: random where the host has crypto.randomUUID. */
function newId(kind) {
  const c = globalThis.crypto;
  const unique = c && typeof c.randomUUID === 'function' ? c.randomUUID() : `${Date.now().toString(36)}-${(counter++).toString(36)}`;
  return `midfold-${kind}-${unique}`;
}

/** True when every user and assistant message in `list` has array content (and there is one). */
function usesArrays(list) {
  let seen = false;
  for (const m of list) {
    if (!m || (m.role !== 'user' && m.role !== 'assistant')) continue;
    if (!Array.isArray(m.content)) return false;
    seen = true;
  }
  return seen;
}

/**
 * The messages to insert for `summary`. `format` is the conversation's format name (as
 * detectFormat gives it); `tail` the kept tail (read, never changed); `carry`: write them so
 * that they show the format (see above). Returns new objects that the caller owns; as many
 * with `carry` as without.
 * @param {{format: string, summary: string, acknowledgement: string, tail: unknown[], carry?: boolean}} request
 * @returns {object[]}
 */
export function summaryMessages({ format, summary, acknowledgement, tail, carry = false }) {
  if (format === 'openai-responses') return responsesMessages(`${SUMMARY_MARK}\n${summary}`, acknowledgement, tail, carry);
  const text = `${SUMMARY_MARK}\n${summary}`;
  const first = tail.length ? tail[0] : null;
  const needsAck = !(first && first.role === 'assistant');
  if (carry && format === 'anthropic') {
    const block = (t) => [{ type: 'text', text: t, citations: null }];
    return needsAck ? [{ role: 'user', content: text }, { role: 'assistant', content: block(acknowledgement) }]
      : [{ role: 'user', content: block(text) }];
  }
  if (format === 'langchain') {
    // Dict-form messages with the role midfold's JS side reads: the Compactor turns them into
    // the list's own kind of message (js/core/langchain.js). String content: every LangChain
    // provider sends a HumanMessage / AIMessage with string content as text.
    const out = [{ type: 'human', role: 'user', content: text }];
    if (needsAck) out.push({ type: 'ai', role: 'assistant', content: acknowledgement });
    return out;
  }
  if (format === 'ai-sdk-ui') {
    const out = [{ id: newId('summary'), role: 'user', metadata: { midfold: { summary: true } }, parts: [{ type: 'text', text }] }];
    if (needsAck) {
      out.push({ id: newId('ack'), role: 'assistant', metadata: { midfold: { acknowledgement: true } },
        parts: [{ type: 'text', text: acknowledgement }] });
    }
    return out;
  }
  const arrays = (format === 'ai-sdk' || format === 'openai') && usesArrays(tail);
  const content = (t) => (arrays ? [{ type: 'text', text: t }] : t);
  const marked = (kind) => (carry && format === 'ai-sdk' && (kind === 'acknowledgement') === needsAck ? { providerOptions: { midfold: { [kind]: true } } } : {});
  const out = [{ role: 'user', content: content(text), ...marked('summary') }];
  if (needsAck) out.push({ role: 'assistant', content: content(acknowledgement), ...marked('acknowledgement') });
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
function responsesMessages(text, acknowledgement, tail, carry) {
  const messages = tail.filter((m) => m && typeof m === 'object' && typeof m.role === 'string');
  const strings = !carry && messages.length > 0 && messages.every((m) => typeof m.content === 'string');
  const tag = carry || messages.length === 0 || messages.some((m) => m.type === 'message') ? { type: 'message' } : {};
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
