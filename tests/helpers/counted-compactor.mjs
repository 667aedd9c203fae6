// A Compactor for the state tests (tests/state/session-state.test.mjs, tests/state/branches.test.mjs) whose summaries are the
// model-free digest, counted in its `summaries` field: how many a stateless host wrote against a stateful one.
import { Compactor, digestSummarizer } from '../../js/hosts/node.js';

/** A Compactor at threshold 8,000 (unless `options` says otherwise) counting its summaries; `options.summarize` replaces the digest. */
export function countedCompactor(options = {}) {
  const digest = digestSummarizer();
  const c = new Compactor({
    threshold: 8000, ...options,
    summarize: (r) => { c.summaries++; return (options.summarize || digest)(r); },
  });
  c.summaries = 0;
  return c;
}
