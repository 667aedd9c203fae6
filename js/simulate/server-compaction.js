/**
 * server-compaction.js — a provider's server-side compaction as simulate replays it: Anthropic's
 * compact_20260112 and the Responses API's `context_management` compaction. The client keeps its
 * history and sends it from the provider's last summary on (as midfold does); once what the server
 * reads reaches `trigger`, it summarizes all of it — that compaction iteration reads the whole
 * request, which is priced as sent — and the model answers from the summary; later requests read
 * the summary and what followed it, a new prefix for the cache. The summary is the offline digest
 * (at most `maxSummaryTokens`), as simulate's Compactor writes its summaries; it is priced as the
 * compaction iteration's output and as the answer's input.
 */
import { digest, estimateTokens, ensureTier, FULL } from '../core/api.js';

export class ServerCompaction {
  /**
   * @param {{trigger: number, maxSummaryTokens?: number, profile?: string, format?: string,
   *   prices: {input: number, output: number}, summaries: object[]}} options  `summaries` receives
   *   one priced record per compaction (the caller's list, kept).
   */
  constructor(options) {
    this.trigger = options.trigger;
    this.maxSummaryTokens = options.maxSummaryTokens ?? 2000;
    this.profile = options.profile;
    this.format = options.format;
    this.prices = options.prices;
    this.summaries = options.summaries;
    this.forget();
  }

  /** The client's history changed other than at its end (a client edit): the server's summary is not sent again. */
  forget() {
    this.view = [];
    this.seen = 0;
    this.last = undefined;
  }

  /** The messages the server reads for `history` (the client's whole conversation); the list is valid until the next call. */
  async request(history) {
    if (this.seen > history.length || (this.seen > 0 && history[this.seen - 1] !== this.last)) this.forget();
    for (let i = this.seen; i < history.length; i++) this.view.push(history[i]);
    this.seen = history.length;
    this.last = history[history.length - 1];
    const read = this.view;
    if (estimateTokens(read, { profile: this.profile, format: this.format }) < this.trigger) return read;
    await ensureTier(FULL);
    const text = digest(read, { maxTokens: this.maxSummaryTokens, profile: this.profile, format: this.format });
    const tokens = estimateTokens(text, { profile: this.profile });
    this.summaries.push({ input: tokens, output: tokens, usd: (tokens * this.prices.input + tokens * this.prices.output) / 1e6 });
    this.view = [{ role: 'user', content: text }];
    return read;
  }
}
