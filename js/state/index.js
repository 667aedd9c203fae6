/**
 * state/index.js — compaction state carried across stateless calls (see docs/state.md).
 */
export { SessionState } from './session-state.js';
export { compactHistory } from './compact-history.js';
export { memoryStateStore } from './stores.js';
export { conversationKey, canonicalJSON } from './hash.js';
