/**
 * thinking.js — the thinking policy: which edits a conversation with signed thinking can take.
 *
 * Providers sign the model's thinking and check it when it comes back (docs/provider-rules.md):
 * the in-flight assistant message's thinking must come back byte for byte, and Anthropic's
 * newer models also bind each signature to the conversation before it, so an edit anywhere
 * before signed thinking makes that request fail. Two policies:
 *
 * - 'prefix-bound' (the default, right for every provider): no edit lands before a tool loop
 *   in flight whose assistant message carries signed thinking (micro-compaction and
 *   compaction wait for the turn boundary, and their reports say so); after a fold, signed
 *   thinking is removed from the kept turns (the providers allow dropping the thinking of
 *   finished turns), never from an in-flight message. Reasoning items (OpenAI Responses) are
 *   never removed or edited: they stay with the call they precede.
 * - 'unbound' (providers that check only the in-flight message: Anthropic models before
 *   prefix binding, DeepSeek, OpenAI Chat): edits may land anywhere before the pending turn,
 *   and kept turns keep their thinking.
 *
 * This module reads the wire shapes itself (the core's view has no notion of a signature);
 * it only ever decides "defer" and "drop these thinking parts".
 */
import { MidfoldError } from './errors.js';

export const THINKING_POLICIES = ['prefix-bound', 'unbound'];

/** The policy option, checked: undefined means 'prefix-bound'. */
export function thinkingPolicy(value) {
  if (value === undefined) return 'prefix-bound';
  if (!THINKING_POLICIES.includes(value))
    throw new MidfoldError('invalid-option', `thinking must be one of ${THINKING_POLICIES.join(', ')}; got ${JSON.stringify(value)}`);
  return value;
}

const isObject = (v) => v !== null && typeof v === 'object';
const partsOf = (m) => (isObject(m) && Array.isArray(m.content) ? m.content : isObject(m) && Array.isArray(m.parts) ? m.parts : []);

/** True for a content part that carries a provider's signature over thinking. */
function isSignedThinkingPart(part) {
  if (!isObject(part)) return false;
  if (part.type === 'thinking' || part.type === 'redacted_thinking') return true; // Anthropic: always signed
  if (part.type === 'reasoning' || part.type === 'redacted-reasoning') {
    // AI SDK parts: Anthropic's signature rides in providerOptions (ModelMessage, V3/V4 prompts) or
    // providerMetadata (UIMessage); a reasoning part without one is plain text the provider never checks.
    const meta = part.providerOptions || part.providerMetadata;
    const a = isObject(meta) && isObject(meta.anthropic) ? meta.anthropic : null;
    return part.type === 'redacted-reasoning' || !!(a && (a.signature || a.redactedData));
  }
  return false;
}

const isCall = (p) => isObject(p) && (p.type === 'tool_use' || p.type === 'tool-call' ||
  (typeof p.type === 'string' && p.type.startsWith('tool-') && p.type !== 'tool-result') || p.type === 'dynamic-tool');
const isResultCarrier = (m) => isObject(m) && (m.role === 'tool' ||
  (m.role === 'user' && partsOf(m).some((p) => isObject(p) && p.type === 'tool_result')));

/**
 * The index of the message (or item) holding a tool loop in flight with signed thinking, or -1.
 * In flight: the conversation ends with the results of that assistant message's calls (or, for
 * a UIMessage, the last message is that assistant message) and nothing the user wrote came after.
 */
export function inFlightThinking(messages) {
  if (!Array.isArray(messages) || messages.length === 0) return -1;
  // OpenAI Responses items: a trailing run of reasoning / call / output items after the last message.
  const last = messages[messages.length - 1];
  if (isObject(last) && typeof last.type === 'string' && last.type.endsWith('_call_output')) {
    let i = messages.length - 1;
    let signed = -1;
    while (i >= 0 && isObject(messages[i]) && messages[i].type !== 'message' && !messages[i].role) {
      if (messages[i].type === 'reasoning' && messages[i].encrypted_content) signed = i;
      i--;
    }
    return signed;
  }
  let i = messages.length - 1;
  while (i >= 0 && isResultCarrier(messages[i])) i--;
  if (i < 0 || !isObject(messages[i]) || messages[i].role !== 'assistant') return -1;
  const parts = partsOf(messages[i]);
  const answered = i < messages.length - 1 || Array.isArray(messages[i].parts); // UIMessage: results live inside
  if (!answered || !parts.some(isCall) || !parts.some(isSignedThinkingPart)) return -1;
  return i;
}

/**
 * Removes signed thinking from the assistant messages messages[from..) except `keep` (an
 * index, or -1), in place: each such message gets a new content (or parts) array without them;
 * a message that held nothing else is removed (the provider merges the turns around it).
 * Returns how many parts were removed. Reasoning items are never touched.
 */
export function dropKeptThinking(messages, from, keep = -1) {
  let removed = 0;
  for (let i = messages.length - 1; i >= from; i--) {
    const m = messages[i];
    if (i === keep || !isObject(m) || m.role !== 'assistant') continue;
    const key = Array.isArray(m.content) ? 'content' : Array.isArray(m.parts) ? 'parts' : null;
    if (!key || !m[key].some(isSignedThinkingPart)) continue;
    const rest = m[key].filter((p) => !isSignedThinkingPart(p));
    removed += m[key].length - rest.length;
    if (rest.length === 0) messages.splice(i, 1);
    else m[key] = rest;
  }
  return removed;
}
