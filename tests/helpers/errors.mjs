// Test helpers for bad input (core-errors.test.mjs, hostile.test.mjs): a call either
// answers or throws a MidfoldError with a stable code and a message; the caller's data
// is never changed; and the module answers known-answer calls right after.
import assert from 'node:assert/strict';
import { estimateTokens, serialize, microCompact, validate, MidfoldError } from '../../js/hosts/node.js';
import { loadFixture } from './fixtures.mjs';

export const SEED_TRANSCRIPT = '[user]\nPlease read the config file\n\n[assistant]\n[tool_use:read_file] {"file_path": "config.toml"}\n\n[user]\n[tool_result:read_file] 1: [provider]\n2: name = "anthropic"';

/** Known answers (a string, a message list, a transcript, a micro-compaction, a validation): the module is still whole. */
export function assertStillWorks() {
  assert.equal(estimateTokens('中文 abcd', { profile: 'bareagent' }), 5);
  assert.equal(estimateTokens([{ role: 'user', content: 'hi' }], { profile: 'bareagent' }), 5);
  assert.equal(serialize(loadFixture('seed-example.anthropic')), SEED_TRANSCRIPT);
  assert.equal(microCompact(loadFixture('coding-session.openai')).cleared, 8);
  assert.equal(validate(loadFixture('coding-session.anthropic')).ok, true);
}

/**
 * Runs fn(); expects a MidfoldError with `code` (and `position` when given), checks `input`
 * against its snapshot (taken before the call unless given) and that the module still
 * works afterwards. Returns the error.
 */
export function expectError(fn, code, { input, snapshot = input === undefined ? undefined : structuredClone(input), position } = {}) {
  let caught;
  try { fn(); } catch (e) { caught = e; }
  assert.ok(caught, `expected a MidfoldError "${code}", nothing was thrown`);
  assert.ok(caught instanceof MidfoldError, `expected a MidfoldError, got ${caught && caught.name}: ${caught && caught.message}`);
  assert.ok(caught instanceof Error);
  assert.equal(caught.name, 'MidfoldError');
  assert.equal(caught.code, code, caught.message);
  assert.ok(typeof caught.message === 'string' && caught.message.length > 0, 'the error has a message');
  if (position !== undefined) assert.equal(caught.position, position);
  if (input !== undefined) assert.deepStrictEqual(input, snapshot, 'the caller\'s data is unchanged');
  assertStillWorks();
  return caught;
}

/** Runs fn(); expects no error; checks `input` against its snapshot and that the module still works; returns fn's answer. */
export function expectAnswer(fn, { input, snapshot = input === undefined ? undefined : structuredClone(input) } = {}) {
  const answer = fn();
  if (input !== undefined) assert.deepStrictEqual(input, snapshot, 'the caller\'s data is unchanged');
  assertStillWorks();
  return answer;
}
