/**
 * depth.js — refuses a value nested deeper than the core reads (MF_MAX_DEPTH) before a
 * native walker gets it: JSON.stringify and structuredClone recurse on the engine's stack and
 * throw a RangeError ("Maximum call stack size exceeded") near 10,000 levels, where midfold
 * owes the caller MidfoldError('too-deep') naming the path, as the estimator gives it.
 */
import { MidfoldError } from './errors.js';
import { binaryLength, pathOf } from './encode.js';
import { MAX_DEPTH } from './limits.js';

/**
 * Throws MidfoldError('too-deep') when `value` nests arrays and objects (toJSON's results
 * included, as JSON.stringify reads them) deeper than MAX_DEPTH levels, counting from `depth`
 * (the levels above it in the caller's input, at the path `keys`); 'cycle' for a value that
 * holds itself; 'invalid-input' when reading it throws. The walk recurses at most MAX_DEPTH
 * levels. Reads `value` and `keys`, keeps neither.
 * @param {unknown} value
 * @param {(string | number)[]} [keys]
 * @param {number} [depth]
 */
export function checkDepth(value, keys = [], depth = 0) {
  const path = [...keys];
  const ancestors = [];
  const fail = (code, message) => {
    throw new MidfoldError(code, `${message} at ${pathOf(path)}`, { path: pathOf(path) });
  };
  const walk = (v, fromToJSON) => {
    if (v === null || typeof v !== 'object' || binaryLength(v) >= 0) return; // bytes nest nothing
    if (!fromToJSON && typeof v.toJSON === 'function') { walk(v.toJSON(), true); return; }
    if (ancestors.includes(v)) fail('cycle', 'the value contains a cycle (a reference back to an enclosing object)');
    if (depth + ancestors.length >= MAX_DEPTH) fail('too-deep', `nesting deeper than ${MAX_DEPTH} levels`);
    ancestors.push(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item = v[i];
        if (item === null || typeof item !== 'object') continue;
        path.push(i);
        walk(item, false);
        path.pop();
      }
    } else {
      for (const k of Object.keys(v)) {
        const item = v[k];
        if (item === null || typeof item !== 'object') continue;
        path.push(k);
        walk(item, false);
        path.pop();
      }
    }
    ancestors.pop();
  };
  try {
    walk(value, false);
  } catch (e) {
    if (e instanceof MidfoldError) throw e;
    fail('invalid-input', `reading the value threw (${e && e.message ? e.message : e})`);
  }
}
