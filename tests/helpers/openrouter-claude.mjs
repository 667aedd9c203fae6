// A Claude model with extended thinking behind OpenRouter's Chat Completions, for startMockLLM
// (tests/helpers/mock-llm.mjs): each answer carries its thinking as `reasoning` plus
// `reasoning_details` [{type: 'reasoning.text', text, signature, format: 'anthropic-claude-v1'}],
// as OpenRouter hands Claude's signed thinking over (the shapes of @openrouter/ai-sdk-provider's
// schemas). OpenRouter gives the details back to Anthropic, whose rules apply
// (docs/provider-rules.md, "Anthropic: signed thinking"): a signed entry must come back unmodified,
// and the newer models bind its signature to the conversation before it, so a request whose prefix
// changed under a signed entry is a 400. The signature here is an HMAC over the text and a hash of
// that prefix (roles, content, tool calls and results; not the reasoning fields).
import { createHash, createHmac, randomBytes } from 'node:crypto';

const secret = randomBytes(16);
const mac = (text, prefix) => createHmac('sha256', secret).update(`${prefix}\u0000${text}`).digest('base64url');

/** The hash a signature binds: what the model read before the assistant message at `end`. */
function prefixHash(messages, end) {
  const seen = messages.slice(0, end).map((m) => ({ role: m.role, content: m.content ?? null, tool_calls: m.tool_calls ?? null,
    tool_call_id: m.tool_call_id ?? null }));
  return createHash('sha256').update(JSON.stringify(seen)).digest('base64url');
}

/** Signed reasoning_details for an answer to `messages`. */
export function signedDetails(messages, text) {
  const prefix = prefixHash(messages, messages.length);
  return [{ type: 'reasoning.text', text, signature: `${prefix}.${mac(text, prefix)}`, format: 'anthropic-claude-v1', index: 0 }];
}

/** What Anthropic (through OpenRouter) rejects in the request's signed reasoning, as a message; or null. */
export function signedReasoningRejection(messages) {
  for (let i = 0; i < messages.length; i++) {
    const details = messages[i] && messages[i].role === 'assistant' && Array.isArray(messages[i].reasoning_details) ? messages[i].reasoning_details : [];
    for (const d of details) {
      if (!d || typeof d.signature !== 'string' || !d.signature) continue;
      const [prefix, tag] = d.signature.split('.');
      if (tag !== mac(d.text ?? '', prefix)) return `messages.${i}: \`thinking\` blocks must be passed back unmodified, as the API returned them`;
      if (prefix !== prefixHash(messages, i))
        return `messages.${i}: the conversation before this \`thinking\` block differs from the one it was created in (prefix_binding_mismatch)`;
    }
  }
  return null;
}

/** OpenRouter's error body for a provider's 400, as the client sees it. */
export function providerError(message) {
  return { error: { code: 400, message: 'Provider returned error', metadata: { provider_name: 'Anthropic',
    raw: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } }) } } };
}
