/**
 * pricing/hosts.js — whose prompt cache a provider's own API host bills by: what the
 * Compactor's `pricing` is for a model that sends there (the AI SDK entry reads a model's
 * host, a proxy its upstream's). Only the providers' own hosts: a gateway or a local server
 * says nothing about whose cache it reaches.
 */
const PRICING_BY_HOST = { 'api.deepseek.com': 'deepseek', 'api.anthropic.com': 'anthropic', 'api.openai.com': 'openai' };

/**
 * The Compactor `pricing` a URL's host implies: 'deepseek' for api.deepseek.com (its Chat
 * Completions and its Anthropic API at /anthropic alike), 'anthropic' for api.anthropic.com,
 * 'openai' for api.openai.com; undefined for any other host and for what is not a URL.
 * Reads `url`, keeps nothing.
 * @param {unknown} url a string or URL; anything else is no URL
 * @returns {'anthropic' | 'openai' | 'deepseek' | undefined}
 */
export function pricingOfURL(url) {
  try {
    return /** @type {any} */ (PRICING_BY_HOST[new URL(String(url)).hostname]);
  } catch {
    return undefined;
  }
}
