/**
 * auth.js — who may talk to the chat agent. The agent spends the operator's model key, so without CLIENT_TOKEN
 * every request is refused (fails closed). A client presents its token as `Authorization: Bearer T` or, from a
 * browser's WebSocket (which cannot set headers), as the `token` query parameter (`useAgent({ query: { token } })`).
 * Tokens are compared as SHA-256 digests, each configured token in full, with no early exit.
 */

const encoder = new TextEncoder();

const digest = async (text) => new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));

/** Equal digests, in time that depends on the length only (both are 32 bytes). */
function sameDigest(a, b) {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** The token `request` presents, or null. */
function presentedToken(request) {
  const header = request.headers.get('authorization');
  const bearer = header && /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
  return bearer ? bearer[1] : new URL(request.url).searchParams.get('token');
}

/**
 * Null when `request` may go on, else the Response that refuses it (500 without CLIENT_TOKEN, 401 without a
 * valid token).
 * @param {Request} request
 * @param {{ CLIENT_TOKEN?: string }} env  one token or a comma-separated list
 */
export async function refusal(request, env) {
  const tokens = String(env.CLIENT_TOKEN ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  if (tokens.length === 0) return new Response('the chat agent is misconfigured: set the CLIENT_TOKEN secret', { status: 500 });
  const presented = presentedToken(request);
  const mine = await digest(presented ?? '');
  let match = false;
  for (const token of tokens) if (sameDigest(mine, await digest(token))) match = true;
  return presented !== null && match ? null : new Response('a valid client token is required', { status: 401, headers: { 'www-authenticate': 'Bearer' } });
}
