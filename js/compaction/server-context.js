/**
 * server-context.js — what midfold asks the provider to do to the context itself while a tool
 * loop with prefix-bound thinking is in flight: there no client edit may land (the next request
 * would fail), but Anthropic's context management edits what the model reads after it checked
 * what was sent (docs/provider-rules.md, "Anthropic: server-side context management").
 *
 * - Under compact_20260112's minimum trigger (50,000 input tokens) the edit is
 *   clear_tool_uses_20250919 with the Compactor's clearing: its micro trigger, keepRecent as the
 *   tool uses kept, clearAtLeast and excludeTools.
 * - From that minimum on it is compact_20260112 at the threshold, with the Compactor's
 *   instructions (they replace the server's prompt), alone: a clearing below the threshold
 *   would keep the conversation under the compaction trigger for ever.
 * - With thinking {keep: N} under the 'prefix-bound' binding, clear_thinking_20251015 keeping N
 *   thinking turns goes first (js/core/thinking-keep.js: the client cannot drop thinking that a
 *   kept signature binds); with clearToolInputs, the clearing clears the calls' inputs too.
 * - A `compaction` block the provider returned is where it reads from: the request is sent from
 *   the last one on (the API drops what precedes it, and the SDK's own check wants it first).
 * - On Amazon Bedrock the same edits go through InvokeModel (the Messages API body, `anthropic_beta`
 *   in it); threshold compaction only for the models Bedrock lists for it (bedrockCompacts), tool
 *   clearing for the others. Converse takes neither.
 */

/** The beta header of context management (every edit). */
export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';
/** The beta header compact_20260112 needs beside it. */
export const COMPACT_BETA = 'compact-2026-01-12';
/** compact_20260112's smallest trigger, in input tokens. */
export const COMPACT_MIN_TRIGGER = 50000;

/**
 * The Bedrock model ids that take compact_20260112 through InvokeModel: Claude Sonnet 4.6 and Opus 4.6,
 * as Bedrock's compaction page lists them, bare or behind a cross-region prefix (us., eu., global., …).
 */
const BEDROCK_COMPACTION_MODELS = /^(?:[a-z]{2,6}\.)?anthropic\.claude-(?:sonnet-4-6|opus-4-6-v1)(?::\d+)?$/;

/** True when Bedrock compacts on its side for `modelId` (a string; anything else is false). */
export function bedrockCompacts(modelId) {
  return typeof modelId === 'string' && BEDROCK_COMPACTION_MODELS.test(modelId);
}

const isObject = (v) => v !== null && typeof v === 'object';

/**
 * The edits for a Compactor, in the AI SDK's spelling (`providerOptions.anthropic.contextManagement`
 * of @ai-sdk/anthropic 3.x and 4.x): `{edits: [...]}`. Returns a new object each call.
 * @param {{threshold: number, microTrigger: number, keepRecent: number, clearAtLeast: number,
 *   excludeTools?: string[], instructions?: string}} compactor
 * @param {{compaction?: boolean}} [provider] `compaction: false` where the provider cannot compact (a
 *   Bedrock model it does not list): tool clearing then, at any threshold.
 */
export function contextEdits(compactor, provider = {}) {
  const { threshold } = compactor;
  const thinking = thinkingEdits(compactor).edits;
  if (threshold >= COMPACT_MIN_TRIGGER && provider.compaction !== false) {
    return { edits: [...thinking, { type: 'compact_20260112', trigger: { type: 'input_tokens', value: threshold },
      ...(compactor.instructions && compactor.instructions.trim() ? { instructions: compactor.instructions } : {}) }] };
  }
  const trigger = Math.min(compactor.microTrigger || threshold, threshold);
  return { edits: [...thinking, { type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: trigger },
    keep: { type: 'tool_uses', value: compactor.keepRecent },
    ...(compactor.clearAtLeast > 0 ? { clearAtLeast: { type: 'input_tokens', value: compactor.clearAtLeast } } : {}),
    ...(compactor.clearToolInputs ? { clearToolInputs: true } : {}),
    ...(compactor.excludeTools && compactor.excludeTools.length ? { excludeTools: [...compactor.excludeTools] } : {}) }] };
}

/** True when the Compactor leaves thinking {keep} to the provider: its binding is 'prefix-bound'. */
export const keepsThinkingOnServer = (compactor) => compactor.thinkingKeep !== undefined && compactor.thinking === 'prefix-bound';

/**
 * The clear_thinking_20251015 edit alone (`{edits: []}` when the Compactor leaves no thinking
 * rule to the provider), in the AI SDK's spelling: keep {type: 'thinking_turns', value: N}.
 * @param {{thinkingKeep?: number, thinking?: string}} compactor
 */
export function thinkingEdits(compactor) {
  if (!keepsThinkingOnServer(compactor)) return { edits: [] };
  return { edits: [{ type: 'clear_thinking_20251015', keep: { type: 'thinking_turns', value: compactor.thinkingKeep } }] };
}

/** `contextEdits`' value in the Messages API's own spelling (`context_management`), as @ai-sdk/anthropic maps it. */
export function wireContextManagement(contextManagement) {
  return { edits: contextManagement.edits.map((e) => {
    const out = { type: e.type };
    if (e.trigger) out.trigger = e.trigger;
    if (e.keep) out.keep = e.keep;
    if (e.clearAtLeast) out.clear_at_least = e.clearAtLeast;
    if (e.clearToolInputs !== undefined) out.clear_tool_inputs = e.clearToolInputs;
    if (e.excludeTools) out.exclude_tools = e.excludeTools;
    if (e.instructions) out.instructions = e.instructions;
    return out;
  }) };
}

/** The beta headers a `contextEdits` value needs. */
export function betasFor(contextManagement) {
  return contextManagement.edits.some((e) => e.type === 'compact_20260112') ? [CONTEXT_MANAGEMENT_BETA, COMPACT_BETA] : [CONTEXT_MANAGEMENT_BETA];
}

/**
 * True for a `compaction` block: Anthropic's own, the AI SDK's text part that carries one, or the custom
 * part @ai-sdk/openai 4 writes for a Responses compaction item (kind 'openai.compaction').
 */
function isCompactionPart(part) {
  if (!isObject(part)) return false;
  if (part.type === 'compaction') return true;
  if (part.type === 'custom' && part.kind === 'openai.compaction') return true;
  const meta = part.type === 'text' && (part.providerOptions || part.providerMetadata);
  return isObject(meta) && isObject(meta.anthropic) && meta.anthropic.type === 'compaction';
}

/**
 * `messages` from the last compaction block on (the provider reads nothing before it): the leading
 * system messages, then the block's message from the block on, then the rest. The same array when
 * no block stands after the first place; otherwise a new array, the messages after the block the
 * same objects. Never changes `messages`.
 * @param {unknown[]} messages
 */
export function fromLastCompaction(messages) {
  let head = 0;
  while (head < messages.length && isObject(messages[head]) && messages[head].role === 'system') head++;
  for (let i = messages.length - 1; i >= head; i--) {
    const m = messages[i];
    const parts = isObject(m) && Array.isArray(m.content) ? m.content : [];
    let j = -1;
    for (let k = parts.length - 1; k >= 0 && j === -1; k--) if (isCompactionPart(parts[k])) j = k;
    if (j === -1) continue;
    if (i === head && j === 0) return messages;
    return [...messages.slice(0, head), { ...m, content: parts.slice(j) }, ...messages.slice(i + 1)];
  }
  return messages;
}

/** True when `messages` hold a compaction block (read as `fromLastCompaction` reads them) or a Responses compaction item. */
export function holdsCompaction(messages) {
  return messages.some((m) => isObject(m) && (m.type === 'compaction' || (Array.isArray(m.content) && m.content.some(isCompactionPart))));
}

/**
 * True when a response's context management (the Messages API's `context_management`, or the AI SDK's
 * `providerMetadata.anthropic.contextManagement`) says edits were applied: its input count is then of what
 * the model read, not of the conversation sent, and anchors nothing.
 */
export function editsApplied(contextManagement) {
  const list = isObject(contextManagement) ? (contextManagement.applied_edits || contextManagement.appliedEdits) : null;
  return Array.isArray(list) && list.length > 0;
}

/**
 * What to put on a Messages API request after `compactor.compact(messages)` (the Anthropic SDK's loop):
 * `messages` (from the last compaction block on), `betas` (the beta headers to add, maybe none) and, when
 * the report says a signed loop waited (`reason: 'deferred-thinking'`) or the messages go on from a
 * compaction block at a threshold that compacts, `context_management`. Spread it into
 * `client.beta.messages.create({...})` beside your own betas. The reply's count is of what the model read
 * when `reply.context_management.applied_edits` is not empty: observe usage only when it is.
 * Ownership: never changes `messages`; the result's array is new when it was cut, else `messages` itself.
 * @param {import('./compactor.js').Compactor} compactor
 * @param {unknown[]} messages
 * @param {{reason?: string}} report
 */
export function anthropicServerContext(compactor, messages, report) {
  const out = { messages: fromLastCompaction(messages), betas: [] };
  // (a conversation led by a threshold compaction's block goes on with compaction on: the block needs its beta)
  const compacting = compactor.threshold >= COMPACT_MIN_TRIGGER && holdsCompaction(out.messages);
  const deferred = report && report.reason === 'deferred-thinking';
  // (thinking {keep} under prefix binding: the provider's clear_thinking edit on every request with signed thinking)
  const keepThinking = keepsThinkingOnServer(compactor) && out.messages.some((m) => isObject(m) && Array.isArray(m.content)
    && m.role === 'assistant' && m.content.some((b) => isObject(b) && (b.type === 'thinking' || b.type === 'redacted_thinking')));
  if (!compacting && !deferred && !keepThinking) return out;
  const cm = compacting || deferred ? contextEdits(compactor) : thinkingEdits(compactor);
  out.context_management = wireContextManagement(cm);
  out.betas = betasFor(cm);
  return out;
}

// ---- OpenAI Responses ----------------------------------------------------------------------------------
// Server-side compaction: `context_management: [{type: 'compaction', compact_threshold}]` on a create request;
// once the rendered input crosses the threshold the server compacts, and the output carries the encrypted
// `compaction` item, which carries the context forward; items before the most recent one may be dropped
// (OpenAI's compaction guide; docs/provider-rules.md, "OpenAI Responses: server-side compaction").

/**
 * The Responses API's `context_management` for a Compactor (or a threshold): one compaction entry at its
 * threshold, `[{type: 'compaction', compact_threshold}]`. The openai SDK takes it as it is on
 * `responses.create`; the Agents SDK's `modelSettings.contextManagement` takes it too (it reads either
 * spelling). Returns a new array each call.
 * @param {{threshold: number} | number} compactor
 */
export function responsesContextManagement(compactor) {
  const threshold = typeof compactor === 'number' ? compactor : compactor && compactor.threshold;
  if (!Number.isInteger(threshold) || threshold <= 0) throw new TypeError('responsesContextManagement: a Compactor or a positive whole threshold is required');
  return [{ type: 'compaction', compact_threshold: threshold }];
}

const isInstruction = (item) => isObject(item) && (item.role === 'system' || item.role === 'developer') && (item.type === undefined || item.type === 'message');

/** The index of the last `compaction` item of Responses `items` after their leading system and developer messages, or -1. */
export function lastCompactionItem(items) {
  let head = 0;
  while (head < items.length && isInstruction(items[head])) head++;
  for (let i = items.length - 1; i >= head; i--) if (isObject(items[i]) && items[i].type === 'compaction') return i;
  return -1;
}

/**
 * Responses `items` from the last compaction item on, their leading system and developer messages kept: the
 * same array when there is none (or nothing precedes it), else a new one of the same objects.
 * @param {unknown[]} items
 */
export function fromLastCompactionItem(items) {
  const at = lastCompactionItem(items);
  let head = 0;
  while (head < items.length && isInstruction(items[head])) head++;
  return at <= head ? items : [...items.slice(0, head), ...items.slice(at)];
}

/**
 * What to put on a Responses create request after `compactor.compact(items)` (an openai SDK loop): `input`
 * (from the last compaction item on) and, when the report says a loop with encrypted reasoning waited
 * (`reason: 'deferred-thinking'`), `context_management` at the Compactor's threshold, so that the server
 * compacts inside the loop instead of the request growing. Spread it into `client.responses.create({...})`
 * and append the response's output items (a compaction item among them) to `items` as usual.
 * Ownership: never changes `items`; `input` is new when it was cut, else `items` itself.
 * @param {import('./compactor.js').Compactor} compactor
 * @param {unknown[]} items
 * @param {{reason?: string}} report
 */
export function responsesServerContext(compactor, items, report) {
  const out = { input: fromLastCompactionItem(items) };
  if (report && report.reason === 'deferred-thinking') out.context_management = responsesContextManagement(compactor);
  return out;
}
