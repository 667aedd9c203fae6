/**
 * relay.js — what of the upstream's answer goes back to the client. The status and the body
 * do, as they come (a stream as it streams); of the headers, those that belong to the
 * worker's own hop or to the operator's account do not:
 *
 * - hop-by-hop fields (Connection, Keep-Alive, Proxy-Connection, TE, Trailer,
 *   Transfer-Encoding, Upgrade, and every field the Connection header names): they describe
 *   the connection between the worker and the upstream, not the client's (RFC 9110 §7.6.1);
 * - Proxy-Authenticate: a challenge from a proxy on the worker's way out (RFC 9110 §11.7.1);
 * - Set-Cookie (and the obsolete Set-Cookie2): cookies the upstream set for its own site,
 *   such as a load balancer's or bot manager's session of the worker's connection. A browser
 *   would keep them for the proxy's site and send them back to it, so every client of the
 *   proxy would share the operator's session with the upstream;
 * - Alt-Svc: other endpoints of the upstream's origin (RFC 7838); relayed, it would claim
 *   them for the proxy's origin;
 * - with UPSTREAM_KEY (the operator's key): openai-organization and openai-project (OpenAI's
 *   API overview, "Debugging requests") and anthropic-organization-id (Anthropic's API
 *   overview, "Response headers"), which name the account the key belongs to. A client's own
 *   key (no UPSTREAM_KEY) names the client's own account: those go back.
 * Request ids, rate-limit and retry headers, the content type and the rest go back.
 *
 * With UPSTREAM_KEY the body is scrubbed of it: an upstream or gateway that echoes the key
 * in an error ("Incorrect API key provided: …") or a log line would otherwise hand it to
 * every client. The scrubber works on bytes as they stream: it holds back only the end of a
 * chunk that could begin the key, so a server-sent event that cannot be part of it (they end
 * with a blank line, which no key holds) goes on at once.
 */

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade',
  'proxy-authenticate', 'proxy-authorization'];
const NOT_RELAYED = ['set-cookie', 'set-cookie2', 'alt-svc'];
const ACCOUNT = ['openai-organization', 'openai-project', 'anthropic-organization-id'];
/** What replaces the key in a body. */
export const REDACTED = '[redacted]';

const encoder = new TextEncoder();

/**
 * The headers of the upstream's answer that go back to the client (a new Headers).
 * @param {Headers} upstream
 * @param {{operatorKey: boolean, scrubbing: boolean}} how whether the worker used its own
 *   key, and whether the body is scrubbed (its length may change: no Content-Length then)
 */
export function relayedHeaders(upstream, { operatorKey, scrubbing }) {
  const named = (upstream.get('connection') ?? '').split(',').map((t) => t.trim().toLowerCase()).filter(Boolean);
  const dropped = new Set([...HOP_BY_HOP, ...NOT_RELAYED, ...named, ...(operatorKey ? ACCOUNT : []),
    ...(scrubbing ? ['content-length'] : [])]);
  const headers = new Headers();
  for (const [name, value] of upstream) if (!dropped.has(name)) headers.append(name, value);
  return headers;
}

/**
 * `body` with every occurrence of `secret` replaced by REDACTED, as a stream of bytes that
 * passes each chunk on as soon as no part of it can still begin the secret.
 * @param {ReadableStream<Uint8Array>} body
 * @param {string} secret non-empty
 * @returns {ReadableStream<Uint8Array>}
 */
export function scrubbed(body, secret) {
  const needle = encoder.encode(secret);
  const replacement = encoder.encode(REDACTED);
  let held = new Uint8Array(0);
  return body.pipeThrough(new TransformStream({
    transform(chunk, controller) {
      const data = held.length ? concat([held, chunk]) : chunk;
      const parts = [];
      let from = 0;
      for (let at = find(data, needle, from); at >= 0; at = find(data, needle, from)) {
        parts.push(data.subarray(from, at), replacement);
        from = at + needle.length;
      }
      const keep = partialMatch(data, from, needle);
      parts.push(data.subarray(from, data.length - keep));
      held = data.slice(data.length - keep);
      const out = concat(parts);
      if (out.length) controller.enqueue(out);
    },
    flush(controller) {
      if (held.length) controller.enqueue(held);
    },
  }));
}

/** The first index at or after `from` where `needle` starts in `data`, or -1. */
function find(data, needle, from) {
  for (let at = data.indexOf(needle[0], from); at >= 0 && at + needle.length <= data.length; at = data.indexOf(needle[0], at + 1)) {
    let k = 1;
    while (k < needle.length && data[at + k] === needle[k]) k++;
    if (k === needle.length) return at;
  }
  return -1;
}

/** The length of the longest end of data[from..] that is a proper beginning of `needle`. */
function partialMatch(data, from, needle) {
  for (let k = Math.min(needle.length - 1, data.length - from); k > 0; k--) {
    let j = 0;
    while (j < k && data[data.length - k + j] === needle[j]) j++;
    if (j === k) return k;
  }
  return 0;
}

function concat(parts) {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}
