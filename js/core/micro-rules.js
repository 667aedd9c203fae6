/**
 * micro-rules.js — the micro-compaction rules that run after the core's plan is applied:
 * dropToolCalls and reasoning (prune.js), then thinking {keep: N} (thinking-keep.js). One
 * place for microCompact and the Compactor. The core's plan clears results and inputs in
 * place; these rules can remove parts and messages, so they write the caller's array.
 */
import { MidfoldError } from './errors.js';
import { messagesFromViews, viewList } from './langchain.js';
import { dropSignedFrom, inFlightThinking } from './signed-parts.js';
import { clearToolInputsOption, dropToolCallsOption, reasoningOption, thinkingOption } from './knobs.js';
import { pruneRules } from './prune.js';
import { keepThinking } from './thinking-keep.js';

/**
 * The knobs of an options object, checked: {clearToolInputs, policy, keep, dropToolCalls,
 * reasoning} (policy: the thinking binding; keep: thinking {keep}, or undefined).
 * @param {Record<string, any>} o
 */
export function microKnobs(o) {
  const { policy, keep } = thinkingOption(o.thinking);
  return { clearToolInputs: clearToolInputsOption(o.clearToolInputs), policy, keep,
    dropToolCalls: dropToolCallsOption(o.dropToolCalls), reasoning: reasoningOption(o.reasoning) };
}

/** Whether any rule of this module is on. */
export const hasRules = (k) => !!(k.dropToolCalls || k.reasoning || k.keep !== undefined);

/**
 * Throws 'read-only-input' when the rules would remove messages from an array that cannot
 * take it (frozen, sealed): called before anything is changed.
 * @param {unknown[]} messages
 * @param {ReturnType<typeof microKnobs>} k
 */
export function checkRulesCanLand(messages, k) {
  if (!(k.dropToolCalls || k.reasoning) || Object.isExtensible(messages) && !Object.isFrozen(messages) && !Object.isSealed(messages)) return;
  const pruned = pruneRules(viewList(messages), k);
  if (pruned && pruned.list.length !== messages.length)
    throw new MidfoldError('read-only-input', 'dropToolCalls and reasoning remove messages, and the array cannot be changed (frozen or sealed); nothing was changed');
}

/**
 * Applies the rules to `messages` (the core's edits already applied). Returns what they did,
 * for the report: {pruned?: {calls, messages, reasoning}, thinkingRemoved?, thinkingKeep?:
 * {turns, by}, deferred?}, and `changed` when the conversation changed. With a signed tool
 * loop in flight under the 'prefix-bound' binding, dropToolCalls and reasoning wait
 * (deferred: 'in-flight-thinking'): the loop's thinking is bound to everything before it.
 * @param {unknown[]} messages
 * @param {ReturnType<typeof microKnobs>} k
 * @param {typeof import('./api.js').signedThinking} signedThinking the core's answers (api.js; passed in, not imported: api.js imports this module)
 */
export function applyMicroRules(messages, k, signedThinking) {
  const out = { changed: false };
  if (!hasRules(k)) return out;
  const views = viewList(messages);
  let list = views === messages ? messages : views.slice();
  if (k.dropToolCalls || k.reasoning) {
    const pruned = pruneRules(list, k);
    if (pruned && k.policy === 'prefix-bound' && inFlightThinking(list, signedThinking) >= 0) out.deferred = 'in-flight-thinking';
    else if (pruned) {
      // The messages after the first change follow a changed prefix: their signed thinking goes.
      const removed = k.policy === 'prefix-bound' && pruned.first < pruned.list.length ? dropSignedFrom(pruned.list, pruned.first, signedThinking) : 0;
      list = pruned.list;
      out.changed = true;
      out.pruned = { calls: pruned.callsDropped, messages: pruned.messagesRemoved, reasoning: pruned.reasoningRemoved };
      if (removed) out.thinkingRemoved = removed;
    }
  }
  if (k.keep !== undefined) {
    const kept = keepThinking(list, k.keep, k.policy, true, signedThinking);
    if (kept) {
      out.thinkingKeep = { turns: kept.turns, by: kept.by };
      if (kept.removed) { out.thinkingRemoved = (out.thinkingRemoved || 0) + kept.removed; out.changed = true; }
    }
  }
  if (views === messages) {
    if (list !== messages) messages.splice(0, messages.length, ...list);
  } else if (out.changed) {
    const back = messagesFromViews(list, messages);
    messages.splice(0, messages.length, ...back);
  }
  return out;
}
