/**
 * thinking.js — the thinking policy, and the application of what the core says of signed thinking.
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
 *   finished turns), never from an in-flight message. OpenAI's encrypted reasoning makes edits
 *   wait as well, since OpenAI drops reasoning whose history changed, but is never removed.
 * - 'unbound' (providers that check only the in-flight message: Anthropic models before
 *   prefix binding, DeepSeek, OpenAI Chat): edits may land anywhere before the pending turn,
 *   and kept turns keep their thinking.
 *
 * Which blocks are signed, when a loop is in flight and which signed parts go are the core's
 * rules (src/signed.c), answered by its plans: `inFlight` (the message of a signed loop in
 * flight, or -1) and `drops` (the signed parts that go). This module reads no wire shape: it
 * applies the drops to the caller's messages.
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

/** The kinds of the core's drops (mf_drop_kind). */
export const DROP_KINDS = { 1: 'part', 2: 'details', 3: 'beside' };

// The metadata of a call part that may carry OpenRouter's details, by the core's bits (MF_META_*).
const META_KEYS = ['providerOptions', 'providerMetadata', 'callProviderMetadata', 'resultProviderMetadata'];

/**
 * One signed part that goes, as the core names it (mf_signed_drop): `message`, `part` (-1
 * beside the content), `kind` ('part': removed from the message's content or parts; 'details':
 * a call part that loses OpenRouter's reasoning_details from the metadata `keys` names;
 * 'beside': a Chat message that loses reasoning_details and reasoning), `count` (parts it
 * removes), `alone` (the message holds nothing else), `milli` (what it takes off the estimate).
 * @typedef {{message: number, part: number, kind: 'part' | 'details' | 'beside', count: number,
 *   alone: boolean, keys: number, milli: number}} SignedDrop
 */

/** A copy of a call part without OpenRouter's reasoning_details in the metadata `keys` names (the other metadata kept). */
function withoutDetails(part, keys) {
  const copy = { ...part };
  META_KEYS.forEach((k, bit) => {
    if (!(keys & (1 << bit))) return;
    const meta = { ...part[k] }, openrouter = { ...meta.openrouter };
    delete openrouter.reasoning_details;
    delete meta.openrouter;
    if (Object.keys(openrouter).length) meta.openrouter = openrouter;
    if (Object.keys(meta).length) copy[k] = meta;
    else delete copy[k];
  });
  return copy;
}

/**
 * Applies the core's `drops` to `messages` in place, from the last message back: a drop of
 * message m lands on messages[m + shift]. A message that holds nothing else once they went
 * (`alone`) is removed (the provider merges the turns around it), or, with `keepLength`
 * (micro-compaction keeps the array's length), left as it was. Each changed message gets a new
 * content (or parts) array, or loses reasoning_details and reasoning; one that cannot be
 * written (a frozen one), or any with `copies` (a trial on the caller's messages), is replaced
 * in the array by a copy. `offsets` (message -> n) says a message's parts now start n further
 * on (a joined turn); such a message is never alone when n > 0. Returns how many parts were
 * removed or stripped (reasoning_details entries, for a Chat message).
 * @param {unknown[]} messages
 * @param {SignedDrop[]} drops in message order
 * @param {{shift?: number, keepLength?: boolean, copies?: boolean, offsets?: Map<number, number>}} [how]
 */
export function applyDrops(messages, drops, { shift = 0, keepLength = false, copies = false, offsets } = {}) {
  let removed = 0;
  for (let end = drops.length; end > 0;) {
    let start = end - 1;
    while (start > 0 && drops[start - 1].message === drops[end - 1].message) start--;
    const group = drops.slice(start, end);
    end = start;
    const offset = (offsets && offsets.get(group[0].message)) || 0;
    const i = group[0].message + shift;
    const m = messages[i];
    const alone = group[0].alone && offset === 0;
    if (alone && keepLength) continue;
    if (group[0].kind === 'beside') {
      removed += group[0].count;
      if (alone) messages.splice(i, 1);
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
    const gone = new Set(), details = new Map();
    for (const d of group) {
      if (d.kind === 'part') gone.add(d.part + offset);
      else details.set(d.part + offset, d.keys);
    }
    removed += gone.size + details.size;
    if (alone) { messages.splice(i, 1); continue; }
    const key = Array.isArray(m.content) ? 'content' : 'parts';
    const list = m[key].map((p, at) => (details.has(at) ? withoutDetails(p, details.get(at)) : p)).filter((_, at) => !gone.has(at));
    setList(messages, i, key, list, copies);
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

/**
 * After micro-compaction edits (at a turn boundary: in flight it waits), the signed thinking of
 * every later assistant message follows a changed prefix, which the newer Anthropic models
 * reject (prefix binding); the thinking of finished turns may be left out, so under the
 * 'prefix-bound' policy it is ('unbound' keeps it): the plan's `drops` say which (the core's
 * rule, src/signed.c, UIMessages included). Returns how many parts were removed.
 * @param {unknown[]} messages the conversation, edits applied
 * @param {{edits: unknown[], drops?: SignedDrop[]}} plan a micro-compaction plan of these messages
 * @param {'prefix-bound' | 'unbound'} policy as thinkingPolicy() resolved it
 */
export function dropThinkingAfterEdits(messages, plan, policy) {
  if (policy !== 'prefix-bound' || !plan.edits.length || !plan.drops || !plan.drops.length) return 0;
  return applyDrops(messages, plan.drops, { keepLength: true });
}

/**
 * The milli-tokens dropThinkingAfterEdits takes out of the estimate under `policy`: the sum
 * of the drops' own (the core prices each as its plan prices the part).
 * @param {SignedDrop[]} drops
 * @param {'prefix-bound' | 'unbound'} policy
 */
export function dropsMilli(drops, policy) {
  if (policy !== 'prefix-bound') return 0;
  let milli = 0;
  for (const d of drops) milli += d.milli;
  return milli;
}
