/**
 * deprecation.js — old names that still work for a while, each announced once per process.
 */

/** The policy name 'seed' is 'every-turn' (micro-compaction on every call); it goes in the next minor version. */
export const SEED_POLICY = {
  code: 'MIDFOLD_SEED_POLICY',
  message: "midfold: the policy name 'seed' is deprecated and will be removed in the next minor version; use 'every-turn' (the same policy)",
};

// Made at first use: a top-level `new` would keep this module on pages that never import
// what uses it (esbuild counts it as a side effect; docs/download.md).
let announced;

/**
 * Announces a deprecation the first time it is used in this process: through the caller's
 * `onWarn` when it has one (a host that routes midfold's warnings somewhere sees it there),
 * else as Node's DeprecationWarning (so `--no-deprecation` and `--throw-deprecation` work),
 * else on the console (browsers, workerd without Node compatibility).
 * @param {{code: string, message: string}} deprecation
 * @param {((message: string) => void) | undefined} [onWarn]
 */
export function deprecated(deprecation, onWarn) {
  announced ??= new Set();
  if (announced.has(deprecation.code)) return;
  announced.add(deprecation.code);
  if (typeof onWarn === 'function') { onWarn(deprecation.message); return; }
  const process = globalThis.process;
  if (process && typeof process.emitWarning === 'function') {
    process.emitWarning(deprecation.message, { type: 'DeprecationWarning', code: deprecation.code });
  } else if (typeof console !== 'undefined' && typeof console.warn === 'function') {
    console.warn(deprecation.message);
  }
}
