/**
 * knobs.js — the micro-compaction knobs beside keepRecent and excludeTools, checked in one place
 * for microCompact, the Compactor, the integrations and simulate's policies:
 * `clearToolInputs`, `thinking` (a policy name or `{keep: N}`), `dropToolCalls` and `reasoning`.
 * A value of the wrong type, or a key an object option does not know, is
 * MidfoldError('invalid-option') with the option's path (`dropToolCalls.tools[1]`).
 */
import { MidfoldError } from './errors.js';
import { THINKING_POLICIES } from './thinking.js';

const bad = (path, message) => { throw new MidfoldError('invalid-option', `${path} ${message}`, { path }); };
const isPlain = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const show = (v) => (typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v === 'object' ? 'an object' : String(v));

function keysOf(value, path, known) {
  for (const key of Object.keys(value))
    if (!known.includes(key)) bad(`${path}.${key}`, `is not an option; ${path} knows ${known.join(', ')}`);
}

function whole(value, path, min = 0) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > 0xffffffff)
    bad(path, `must be a whole number from ${min}, got ${show(value)}`);
  return value;
}

/** clearToolInputs: a boolean (false when absent). */
export function clearToolInputsOption(value, path = 'clearToolInputs') {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') bad(path, `must be true or false, got ${show(value)}`);
  return value;
}

/**
 * thinking: 'prefix-bound' (the default), 'unbound', or {keep: N, binding?: 'prefix-bound' | 'unbound'}
 * (the binding defaults to 'prefix-bound'). Returns {policy, keep}: keep is undefined unless asked.
 */
export function thinkingOption(value, path = 'thinking') {
  if (value === undefined) return { policy: 'prefix-bound', keep: undefined };
  if (typeof value === 'string') {
    if (!THINKING_POLICIES.includes(value)) bad(path, `must be one of ${THINKING_POLICIES.join(', ')} or {keep: N}, got ${show(value)}`);
    return { policy: value, keep: undefined };
  }
  if (!isPlain(value)) bad(path, `must be one of ${THINKING_POLICIES.join(', ')} or {keep: N}, got ${show(value)}`);
  keysOf(value, path, ['keep', 'binding']);
  if (value.keep === undefined) bad(`${path}.keep`, 'is missing: {keep: N} keeps the signed thinking of the last N turns');
  const keep = whole(value.keep, `${path}.keep`);
  const binding = value.binding === undefined ? 'prefix-bound' : value.binding;
  if (!THINKING_POLICIES.includes(binding)) bad(`${path}.binding`, `must be one of ${THINKING_POLICIES.join(', ')}, got ${show(binding)}`);
  return { policy: binding, keep };
}

/** dropToolCalls: {tools: [names...], beforeLast: N}, or null when absent. */
export function dropToolCallsOption(value, path = 'dropToolCalls') {
  if (value === undefined) return null;
  if (!isPlain(value)) bad(path, `must be an object like {tools: ['read_file'], beforeLast: 4}, got ${show(value)}`);
  keysOf(value, path, ['tools', 'beforeLast']);
  if (!Array.isArray(value.tools) || value.tools.length === 0) bad(`${path}.tools`, `must be a non-empty array of tool names, got ${show(value.tools)}`);
  value.tools.forEach((t, i) => { if (typeof t !== 'string' || t === '') bad(`${path}.tools[${i}]`, `must be a tool name, got ${show(t)}`); });
  if (value.beforeLast === undefined) bad(`${path}.beforeLast`, 'is missing: calls in the last N messages are kept');
  return { tools: [...value.tools], beforeLast: whole(value.beforeLast, `${path}.beforeLast`) };
}

/** reasoning: 'before-last-message', or undefined. */
export function reasoningOption(value, path = 'reasoning') {
  if (value === undefined) return undefined;
  if (value !== 'before-last-message') bad(path, `must be 'before-last-message', got ${show(value)}`);
  return value;
}
