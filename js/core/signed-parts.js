/**
 * signed-parts.js — the core's answers on signed thinking (src/signing.c, src/signed.c, through
 * api.js's signedThinking) as the client-side rules ask them: `thinking: {keep}`
 * (thinking-keep.js), dropToolCalls and reasoning (micro-rules.js), the AI SDK integration. The
 * rules of which parts are signed live in the core alone; these only read its answers.
 */
import { signedThinking } from './api.js';
import { applyDrops } from './thinking.js';

/** The index of the message holding a signed tool loop in flight, or -1. Reads `messages`, never keeps it. */
export const inFlightThinking = (messages) => signedThinking(messages).inFlight;

/**
 * Removes the signed thinking of messages[from..) in place, keeping the array's length (a
 * message that held nothing else stays as it was); with `copies`, each changed message is
 * replaced in the array by a copy instead (a trial on the caller's messages). Returns how many
 * parts went.
 */
export function dropSignedFrom(messages, from, copies = false) {
  return applyDrops(messages, signedThinking(messages, { from }).drops, { keepLength: true, copies });
}

/** The indices of the messages of `messages` that hold signed thinking. */
export const signedMessages = (messages) => new Set(signedThinking(messages).drops.map((d) => d.message));
