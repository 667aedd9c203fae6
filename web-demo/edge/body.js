/**
 * body.js — reads a request body up to a size limit, so an oversized request is refused
 * before it is parsed or even held whole in memory: by its Content-Length when it
 * declares one, otherwise (a chunked body) as soon as the bytes read pass the limit.
 *
 * A refused body that is only somewhat too large (up to twice the limit) is read to its
 * end and thrown away first: a client that writes its whole body before it reads (fetch,
 * most SDKs) then gets the 413 itself, instead of a connection reset under its writes
 * (a reset discards the answer the client had not read yet). A larger body is answered
 * as soon as that is clear (at once when declared, after twice the limit when chunked),
 * and the connection goes down with it.
 */

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Resolves to the body as text, or null when it is larger than `limit` bytes.
 * @param {Request} request
 * @param {number} limit
 */
export async function readBody(request, limit) {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) {
    if (Number(declared) <= 2 * limit) await discard(request.body, 2 * limit);
    return null;
  }
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      reader.releaseLock();
      await discard(request.body, 2 * limit - total);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) { bytes.set(c, at); at += c.byteLength; }
  return new TextDecoder().decode(bytes);
}

/**
 * Reads and drops up to `budget` more bytes of `body`. The rest, if any, is left unread
 * rather than cancelled: cancelling can drop the connection before the 413 is written,
 * while an unread body only makes workerd close it after the answer.
 */
async function discard(body, budget) {
  if (!body) return;
  const reader = body.getReader();
  try {
    for (let left = budget; left >= 0;) {
      const { done, value } = await reader.read();
      if (done) return;
      left -= value.byteLength;
    }
  } catch {
    // The client went away: nothing to answer.
  } finally {
    reader.releaseLock();
  }
}
