/**
 * auth.js — who may use the proxy, and under which scope its session state is kept.
 *
 * With CLIENT_TOKEN set (one token or a comma-separated list), a request must carry
 * `Authorization: Bearer T` with T one of them. Tokens are compared as SHA-256 digests,
 * byte by byte without an early exit, against every configured token, so the time a
 * check takes tells nothing about how much of a guess was right. The scope of a client
 * is the hex SHA-256 of its token: state is kept per client, and no token is stored.
 *
 * Without CLIENT_TOKEN (open mode) the scope is the hex SHA-256 of the client's own
 * Authorization header, which goes upstream; a request without one has no scope, so no state
 * (clients without a credential cannot be told apart, and one would continue another's
 * conversation).
 *
 * With UPSTREAM_KEY set and no CLIENT_TOKEN the worker would be an open proxy on the
 * operator's key: it refuses every request instead (fails closed).
 */

const encoder = new TextEncoder();

async function digest(text) {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

function hex(bytes) {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Equal digests, in time that depends on the length only (both are 32 bytes). */
function sameDigest(a, b) {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** The configured client tokens (empty when CLIENT_TOKEN is unset or blank). */
export function clientTokens(env) {
  return String(env.CLIENT_TOKEN ?? '').split(',').map((t) => t.trim()).filter(Boolean);
}

/** The token of an `Authorization: Bearer T` header, or null. */
function bearerToken(request) {
  const header = request.headers.get('authorization');
  const m = header && /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
  return m ? m[1] : null;
}

/**
 * Decides whether `request` may go on. Resolves to `{scope}` (the key its session state
 * lives under; null for a request that carries no credential: it keeps no state) or
 * `{status, message, type}` for the refusal.
 */
export async function authenticate(request, env) {
  const tokens = clientTokens(env);
  if (env.UPSTREAM_KEY && tokens.length === 0) {
    return {
      status: 500, type: 'server_error',
      message: 'the worker is misconfigured: UPSTREAM_KEY is set but CLIENT_TOKEN is not, which would let anyone spend the key; set CLIENT_TOKEN',
    };
  }
  if (tokens.length === 0) {
    // No tokens: the client's own key goes upstream, and scopes its state.
    const own = request.headers.get('authorization');
    return { scope: own ? hex(await digest(own)) : null };
  }
  const presented = bearerToken(request);
  const mine = await digest(presented ?? '');
  let match = false;
  for (const token of tokens) {
    // Every token is compared, whatever matched before: no early exit to time.
    if (sameDigest(mine, await digest(token))) match = true;
  }
  if (presented === null || !match) {
    return { status: 401, type: 'authentication_error', message: 'a valid client token is required: Authorization: Bearer <token>' };
  }
  return { scope: hex(mine) };
}
