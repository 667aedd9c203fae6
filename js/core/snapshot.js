/**
 * snapshot.js — what a message held when it was priced, flat, so a later call can tell
 * whether it still holds it without reading a string's text (EstimateCache's check).
 *
 * The layout, in walk order: a primitive is itself; an array is ARRAY, its length, then its
 * items; a plain object is OBJECT, its key count, then per key the key and its value; binary
 * data is the object and its byte length; an object with toJSON is what toJSON returned; an
 * object of another prototype is OBJECT, its key count and its own keys and values. `record`
 * writes it and `matches` reads it; the encoder (encode.js) calls `record` on each message of
 * a list right after encoding it, when the Compactor's first call asks it to.
 */
import { binaryLength } from './encode.js';
import { MAX_DEPTH } from './limits.js';

/** The markers of an array and of an object in a snapshot. */
export const ARRAY = Symbol('array');
export const OBJECT = Symbol('object');

/*
 * The matcher runs on every message at every call, so it is written for V8: primitives are
 * compared inline rather than by a call per leaf, and the rare kinds of object (binary data,
 * toJSON, other prototypes) leave the hot function.
 */

/**
 * Compares the object `value` with the snapshot from position `at`; returns the position
 * after it, or -1 at the first difference. Reads both, keeps neither (a getter of `value`
 * may throw: the caller catches it).
 * @param {object} value
 * @param {unknown[]} snap
 * @param {number} at
 * @param {number} depth nesting so far (0 for a message)
 * @returns {number}
 */
export function matches(value, snap, at, depth) {
  if (depth > MAX_DEPTH) return -1;
  if (Array.isArray(value)) {
    const n = value.length;
    if (snap[at] !== ARRAY || snap[at + 1] !== n) return -1;
    at += 2;
    for (let i = 0; i < n; i++) {
      const v = value[i];
      if (typeof v !== 'object' || v === null) {
        if (snap[at] !== v) return -1;
        at++;
      } else if ((at = matches(v, snap, at, depth + 1)) < 0) return -1;
    }
    return at;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return matchesOther(value, snap, at, depth);
  if (snap[at] !== OBJECT) return -1;
  const count = snap[at + 1];
  at += 2;
  // for-in walks own enumerable keys in Object.keys order without allocating their list;
  // the snapshot holds the key count, so an added or removed key fails.
  let n = 0;
  for (const k in value) {
    if ((at = matchesMember(k, value[k], snap, at, depth)) < 0) return -1;
    n++;
  }
  return n === count ? at : -1;
}

/** Compares one member of an object, its key then its value, with the snapshot from `at`. */
function matchesMember(k, v, snap, at, depth) {
  if (snap[at] !== k) return -1;
  if (typeof v !== 'object' || v === null) return snap[at + 1] === v ? at + 2 : -1;
  return matches(v, snap, at + 1, depth + 1);
}

/** Binary data, objects with toJSON, objects of other prototypes (rare: kept off the hot path). */
function matchesOther(value, snap, at, depth) {
  const bytes = binaryLength(value);
  if (bytes >= 0) return snap[at] === value && snap[at + 1] === bytes ? at + 2 : -1;
  if (typeof value.toJSON === 'function') {
    const json = value.toJSON();
    if (typeof json !== 'object' || json === null) return snap[at] === json ? at + 1 : -1;
    return matches(json, snap, at, depth + 1);
  }
  if (snap[at] !== OBJECT) return -1;
  const keys = Object.keys(value);
  if (snap[at + 1] !== keys.length) return -1;
  at += 2;
  for (const k of keys) if ((at = matchesMember(k, value[k], snap, at, depth)) < 0) return -1;
  return at;
}

/**
 * Appends the snapshot of `value` to `snap` (the layout `matches` reads). Only appends to the
 * caller's `snap`; keeps there `value`'s leaves (strings and other primitives, functions,
 * binary objects), never its plain objects or arrays.
 * @param {unknown} value
 * @param {unknown[]} snap
 * @param {number} depth nesting so far (0 for a message)
 */
export function record(value, snap, depth) {
  if (value === null || typeof value !== 'object') { snap.push(value); return; }
  if (depth > MAX_DEPTH) { snap.push(OBJECT, -1); return; } // never matches: the estimator reports the depth
  if (Array.isArray(value)) {
    const n = value.length;
    snap.push(ARRAY, n);
    for (let i = 0; i < n; i++) {
      const v = value[i];
      if (typeof v !== 'object' || v === null) snap.push(v);
      else record(v, snap, depth + 1);
    }
    return;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) { recordOther(value, snap, depth); return; }
  // As matches walks it: for-in, no key list allocated; the count is written once known.
  snap.push(OBJECT, 0);
  const countAt = snap.length - 1;
  let count = 0;
  for (const k in value) {
    const v = value[k];
    if (typeof v !== 'object' || v === null) snap.push(k, v);
    else { snap.push(k); record(v, snap, depth + 1); }
    count++;
  }
  snap[countAt] = count;
}

/** Binary data, objects with toJSON, objects of other prototypes (as matchesOther reads them). */
function recordOther(value, snap, depth) {
  const bytes = binaryLength(value);
  if (bytes >= 0) { snap.push(value, bytes); return; }
  if (typeof value.toJSON === 'function') { record(value.toJSON(), snap, depth + 1); return; }
  const keys = Object.keys(value);
  snap.push(OBJECT, keys.length);
  for (const k of keys) { snap.push(k); record(value[k], snap, depth + 1); }
}
