/**
 * An OpenAI-compatible compacting proxy, as a Cloudflare-style module worker.
 *
 *   POST /v1/chat/completions   the request's messages are micro-compacted and, when the
 *                               estimate is still over THRESHOLD, compacted (the summary is
 *                               written by the same upstream); then the request goes to
 *                               `${UPSTREAM_URL}/chat/completions` and its answer comes back
 *                               as it comes (a `stream: true` answer as the upstream streams
 *                               it), plus x-midfold-* headers with the figures, less what
 *                               belongs to the worker's hop or the operator (relay.js: the
 *                               upstream's cookies, hop-by-hop headers, Alt-Svc and, with
 *                               UPSTREAM_KEY, its account headers; UPSTREAM_KEY itself is
 *                               scrubbed from the body, streamed or not).
 *
 * Clients re-send their whole history every turn. With the SESSIONS binding (a Durable
 * Object namespace, see config.capnp or wrangler.jsonc) the proxy remembers, per client and conversation,
 * what that history was compacted to, so the next turn forwards the same compacted
 * prefix again and a summary is written only when a stateful Compactor would write one.
 * A client is its CLIENT_TOKEN, or without CLIENT_TOKEN its own Authorization header; a
 * request that carries none keeps no state. What a request was compacted to is stored only
 * once the upstream answered it with a 2xx status (for a stream: its status, before the
 * events), so a request it refuses (a junk key, a bad request) leaves nothing behind. Each
 * client's state is bounded (session-store.js): STATE_MAX_CONVERSATIONS conversations and
 * STATE_MAX_BYTES in all, the least recently saved evicted first, each expiring
 * STATE_TTL_SECONDS after it was last saved (a Durable Object alarm deletes it).
 *
 * Environment (all strings):
 *   UPSTREAM_URL    the upstream's base URL, e.g. http://127.0.0.1:8080/v1 (required)
 *   CLIENT_TOKEN    one token or a comma-separated list: requests must carry
 *                   `Authorization: Bearer <one of them>` (401 otherwise); the token never
 *                   goes upstream
 *   UPSTREAM_KEY    the upstream's API key. Set without CLIENT_TOKEN, every request gets a
 *                   500 (an open proxy on the operator's key is refused). Unset, the client's
 *                   own Authorization header goes upstream (when there is no CLIENT_TOKEN) or
 *                   none does (when there is: an upstream that needs no key)
 *   MAX_BODY_BYTES  larger request bodies get 413 before they are read whole (16 MiB)
 *   THRESHOLD       compact above this many estimated tokens (default 50000; 150000 when
 *                   PRICING is deepseek)
 *   PRICING         whose prompt cache the upstream has: anthropic, openai or deepseek. It
 *                   sets the default THRESHOLD (DeepSeek's cached reads cost a fiftieth, so a
 *                   clearing is repaid only ~50 turns later). Unset: read from UPSTREAM_URL's
 *                   host (api.deepseek.com, api.openai.com, api.anthropic.com), else none
 *   PROFILE         the estimator profile: safe (default, the Compactor's), bareagent, o200k,
 *                   cl100k, deepseek, qwen or claude
 *   SUMMARY_MODEL   the model that writes summaries (default: the request's model)
 *   STATE_MAX_CONVERSATIONS   conversations kept per client (256; 1 to 1000)
 *   STATE_MAX_BYTES           bytes of state kept per client (16 MiB; at least 131072)
 *   STATE_TTL_SECONDS         how long a conversation's state is kept after it was last
 *                             saved (604800: 7 days). Each is a 500 (misconfigured) when it is
 *                             no whole number in its range
 * Binding:
 *   SESSIONS        a Durable Object namespace of SessionStore (exported here); without it
 *                   the proxy keeps no state and plans every request afresh
 *
 * Headers added to every forwarded answer:
 *   x-midfold-tokens-before, x-midfold-tokens-after   the estimates before and after, in PROFILE's
 *                                                    tokens (the Compactor's own figures, on what
 *                                                    it was handed: the remembered compacted form
 *                                                    plus the new messages)
 *   x-midfold-compacted                              "true" when a summary was written for this request
 *   x-midfold-reason                                 the compactor's reason (below-threshold, compacted, summarizer-error, …)
 *   x-midfold-state                                  "continued" (a remembered prefix was reused), "fresh", or
 *                                                    "off" (no SESSIONS binding, or a request without credentials)
 *   x-midfold-reused-messages                        how many of the client's messages that prefix covered
 *   x-midfold-state-saved                            "true" when this request's compacted form was stored;
 *                                                    "false" when there was nothing new to store (or no
 *                                                    state); "too-large" when it alone is over the 120 KiB
 *                                                    the proxy stores a conversation in (a Durable Object
 *                                                    value holds 128 KiB): the next turn continues from what
 *                                                    was stored before, or plans afresh; "store-error"
 *                                                    when the Durable Object failed to store it;
 *                                                    "not-accepted" when the upstream's status was
 *                                                    not 2xx (nothing is stored for such a request)
 *
 * A failed summary never fails the request: the conversation is then forwarded as it was
 * (with the remembered compacted prefix, if any). Bad requests get a 4xx JSON error in
 * OpenAI's shape; upstream errors pass through (relayed as above).
 */
import { init, Compactor, MidfoldError, SessionState, compactHistory, conversationKey, openAISummarizer } from 'midfold';
import { authenticate, clientTokens } from './auth.js';
import { DEFAULT_MAX_BODY_BYTES, readBody } from './body.js';
import { pricingOf } from './pricing.js';
import { relayedHeaders, scrubbed } from './relay.js';
import { durableObjectStore, stateLimits } from './session-store.js';

export { SessionStore } from './session-store.js';

const ROUTE = '/v1/chat/completions';
const DEFAULT_PROFILE = 'safe'; // the Compactor's default: a compaction trigger must err high
const SUMMARY_TIMEOUT_MS = 60000;
// A key-value Durable Object's value holds at most 128 KiB (session-store.js stores UTF-8 bytes):
// the state drops its oldest snapshots first, and a fold too large on its own is not stored.
const MAX_STATE_BYTES = 120 * 1024;

function jsonError(status, message, type, headers = {}) {
  return new Response(JSON.stringify({ error: { message, type } }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A setting's whole number: `unset` when it is not set, `invalid` when it is not one. */
function wholeNumber(text, unset, invalid = unset) {
  if (text === undefined || text === null || String(text).trim() === '') return unset;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 ? n : invalid;
}

/** The upstream's authorization: the worker's own key; else the client's, unless the
 * client's header carried its token for this proxy (which never goes upstream). */
function authorization(env, request) {
  if (env.UPSTREAM_KEY) return `Bearer ${env.UPSTREAM_KEY}`;
  if (clientTokens(env).length) return null;
  return request.headers.get('authorization');
}

async function chatCompletions(request, env, scope) {
  const upstreamBase = String(env.UPSTREAM_URL).replace(/\/+$/, '');

  // A limit that cannot be read is the operator's mistake: refuse rather than guess one.
  const limit = wholeNumber(env.MAX_BODY_BYTES, DEFAULT_MAX_BODY_BYTES, null);
  if (limit === null || limit === 0) {
    return jsonError(500, 'the worker is misconfigured: MAX_BODY_BYTES must be a whole number of bytes > 0', 'server_error');
  }
  // (the state's bounds are checked even for a request that will keep none: a bad setting is found at once)
  const bounds = env.SESSIONS ? stateLimits(env) : null;
  if (bounds && bounds.error) return jsonError(500, `the worker is misconfigured: ${bounds.error}`, 'server_error');
  const raw = await readBody(request, limit);
  if (raw === null) return jsonError(413, `the request body is larger than ${limit} bytes`, 'invalid_request_error');
  let body;
  try {
    body = JSON.parse(raw);
  } catch (e) {
    return jsonError(400, `the request body is not valid JSON: ${e.message}`, 'invalid_request_error');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return jsonError(400, 'the request body must be a JSON object', 'invalid_request_error');
  }
  if (!Array.isArray(body.messages)) {
    return jsonError(400, "'messages' must be an array of messages", 'invalid_request_error');
  }

  await init();

  const upstreamAuth = authorization(env, request);
  let summarizer = null;
  const options = {
    // Unset, the Compactor's default for the upstream's pricing; not a whole number, a 500 below.
    threshold: wholeNumber(env.THRESHOLD, undefined, String(env.THRESHOLD)),
    pricing: pricingOf(env),
    // The x-midfold-tokens-* headers are this Compactor's own figures: they are in this profile's tokens.
    profile: env.PROFILE && String(env.PROFILE).trim() ? String(env.PROFILE).trim() : DEFAULT_PROFILE,
    timeoutMs: SUMMARY_TIMEOUT_MS,
    // Built on first use (requests under the threshold never need it); the same upstream
    // writes the summary, with the same credentials as the request itself.
    summarize: (req) => {
      summarizer ??= openAISummarizer({
        baseURL: upstreamBase,
        apiKey: env.UPSTREAM_KEY || undefined,
        headers: !env.UPSTREAM_KEY && upstreamAuth ? { authorization: upstreamAuth } : undefined,
        model: env.SUMMARY_MODEL || body.model,
        fetch,
      });
      return summarizer(req);
    },
    onWarn: (message, error) => console.warn(message, error && error.message ? error.message : ''),
  };
  let compactor;
  try {
    compactor = new Compactor(options);
  } catch (e) {
    // A misconfigured worker (an unknown PROFILE or PRICING, a THRESHOLD that is no whole
    // number) is the server's fault, not the client's.
    if (e instanceof MidfoldError) return jsonError(500, `the worker is misconfigured: ${e.message}`, 'server_error');
    throw e;
  }

  const messages = body.messages;
  let result;
  let state;
  try {
    // A request without a credential (open mode, no Authorization) has no scope: no state.
    state = env.SESSIONS && scope ? new SessionState({
      store: durableObjectStore(env.SESSIONS, scope, bounds.limits), key: await conversationKey(messages),
      maxBytes: MAX_STATE_BYTES, onWarn: options.onWarn,
    }) : undefined;
    // Saved only once the upstream accepted the request (below): in open mode a refused key
    // (an attacker's, a typo) must leave nothing behind.
    result = await compactHistory(compactor, messages, { state, deferSave: true });
  } catch (e) {
    if (e instanceof MidfoldError) return jsonError(400, `'messages' cannot be read: ${e.message}`, 'invalid_request_error');
    throw e;
  }
  const { report } = result;
  body.messages = result.messages;

  const headers = { 'content-type': 'application/json' };
  if (upstreamAuth) headers.authorization = upstreamAuth;
  const accept = request.headers.get('accept');
  if (accept) headers.accept = accept;

  let upstream;
  try {
    upstream = await fetch(`${upstreamBase}/chat/completions`, {
      method: 'POST',
      headers,
      body: report.session.changed ? JSON.stringify(body) : raw, // unchanged requests go on byte for byte
    });
  } catch (e) {
    return jsonError(502, `the upstream could not be reached: ${e.message}`, 'upstream_error');
  }

  // A 2xx status is the upstream's word that it took the request (a stream's later failure does not
  // unmake what it was sent): only then is its compacted form remembered for the next turn.
  let saved = 'false';
  if (result.save) {
    if (upstream.ok) {
      const session = await result.save();
      saved = session.saved ? 'true' : session.unsaved;
    } else saved = 'not-accepted';
  }

  // The upstream's own hop and the operator's account stay here, and so does the key (relay.js).
  const secret = env.UPSTREAM_KEY ? String(env.UPSTREAM_KEY) : '';
  const response = new Response(secret && upstream.body ? scrubbed(upstream.body, secret) : upstream.body, {
    status: upstream.status,
    statusText: upstream.statusText,
    headers: relayedHeaders(upstream.headers, { operatorKey: Boolean(secret), scrubbing: Boolean(secret && upstream.body) }),
  });
  response.headers.set('x-midfold-tokens-before', String(report.tokensBefore));
  response.headers.set('x-midfold-tokens-after', String(report.tokensAfter));
  response.headers.set('x-midfold-compacted', String(report.compacted));
  response.headers.set('x-midfold-reason', report.reason);
  response.headers.set('x-midfold-state', !state ? 'off' : report.session.matched ? 'continued' : 'fresh');
  response.headers.set('x-midfold-reused-messages', String(report.session.matched));
  response.headers.set('x-midfold-state-saved', saved);
  return response;
}

export default {
  async fetch(request, env) {
    try {
      // A misconfigured worker refuses everything, before it looks at the request.
      if (!env.UPSTREAM_URL) return jsonError(500, 'the worker is misconfigured: UPSTREAM_URL is not set', 'server_error');
      const auth = await authenticate(request, env);
      if (auth.status) {
        return jsonError(auth.status, auth.message, auth.type, auth.status === 401 ? { 'www-authenticate': 'Bearer' } : {});
      }
      const { pathname } = new URL(request.url);
      if (pathname !== ROUTE) return jsonError(404, `no route for ${pathname}`, 'not_found');
      if (request.method !== 'POST') return jsonError(405, `use POST for ${ROUTE}`, 'method_not_allowed', { allow: 'POST' });
      return await chatCompletions(request, env, auth.scope);
    } catch (e) {
      console.error('midfold edge worker:', e);
      return jsonError(500, `the worker failed: ${e && e.message}`, 'server_error');
    }
  },
};
