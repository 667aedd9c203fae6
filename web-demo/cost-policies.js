// The policies the demo's "What it costs" card compares, built from the page's own settings,
// so the replay runs what the page's Compactor runs: the same threshold, keep recent, keep
// tail, language and estimator profile. Plain data and text, no DOM: the worker hands the
// `policy` objects to simulate(), the card shows the names and the explanations, and the
// browser tests build the same list to check the card's figures in Node.

/**
 * @param {{threshold: number, keepRecent: number, keepTail: number, profile: string, language?: string}} settings
 * @returns {{name: string, label: string, policy: object}[]} `policy` as simulate() takes it
 */
export function costPolicies({ threshold, keepRecent, keepTail, profile, language }) {
  const compactor = { threshold, keepRecent, keepTail: { tokens: keepTail }, profile, ...(language ? { language } : {}) };
  return [
    { name: 'none', label: 'No management' },
    { name: 'every-turn', label: 'Clear every turn', compactor: { ...compactor, policy: 'every-turn' } },
    { name: 'context-editing', label: 'Server-side clearing', contextEditing: { trigger: threshold, keep: keepRecent, clearAtLeast: 0 } },
    { name: 'defaults', label: "midfold's Compactor", compactor },
  ].map(({ name, label, ...parts }) => ({ name, label, policy: { name, label, ...parts } }));
}

const n = (v) => new Intl.NumberFormat('en-US').format(v);

/**
 * One line that says what a policy does, with the numbers it ran with.
 * @param {string} name a costPolicies() name
 * @param {{threshold: number, keepRecent: number}} settings
 * @param {{compactor?: {microTrigger: number, clearAtLeast: number}}} [result] its simulate() result,
 *   for the figures the Compactor resolved
 * @returns {string}
 */
export function explainPolicy(name, { threshold, keepRecent }, result) {
  const kept = keepRecent === 0 ? 'none whole' : keepRecent === 1 ? 'the most recent' : `the ${n(keepRecent)} most recent`;
  switch (name) {
    case 'none': return 'Sends the whole conversation on every call: cheap while the prompt cache holds it, until it no longer fits.';
    case 'every-turn': return `Clears old tool results before every call (keeps ${kept}) and folds the middle past ${n(threshold)} tokens; most calls rewrite the prompt cache.`;
    case 'context-editing': return `The provider clears old tool results from each request past ${n(threshold)} tokens (Anthropic's context editing; keeps ${kept}); nothing is folded.`;
    case 'defaults': {
      const c = result && result.compactor;
      const batch = c ? ` once past ${n(c.microTrigger)} tokens, at least ${n(c.clearAtLeast)} at a time,` : '';
      return `Clears old tool results in batches${batch} and folds the middle past ${n(threshold)} tokens, so the prompt cache is rewritten rarely.`;
    }
    default: return '';
  }
}
