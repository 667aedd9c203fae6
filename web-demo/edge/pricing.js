/**
 * pricing.js — whose prompt cache the proxy's upstream has, for the Compactor's `pricing`
 * option (it sets the default THRESHOLD: 150,000 for DeepSeek, whose cached reads cost a
 * fiftieth, 50,000 otherwise). PRICING says it; unset, the upstream's host does for the
 * providers' own API hosts (midfold's pricingOfURL); any other upstream (a local server, a
 * gateway) has none.
 */
import { pricingOfURL } from 'midfold';

/**
 * PRICING (trimmed), else the one UPSTREAM_URL's host names, else undefined. The Compactor
 * checks the name (an unknown one is a misconfigured worker).
 * @param {{PRICING?: string | null, UPSTREAM_URL?: string}} env
 * @returns {string | undefined}
 */
export function pricingOf(env) {
  // An unset variable of the shipped config's fromEnvironment bindings arrives as null.
  if (env.PRICING !== undefined && env.PRICING !== null && String(env.PRICING).trim() !== '') return String(env.PRICING).trim();
  return pricingOfURL(env.UPSTREAM_URL);
}
