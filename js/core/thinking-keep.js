/**
 * thinking-keep.js — `thinking: {keep: N}`: the signed thinking of finished turns goes, except
 * that of the last N turns that have some, as Anthropic's clear_thinking_20251015 does with
 * keep {type: 'thinking_turns', value: N}. A turn runs from a user message (one that is more
 * than tool results) to the next: one assistant turn of a tool loop spans its assistant
 * messages. The turn in flight (the conversation ends with its assistant message or its
 * results) is never touched, and counts among the last N.
 *
 * Where the client may do it: with the 'unbound' binding (the provider checks only the
 * in-flight message), always; with 'prefix-bound' (the default: the provider binds each
 * signature to the conversation before it), only when no signed thinking would remain after
 * the first part removed, that is keep 0 at a turn boundary. Anywhere else the kept thinking
 * would follow a changed prefix and the request would be refused, so the rule is left to the
 * provider's own edit, which checks the signatures against what was sent before it edits what
 * the model reads: the integrations send clear_thinking_20251015 (server-context.js), and
 * simulate prices the request the provider then reads.
 */
import { dropSignedFrom } from './signed-parts.js';
import { pendingStart } from './prune.js';

const isObject = (v) => v !== null && typeof v === 'object';

/** A user message that starts a turn: a user (or human) message that is not only tool results. */
function startsTurn(m) {
  if (!isObject(m) || m.role !== 'user') return false;
  if (!Array.isArray(m.content)) return true;
  return !m.content.length || !m.content.every((p) => isObject(p) && p.type === 'tool_result');
}

/**
 * The finished turns whose signed thinking the rule removes: [{from, to}] index ranges (the
 * messages of each turn), oldest first; `inFlight`: whether the last turn is in flight;
 * `signedInFlight`: whether a signed tool loop is in flight (the core's answer).
 * @param {unknown[]} messages
 * @param {number} keep
 * @param {typeof import('./api.js').signedThinking} signedThinking the core's answers (api.js; passed in, not imported: api.js imports this module)
 */
export function thinkingTurnsToDrop(messages, keep, signedThinking) {
  // (one reading of the core's answers serves both: which messages hold signed thinking, and the loop in flight)
  const answer = signedThinking(messages);
  const turns = [];
  let from = 0;
  for (let i = 0; i < messages.length; i++) {
    if (startsTurn(messages[i]) && i > from) { turns.push({ from, to: i }); from = i; }
  }
  if (from < messages.length) turns.push({ from, to: messages.length });
  const pending = pendingStart(messages);
  const inFlight = messages.length > 0 && !startsTurn(messages[messages.length - 1]);
  const signed = [...new Set(answer.drops.map((d) => d.message))];
  const withThinking = turns.filter((t) => signed.some((i) => i >= t.from && i < t.to));
  const kept = withThinking.slice(Math.max(0, withThinking.length - keep));
  // (the pending turn's messages are never touched, whatever keep says)
  const drop = withThinking.filter((t) => !kept.includes(t) && t.from < pending).map((t) => ({ from: t.from, to: Math.min(t.to, pending) }));
  return { drop, kept: kept.length, inFlight, signedInFlight: answer.inFlight >= 0 };
}

/**
 * What the rule does to `messages` under `policy`: null when it removes nothing; else {turns:
 * how many finished turns lose their thinking, by: 'client' | 'server'}. With 'client', and
 * `apply`, the thinking is removed in place (each changed message gets a new content or parts
 * list, or is replaced by a copy where it cannot be written; see applyDrops) and
 * `removed` says how many parts went.
 * @param {unknown[]} messages
 * @param {number} keep
 * @param {'prefix-bound' | 'unbound'} policy
 * @param {boolean} apply
 * @param {typeof import('./api.js').signedThinking} signedThinking the core's answers (api.js; passed in, not imported: api.js imports this module)
 */
export function keepThinking(messages, keep, policy, apply, signedThinking) {
  const { drop, kept, signedInFlight } = thinkingTurnsToDrop(messages, keep, signedThinking);
  if (!drop.length) return null;
  const client = policy === 'unbound' || (kept === 0 && !signedInFlight);
  if (!client) return { turns: drop.length, by: 'server' };
  let removed = 0;
  if (apply) {
    for (const t of drop) {
      const part = messages.slice(0, t.to);
      removed += dropSignedFrom(part, t.from, signedThinking);
      for (let i = t.from; i < t.to; i++) if (part[i] !== messages[i]) messages[i] = part[i];
    }
  }
  return { turns: drop.length, by: 'client', removed };
}

/**
 * The copy of `messages` the provider reads after its clear_thinking edit keeps the last `keep` thinking turns (simulate).
 * @param {unknown[]} messages
 * @param {number} keep
 * @param {typeof import('./api.js').signedThinking} signedThinking the core's answers (api.js; passed in, not imported: api.js imports this module)
 */
export function serverKeptThinking(messages, keep, signedThinking) {
  const { drop } = thinkingTurnsToDrop(messages, keep, signedThinking);
  if (!drop.length) return messages;
  const copy = messages.slice();
  for (const t of drop) {
    const part = copy.slice(0, t.to);
    dropSignedFrom(part, t.from, signedThinking, true);
    for (let i = t.from; i < t.to; i++) copy[i] = part[i];
  }
  return copy;
}
