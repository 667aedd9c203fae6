/**
 * An OpenAI-compatible compacting proxy, as a Cloudflare-style module worker.
 *
 *   POST /v1/chat/completions   the request's messages are micro-compacted and, when the
 *                               estimate is still over THRESHOLD, compacted (the summary is
 *                               written by the same upstream); then the request goes to
 *                               `${UPSTREAM_URL}/chat/completions` and its answer comes back
 *                               as is, plus x-midfold-* headers with the figures.
 *
 * Environment (all strings):
 *   UPSTREAM_URL   the upstream's base URL, e.g. http://127.0.0.1:8080/v1 (required)
 *   UPSTREAM_KEY   its API key; when unset, the client's own Authorization header is passed on
 *   THRESHOLD      compact above this many estimated tokens (default 50000)
 *   PROFILE        the estimator profile: safe (default, the Compactor's), bareagent, o200k,
 *                  cl100k, deepseek, qwen or claude
 *   SUMMARY_MODEL  the model that writes summaries (default: the request's model)
 *
 * Headers added to every forwarded answer:
 *   x-midfold-tokens-before, x-midfold-tokens-after   the estimates before and after, in PROFILE's
 *                                                    tokens (the Compactor's own figures)
 *   x-midfold-compacted                              "true" when the middle was summarized
 *   x-midfold-reason                                 the compactor's reason (below-threshold, compacted, summarizer-error, …)
 *
 * A failed summary never fails the request: the conversation is then forwarded as it was.
 * Bad requests get a 4xx JSON error in OpenAI's shape; upstream errors pass through.
 */
import { init, Compactor, MidfoldError, openAISummarizer } from 'midfold';

const ROUTE = '/v1/chat/completions';
const DEFAULT_THRESHOLD = 50000;
const DEFAULT_PROFILE = 'safe'; // the Compactor's default: a compaction trigger must err high
const SUMMARY_TIMEOUT_MS = 60000;

function jsonError(status, message, type, headers = {}) {
  return new Response(JSON.stringify({ error: { message, type } }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

function wholeNumber(text, fallback) {
  if (text === undefined || text === null || String(text).trim() === '') return fallback;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** The upstream's authorization: the worker's own key, else the client's. */
function authorization(env, request) {
  if (env.UPSTREAM_KEY) return `Bearer ${env.UPSTREAM_KEY}`;
  return request.headers.get('authorization');
}

async function chatCompletions(request, env) {
  if (!env.UPSTREAM_URL) return jsonError(500, 'the worker has no UPSTREAM_URL configured', 'server_error');
  const upstreamBase = String(env.UPSTREAM_URL).replace(/\/+$/, '');

  const raw = await request.text();
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

  const auth = authorization(env, request);
  let summarizer = null;
  const options = {
    threshold: wholeNumber(env.THRESHOLD, DEFAULT_THRESHOLD),
    // The x-midfold-tokens-* headers are this Compactor's own figures: they are in this profile's tokens.
    profile: env.PROFILE && String(env.PROFILE).trim() ? String(env.PROFILE).trim() : DEFAULT_PROFILE,
    timeoutMs: SUMMARY_TIMEOUT_MS,
    // Built on first use (requests under the threshold never need it); the same upstream
    // writes the summary, with the same credentials as the request itself.
    summarize: (req) => {
      summarizer ??= openAISummarizer({
        baseURL: upstreamBase,
        apiKey: env.UPSTREAM_KEY || undefined,
        headers: !env.UPSTREAM_KEY && auth ? { authorization: auth } : undefined,
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
    // A misconfigured worker (an unknown PROFILE) is the server's fault, not the client's.
    if (e instanceof MidfoldError) return jsonError(500, `the worker is misconfigured: ${e.message}`, 'server_error');
    throw e;
  }

  const messages = body.messages;
  let report;
  try {
    report = await compactor.compact(messages);
  } catch (e) {
    if (e instanceof MidfoldError) return jsonError(400, `'messages' cannot be read: ${e.message}`, 'invalid_request_error');
    throw e;
  }
  // Micro-compaction only clears results costlier than their marker, so an edit always
  // lowers the figure; a failed compaction leaves the array exactly as it was.
  const changed = report.compacted || report.tokensAfter < report.tokensBefore;

  const headers = { 'content-type': 'application/json' };
  if (auth) headers.authorization = auth;
  const accept = request.headers.get('accept');
  if (accept) headers.accept = accept;

  let upstream;
  try {
    upstream = await fetch(`${upstreamBase}/chat/completions`, {
      method: 'POST',
      headers,
      body: changed ? JSON.stringify(body) : raw, // unchanged requests go on byte for byte
    });
  } catch (e) {
    return jsonError(502, `the upstream could not be reached: ${e.message}`, 'upstream_error');
  }

  const response = new Response(upstream.body, upstream);
  response.headers.set('x-midfold-tokens-before', String(report.tokensBefore));
  response.headers.set('x-midfold-tokens-after', String(report.tokensAfter));
  response.headers.set('x-midfold-compacted', String(report.compacted));
  response.headers.set('x-midfold-reason', report.reason);
  return response;
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname !== ROUTE) return jsonError(404, `no route for ${pathname}`, 'not_found');
    if (request.method !== 'POST') return jsonError(405, `use POST for ${ROUTE}`, 'method_not_allowed', { allow: 'POST' });
    try {
      return await chatCompletions(request, env);
    } catch (e) {
      console.error('midfold edge worker:', e);
      return jsonError(500, `the worker failed: ${e && e.message}`, 'server_error');
    }
  },
};
