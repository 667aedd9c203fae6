/**
 * signed-parts.js — the core's answers on signed thinking (src/signing.c, src/signed.c) as the
 * client-side rules ask them: `thinking: {keep}` (thinking-keep.js), dropToolCalls and reasoning
 * (micro-rules.js), the AI SDK integration. The rules of which parts are signed live in the core
 * alone; these only read its answers, through the `signedThinking` of api.js that each caller
 * passes in (api.js imports the rules, so they do not import it back).
 */
import { applyDrops } from './thinking.js';

/**
 * The index of the message holding a signed tool loop in flight, or -1. Reads `messages`, never keeps it.
 * @param {unknown[]} messages
 * @param {typeof import('./api.js').signedThinking} signedThinking
 */
export const inFlightThinking = (messages, signedThinking) => signedThinking(messages).inFlight;

/**
 * Removes the signed thinking of messages[from..) in place, keeping the array's length (a
 * message that held nothing else stays as it was); with `copies`, each changed message is
 * replaced in the array by a copy instead (a trial on the caller's messages). Returns how many
 * parts went.
 * @param {unknown[]} messages
 * @param {number} from
 * @param {typeof import('./api.js').signedThinking} signedThinking
 * @param {boolean} [copies]
 */
export function dropSignedFrom(messages, from, signedThinking, copies = false) {
  return applyDrops(messages, signedThinking(messages, { from }).drops, { keepLength: true, copies });
}

/**
 * The indices of the messages of `messages` that hold signed thinking.
 * @param {unknown[]} messages
 * @param {typeof import('./api.js').signedThinking} signedThinking
 */
export const signedMessages = (messages, signedThinking) => new Set(signedThinking(messages).drops.map((d) => d.message));
