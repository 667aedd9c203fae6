/**
 * requests.js — what a run's actual requests cost: each request as it was sent (recorded by
 * a mock provider, a proxy or a log), priced against the requests before it by the same
 * provider caching rules simulate() uses (js/pricing/, docs/cost.md). simulate() replays a
 * session under policies midfold runs itself; this prices what another component (the Agents
 * SDK's compaction session, a framework's own trimming) really sent, so the two can be
 * compared on one bill.
 */
import { MidfoldError } from '../core/errors.js';
import { estimateTokens } from '../core/api.js';
import { optionsObject } from '../core/options.js';
import { CACHES, resolvePricing } from './simulate.js';

/** One input item (or the fixed head) as a priced item: its text (what a cache compares), tokens and blocks. */
function priced(value, profile, format) {
  const blocks = Array.isArray(value && value.content) ? Math.max(1, value.content.length) : 1;
  return { key: JSON.stringify(value), tokens: estimateTokens(format ? [value] : value, { profile, ...(format ? { format } : {}) }), blocks };
}

/**
 * Prices `requests` in order, all within the cache's lifetime (as a run of an agent is).
 * Each request is a Responses body ({input, instructions?, tools?}) or a Messages body
 * ({messages, system?, tools?}); its instructions or system and tools make its fixed head.
 * Options: `pricing` (a name or a pricing object, as simulate's), `model`, `ttl`, `profile`.
 * Ownership: reads the requests and keeps nothing of them once it returns.
 * @param {Array<{input?: unknown[], messages?: unknown[], instructions?: unknown, system?: unknown, tools?: unknown}>} requests
 * @param {{pricing?: string | object, model?: string, ttl?: string, profile?: string}} [options]
 * @returns {{provider: string, model: string, requests: number, inputTokens: number, cachedTokens: number, inputUsd: number, billedTokens: number, peakInput: number, perRequest: Array<{input: number, read: number, usd: number}>}}
 */
export function priceRequests(requests, options = {}) {
  if (!Array.isArray(requests)) throw new MidfoldError('invalid-input', 'priceRequests: requests must be an array of request bodies');
  optionsObject(options, 'priceRequests', ['pricing', 'model', 'ttl', 'profile']);
  const { pricing, modelName, model, ttl } = resolvePricing({ pricing: options.pricing ?? 'openai', model: options.model, ttl: options.ttl });
  const profile = options.profile === undefined ? pricing.profile : options.profile;
  const cache = CACHES[pricing.caching](pricing, model, ttl, 'breakpoints');
  const base = pricing.caching === 'units' ? model.cacheMiss : model.input;
  const perRequest = [];
  let inputTokens = 0, cachedTokens = 0, usd = 0, peak = 0;
  requests.forEach((body, n) => {
    const list = body && (Array.isArray(body.input) ? body.input : Array.isArray(body.messages) ? body.messages : null);
    if (!list) throw new MidfoldError('invalid-input', `priceRequests: request ${n} has neither input nor messages`);
    const format = Array.isArray(body.input) ? 'openai-responses' : undefined;
    const fixed = body.instructions ?? body.system;
    const items = [];
    if (fixed !== undefined || body.tools !== undefined) {
      const head = { system: fixed, tools: body.tools };
      items.push({ key: JSON.stringify(head), tokens: (fixed === undefined ? 0 : estimateTokens(fixed, { profile }))
        + (body.tools === undefined ? 0 : estimateTokens(body.tools, { profile })), blocks: 1 });
    }
    for (const item of list) items.push(priced(item, profile, format));
    const tokens = [0], blocks = [0];
    for (const it of items) { tokens.push(tokens[tokens.length - 1] + it.tokens); blocks.push(blocks[blocks.length - 1] + it.blocks); }
    const bill = cache(items, { tokens, blocks }, 0, items.length && (fixed !== undefined || body.tools !== undefined) ? 1 : 0);
    const total = tokens[items.length];
    inputTokens += total; cachedTokens += bill.read; usd += bill.usd;
    if (total > peak) peak = total;
    perRequest.push({ input: total, read: bill.read, usd: bill.usd });
  });
  return { provider: pricing.provider, model: modelName, requests: requests.length, inputTokens, cachedTokens, inputUsd: usd,
    billedTokens: Math.round((usd * 1e6) / base), peakInput: peak, perRequest };
}
