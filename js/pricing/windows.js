/**
 * pricing/windows.js — the context windows of the models the price lists know (and their
 * Gemini peers reached through the AI SDK), as data with their sources, and the lookup the
 * Compactor's `threshold: {fraction}` uses when an integration knows the model's id.
 */

// Tokens a request may hold, input and output together, as the provider's model page states it.
// Where a model has a larger window on request (Claude's 1M-token beta), the default one: a
// fraction of it compacts early rather than overflowing; pass `contextWindow` for the larger.
// (pure: a page that does not use the table bundles none of it)
export const CONTEXT_WINDOWS = /* @__PURE__ */ Object.freeze({
  'claude-sonnet-4-5': 200000,
  'claude-opus-4-5': 200000,
  'claude-haiku-4-5': 200000,
  'claude-sonnet-4': 200000,
  'claude-opus-4-1': 200000,
  'claude-opus-4': 200000,
  'gpt-5.5': 1050000,
  'gpt-5.4': 1050000,
  'gpt-5.4-mini': 400000,
  'gpt-5.4-nano': 400000,
  'gpt-5.2': 400000,
  'gpt-5.1': 400000,
  'gpt-5': 400000,
  'gpt-5-mini': 400000,
  'gpt-5-nano': 400000,
  'gpt-4.1': 1047576,
  'deepseek-v4-flash': 1000000,
  'deepseek-flash': 1000000,
  'deepseek-v4-pro': 1000000,
  // The API's old names: once DeepSeek-V3.2's (128K), then aliases of V4 Flash (1M) until they are
  // retired: the smaller, so that a fraction of it never overflows either.
  'deepseek-chat': 128000,
  'deepseek-reasoner': 128000,
  'deepseek-chat-v3.2': 128000,
  'gemini-2.5-pro': 1048576,
  'gemini-2.5-flash': 1048576,
  'gemini-2.5-flash-lite': 1048576,
  'gemini-2.0-flash': 1048576,
  'gemini-2.0-flash-lite': 1048576,
});

export const CONTEXT_WINDOW_SOURCES = /* @__PURE__ */ Object.freeze([
  { url: 'https://platform.claude.com/docs/en/models/sonnet-4-5/overview', read: '2026-12-07', for: 'Claude Sonnet 4.5: "Context window: 200K tokens"; Opus 4.5, Haiku 4.5, Sonnet 4, Opus 4 and 4.1 at 200K as the models overview and the SDKs\' model tables (LlamaIndex, Claude Code\'s catalog) list them; 1M only through the context-1m beta' },
  { url: 'https://vercel.com/ai-gateway/models/gpt-5.4.md', read: '2026-12-07', for: 'GPT-5.4: 1,050,000 (922K input, 128K output); GPT-5.5 1,050,000 (docs.oxen.ai model page; Vercel rounds it to 1M)' },
  { url: 'https://developers.openai.com/api/docs/models/gpt-5.4-nano', read: '2026-12-07', for: 'GPT-5.4 nano: "400,000 context window"; GPT-5 nano the same (developers.openai.com/api/docs/models/gpt-5-nano)' },
  { url: 'https://vercel.com/ai-gateway/models/openai/gpt-5.4-mini.md', read: '2026-12-07', for: 'GPT-5.4 mini: 400,000; GPT-5, GPT-5 mini, GPT-5.1, GPT-5.2: 400K; GPT-4.1: 1,047,576 (the AI Gateway model pages)' },
  { url: 'https://docs.sim.ai/models/deepseek/deepseek-v4-pro.md', read: '2026-12-07', for: 'DeepSeek V4 Pro and V4 Flash: 1M tokens; deepseek-chat / deepseek-reasoner became aliases of V4 Flash before retirement; V3.2: 128K' },
  { url: 'https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/gemini/2-5-pro', read: '2026-12-07', for: 'Gemini 2.5 Pro: maximum input tokens 1,048,576; the same for 2.5 Flash, 2.0 Flash and Flash-Lite (ai.google.dev model pages)' },
]);

/**
 * A model id as the table spells it: the provider or gateway prefix ('openai/gpt-5.4',
 * 'models/gemini-2.5-pro'), a Bedrock region and vendor ('us.anthropic.…-v1:0'), a Vertex
 * version ('@20251001') and a date suffix ('-20250929', '-2026-03-05') taken off; a gateway's
 * 'claude-sonnet-4.5' read as 'claude-sonnet-4-5'.
 */
function canonical(id) {
  let s = id.trim().toLowerCase();
  s = s.slice(s.lastIndexOf('/') + 1);
  s = s.replace(/^(?:us|eu|apac|global|jp|au)\./, '').replace(/^anthropic\./, '');
  s = s.replace(/-v\d+(?::\d+)?$/, '').replace(/@\d{8}$/, '').replace(/-\d{8}$/, '').replace(/-\d{4}-\d{2}-\d{2}$/, '');
  if (s.startsWith('claude-')) s = s.replace(/(\d)\.(\d)/g, '$1-$2');
  return s;
}

/** A suffix that names another, smaller model of the family: its window may be smaller too. */
const SMALLER = /^(?:mini|nano|lite|small|tiny)\b/;

/**
 * The context window of a model id, in tokens, or undefined when the table does not know it.
 * An id the table lacks whose longest known prefix is followed by '-' reads as that model
 * ('gpt-5.4-pro' as 'gpt-5.4', 'claude-opus-4-5-thinking' as 'claude-opus-4-5'), unless what
 * follows names a smaller model ('gpt-5.4-nano' is not 'gpt-5.4'); 'gpt-5.9' is not 'gpt-5'.
 * Reads `id`, keeps nothing.
 * @param {unknown} id
 * @returns {number | undefined}
 */
export function contextWindowOf(id) {
  if (typeof id !== 'string' || !id.trim()) return undefined;
  const s = canonical(id);
  if (Object.prototype.hasOwnProperty.call(CONTEXT_WINDOWS, s)) return CONTEXT_WINDOWS[s];
  let best;
  for (const key of Object.keys(CONTEXT_WINDOWS)) {
    if (!s.startsWith(`${key}-`) || SMALLER.test(s.slice(key.length + 1))) continue;
    if (!best || key.length > best.length) best = key;
  }
  return best ? CONTEXT_WINDOWS[best] : undefined;
}
