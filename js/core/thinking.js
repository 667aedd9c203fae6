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
 *   finished turns), never from an in-flight message. OpenAI's encrypted reasoning (Responses
 *   items, the AI SDK's reasoningEncryptedContent parts) makes edits wait as well, since OpenAI
 *   drops reasoning whose history changed, but is never removed or edited: it stays with the
 *   call it precedes.
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

/**
 * True for an OpenRouter `reasoning_details` list that holds signed or encrypted reasoning
 * (Claude's and Gemini's, which OpenRouter hands back to them): an entry with a `signature`,
 * or a `reasoning.encrypted` one with its `data`. Plain `reasoning.text` / `reasoning.summary`
 * entries without a signature are text nobody checks.
 */
function hasSignedDetails(details) {
  return Array.isArray(details) && details.some((d) => isObject(d) &&
    ((typeof d.signature === 'string' && d.signature !== '') || (d.type === 'reasoning.encrypted' && typeof d.data === 'string' && d.data !== '')));
}

/** True for a content part that carries a provider's signature over thinking. */
function isSignedThinkingPart(part) {
  if (!isObject(part)) return false;
  if (part.type === 'thinking' || part.type === 'redacted_thinking') return true; // Anthropic: always signed
  if (part.type === 'reasoning' || part.type === 'redacted-reasoning') {
    // AI SDK parts: Anthropic's signature rides in providerOptions (ModelMessage, V3/V4 prompts) or
    // providerMetadata (UIMessage), Bedrock's (Claude through the Converse API) there under
    // `bedrock` or `amazonBedrock`, OpenRouter's in its reasoning_details; a reasoning part with
    // none of them is plain text the provider never checks.
    const meta = part.providerOptions || part.providerMetadata;
    if (!isObject(meta)) return part.type === 'redacted-reasoning';
    const openrouter = isObject(meta.openrouter) ? meta.openrouter : null;
    return part.type === 'redacted-reasoning' || SIGNING_PROVIDERS.some((name) => isSigned(meta[name])) ||
      !!(openrouter && hasSignedDetails(openrouter.reasoning_details));
  }
  return false;
}

// The providerOptions names under which an AI SDK provider keeps a signature over Claude's
// thinking: @ai-sdk/anthropic (and its Vertex and Bedrock Messages variants) under `anthropic`;
// @ai-sdk/amazon-bedrock's Converse provider under `bedrock` (4.x, ai 6) and also `amazonBedrock`
// (5.x, ai 7), with a signature, redactedData or redactedContent (its reasoning metadata schema).
const SIGNING_PROVIDERS = ['anthropic', 'bedrock', 'amazonBedrock'];
const isSigned = (o) => isObject(o) && !!(o.signature || o.redactedData || o.redactedContent);

/** True for a Chat Completions assistant message with signed OpenRouter reasoning_details. */
const hasSignedReasoning = (m) => isObject(m) && hasSignedDetails(m.reasoning_details);

// Where an AI SDK call part keeps a provider's metadata: providerOptions (ModelMessage, V3/V4
// prompts), providerMetadata (a step's content), and on a UIMessage tool part the call's and the
// result's (convertToModelMessages makes the first, or for an output-error the second, the
// tool-call part's providerOptions).
const CALL_META_KEYS = ['providerOptions', 'providerMetadata', 'callProviderMetadata', 'resultProviderMetadata'];
const signedOpenRouterMeta = (meta) => isObject(meta) && isObject(meta.openrouter) && hasSignedDetails(meta.openrouter.reasoning_details);

/**
 * True for an AI SDK call part that carries OpenRouter's signed reasoning_details. OpenRouter's
 * provider copies a step's details onto each of its tool calls, and when it sends an assistant
 * message it reads them from the first call part that has them before it looks at the
 * reasoning parts (@openrouter/ai-sdk-provider 2.10 and 3.1, findFirstReasoningDetails), so
 * these are signed thinking as much as the reasoning part is.
 */
function carriesSignedDetails(part) {
  return isCall(part) && CALL_META_KEYS.some((k) => signedOpenRouterMeta(part[k]));
}

/** A copy of a call part without OpenRouter's reasoning_details (the other metadata kept). */
function withoutSignedDetails(part) {
  const copy = { ...part };
  for (const k of CALL_META_KEYS) {
    if (!signedOpenRouterMeta(part[k])) continue;
    const meta = { ...part[k] }, openrouter = { ...meta.openrouter };
    delete openrouter.reasoning_details;
    delete meta.openrouter;
    if (Object.keys(openrouter).length) meta.openrouter = openrouter;
    if (Object.keys(meta).length) copy[k] = meta;
    else delete copy[k];
  }
  return copy;
}

/**
 * True for an AI SDK reasoning part carrying OpenAI's encrypted reasoning (`store: false`:
 * @ai-sdk/openai keeps it as reasoningEncryptedContent, in providerOptions or, on a UIMessage,
 * providerMetadata; @ai-sdk/azure under its own name). Like a Responses reasoning item it binds
 * nothing the API rejects, but OpenAI drops it when the history before it changed
 * (docs/provider-rules.md): an edit waits while it is in flight, and it is never removed.
 */
function isEncryptedReasoningPart(part) {
  if (!isObject(part) || part.type !== 'reasoning') return false;
  const meta = part.providerOptions || part.providerMetadata;
  if (!isObject(meta)) return false;
  return [meta.openai, meta.azure].some((o) => isObject(o) && typeof o.reasoningEncryptedContent === 'string' && o.reasoningEncryptedContent !== '');
}

/** The Responses items a client answers with a *_call_output: a list that ends with one waits for it. */
const RESPONSES_CALLS = ['function_call', 'custom_tool_call', 'computer_call', 'local_shell_call', 'shell_call', 'apply_patch_call'];

const isCall = (p) => isObject(p) && (p.type === 'tool_use' || p.type === 'tool-call' ||
  (typeof p.type === 'string' && p.type.startsWith('tool-') && p.type !== 'tool-result') || p.type === 'dynamic-tool');
const isResultCarrier = (m) => isObject(m) && (m.role === 'tool' ||
  (m.role === 'user' && partsOf(m).some((p) => isObject(p) && p.type === 'tool_result')));

/**
 * True when an assistant message that ends the conversation waits for results: a client call
 * (Anthropic tool_use, Chat tool_calls, an AI SDK tool-call without its result beside it, as a
 * provider-executed tool has), or a server-tool or MCP call whose result is not in it yet (a
 * turn paused with pause_turn, which the API continues from this very message).
 */
function awaitsResults(m, parts) {
  if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) return true;
  const here = new Set();
  for (const p of parts) if (isObject(p) && (p.type === 'tool-result' || (typeof p.type === 'string' && p.type.endsWith('_tool_result'))))
    here.add(p.type === 'tool-result' ? p.toolCallId : p.tool_use_id);
  return parts.some((p) => isObject(p) && (p.type === 'tool_use' ||
    ((p.type === 'tool-call' || p.type === 'server_tool_use' || p.type === 'mcp_tool_use') && !here.has(p.type === 'tool-call' ? p.toolCallId : p.id))));
}

/**
 * The index of the message (or item) holding a tool loop in flight with signed thinking, or -1.
 * In flight: that assistant message made tool calls, and the conversation ends with it (its calls
 * still wait for their results: the next request sends them after it) or with their results (or,
 * for a UIMessage, the last message is that assistant message), nothing the user wrote after.
 * Either way the provider checks its thinking in the next request, against what came before.
 */
export function inFlightThinking(messages) {
  if (!Array.isArray(messages) || messages.length === 0) return -1;
  // OpenAI Responses items: a trailing run of reasoning / call / output items after the last message.
  const last = messages[messages.length - 1];
  if (isObject(last) && !last.role && (RESPONSES_CALLS.includes(last.type) || (typeof last.type === 'string' && last.type.endsWith('_call_output')))) {
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
  const m = messages[i];
  const parts = partsOf(m);
  // (Chat Completions: the calls are tool_calls, OpenRouter's signed reasoning its reasoning_details)
  const answered = i < messages.length - 1 || Array.isArray(m.parts); // UIMessage: results live inside
  const calls = answered ? parts.some(isCall) || (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) : awaitsResults(m, parts);
  if (!calls || !(parts.some(isSignedThinkingPart) || parts.some(carriesSignedDetails) ||
    parts.some(isEncryptedReasoningPart) || hasSignedReasoning(m))) return -1;
  return i;
}

/**
 * What removing signed thinking does to message `m`: null when it holds none; else, for a
 * Chat Completions message with OpenRouter's signed reasoning_details, {chat: true, count,
 * empty} (count: the entries; empty: nothing else would be left); else {key, drop, empty}
 * where `drop` lists the indices of its signed thinking parts in m[key] ('content' or
 * 'parts'; it may be empty when only call parts carry OpenRouter's signed details) and
 * `empty` says nothing else would be left. The one reading of a message that removing and
 * pricing the removal share.
 */
function signedThinkingOf(m) {
  if (!isObject(m) || m.role !== 'assistant') return null;
  if (hasSignedReasoning(m)) {
    // OpenRouter's Chat Completions: the reasoning rides beside the content, as
    // reasoning_details (and its text as `reasoning`).
    const empty = (m.content === null || m.content === undefined || m.content === '') && !(Array.isArray(m.tool_calls) && m.tool_calls.length);
    return { chat: true, count: m.reasoning_details.length, empty };
  }
  const key = Array.isArray(m.content) ? 'content' : Array.isArray(m.parts) ? 'parts' : null;
  if (!key) return null;
  const list = m[key];
  const drop = [];
  let details = false;
  for (let p = 0; p < list.length; p++) {
    if (isSignedThinkingPart(list[p])) drop.push(p);
    else if (carriesSignedDetails(list[p])) details = true;
  }
  if (!drop.length && !details) return null;
  return { key, drop, empty: drop.length === list.length };
}

/** True when message `m` holds signed thinking that dropKeptThinking would remove. */
export const hasSignedThinking = (m) => signedThinkingOf(m) !== null;

/**
 * Removes signed thinking from the assistant messages messages[from..) except `keep` (an
 * index, or -1), in place: each such message gets a new content (or parts) array without them
 * (a message that cannot be written, a frozen one, is replaced in the array by a copy that has it);
 * a message that held nothing else is removed (the provider merges the turns around it), or,
 * with `keepLength` (micro-compaction keeps the array's length), left as it was. A call part
 * that carries OpenRouter's signed details is replaced by a copy without them. With `copies`,
 * no message is written at all: each changed one is replaced in the array by a copy (a trial
 * run on a list of the caller's messages). Returns how many parts were removed or stripped
 * (or, on a Chat Completions message, OpenRouter reasoning_details entries removed).
 * Reasoning items are never touched.
 */
export function dropKeptThinking(messages, from, keep = -1, keepLength = false, copies = false) {
  let removed = 0;
  for (let i = messages.length - 1; i >= from; i--) {
    if (i === keep) continue;
    const m = messages[i];
    const t = signedThinkingOf(m);
    if (!t || (t.empty && keepLength)) continue;
    if (t.chat) {
      removed += t.count;
      if (t.empty) messages.splice(i, 1);
      else if (!copies && canEdit(m, 'reasoning_details', true) && (!('reasoning' in m) || canEdit(m, 'reasoning', true))) {
        delete m.reasoning_details;
        delete m.reasoning;
      } else {
        const copy = { ...m };
        delete copy.reasoning_details;
        delete copy.reasoning;
        messages[i] = copy;
      }
      continue;
    }
    removed += t.drop.length;
    if (t.empty) messages.splice(i, 1);
    else setList(messages, i, t.key, stripCallDetails(m[t.key].filter((_, p) => !t.drop.includes(p)), 0, () => removed++), copies);
  }
  return removed;
}

/**
 * Whether `key` of `m` can be set (and, with `remove`, deleted) in place: a message the caller
 * froze (Immer's state is deep-frozen) or made read-only is replaced in the array instead.
 */
function canEdit(m, key, remove = false) {
  const d = Object.getOwnPropertyDescriptor(m, key);
  return d !== undefined && d.writable === true && (!remove || d.configurable === true);
}

/** messages[i][key] = list: in place, or in a copy of the message where it cannot be written (or with `copy`). */
function setList(messages, i, key, list, copy = false) {
  const m = messages[i];
  if (!copy && canEdit(m, key)) m[key] = list;
  else messages[i] = { ...m, [key]: list };
}

/** parts with each call part from index `from` on that carries signed details replaced by a copy without them. */
function stripCallDetails(parts, from, onStrip) {
  return parts.map((p, i) => {
    if (i < from || !carriesSignedDetails(p)) return p;
    onStrip();
    return withoutSignedDetails(p);
  });
}

/** The first edited message, and in it the first edited part (Infinity when there are no edits). */
function firstEdit(edits) {
  let message = Infinity, part = Infinity;
  for (const e of edits) message = Math.min(message, e.message);
  for (const e of edits) if (e.message === message) part = Math.min(part, e.part);
  return { message, part };
}

/** The first edited message, when it is a UIMessage that holds a whole tool loop (see below). */
const loopMessage = (m) => isObject(m) && m.role === 'assistant' && Array.isArray(m.parts);

/**
 * After micro-compaction edits (at a turn boundary: in flight it waits), the signed thinking of
 * every later assistant message follows a changed prefix, which the newer Anthropic models
 * reject (prefix binding); the thinking of finished turns may be left out, so under the
 * 'prefix-bound' policy it is ('unbound' keeps it). The messages before the first edit keep
 * theirs. A UIMessage holds a whole tool loop, each tool part with its output, and the AI SDK
 * sends each later step after the outputs before it: in the first edited UIMessage the signed
 * thinking after the first edited part goes too (that of its own step, before it, stays).
 * Returns how many parts were removed.
 * @param {unknown[]} messages the conversation, edits applied
 * @param {{message: number, part: number}[]} edits
 * @param {'prefix-bound' | 'unbound'} policy as thinkingPolicy() resolved it
 */
export function dropThinkingAfterEdits(messages, edits, policy) {
  if (policy !== 'prefix-bound' || !edits.length) return 0;
  const first = firstEdit(edits);
  let removed = dropKeptThinking(messages, first.message + 1, -1, true);
  const m = messages[first.message];
  if (loopMessage(m)) {
    let stripped = 0;
    const kept = stripCallDetails(m.parts, first.part, () => stripped++).filter((p, i) => i < first.part || !isSignedThinkingPart(p));
    if (kept.length < m.parts.length || stripped) {
      removed += m.parts.length - kept.length + stripped;
      setList(messages, first.message, 'parts', kept);
    }
  }
  return removed;
}

/**
 * The milli-tokens dropThinkingAfterEdits takes out of the estimate, from a micro-compaction
 * plan's `thinking` list (each thinking part from the first edited message on, with its
 * estimate, as the core prices it): what the plan's own figure after the edits does not know
 * the thinking policy removes. Reads `messages` (edits applied or not: they never touch
 * thinking), changes nothing.
 * @param {unknown[]} messages
 * @param {{message: number, part: number}[]} edits
 * @param {{message: number, part: number, milli: number}[]} thinking the plan's (part -1: beside the content)
 * @param {'prefix-bound' | 'unbound'} policy
 */
export function thinkingMilliAfterEdits(messages, edits, thinking, policy) {
  if (policy !== 'prefix-bound' || !edits.length || !thinking.length) return 0;
  const first = firstEdit(edits);
  // Per message, which of its thinking the drop takes: a set of part indices, or 'beside'.
  const gone = new Map();
  for (let i = first.message + 1; i < messages.length; i++) {
    const t = signedThinkingOf(messages[i]);
    if (!t || t.empty) continue; // (micro-compaction keeps a message that holds nothing else)
    // A Chat message loses `reasoning` and reasoning_details; the core reads its thinking from
    // reasoning_content first (DeepSeek's), which stays.
    const m = messages[i];
    if (t.chat) { if (!(typeof m.reasoning_content === 'string' && m.reasoning_content !== '')) gone.set(i, 'beside'); }
    else if (t.drop.length) gone.set(i, new Set(t.drop));
  }
  const m = messages[first.message];
  if (loopMessage(m)) {
    const drop = new Set();
    for (let p = first.part; p < m.parts.length; p++) if (isSignedThinkingPart(m.parts[p])) drop.add(p);
    if (drop.size) gone.set(first.message, drop);
  }
  let milli = 0;
  for (const t of thinking) {
    const g = gone.get(t.message);
    if (g === undefined) continue;
    if (g === 'beside' ? t.part === -1 : g.has(t.part)) milli += t.milli;
  }
  return milli;
}
